package mcpopenapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/internal/npmtest"
	"github.com/mcpgen/mcpgen/mcptool"
)

// octokitOpenAPI is the npm package of GitHub's REST description.
const octokitOpenAPI = "@octokit/openapi@23.0.2"

// githubDescription installs GitHub's REST API description from npm.
func githubDescription(t testing.TB) string {
	_, dir := npmtest.Install(t, "openapi-github", 20, octokitOpenAPI)
	return filepath.Join(dir, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json")
}

// TestGitHub: GitHub's REST description, which nobody here wrote, loads
// and registers whole, and serves in discovery mode: the first tools/list
// is the proxies, and a fronted operation found by search_tools is called
// through call_tool.
func TestGitHub(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 13 MB description")
	}
	file := githubDescription(t)
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[]`)
	})
	var before, withDoc, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	d, err := mcpopenapi.Load(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Since(start)
	full := mcptool.NewRegistry(mcpopenapi.Types())
	if err := mcpopenapi.Add(full, d, mcpopenapi.Options{BaseURL: up.URL}); err != nil {
		t.Fatal(err) // every operation of GitHub's API is fronted
	}
	registered := time.Since(start) - loaded
	runtime.GC()
	runtime.ReadMemStats(&withDoc)
	disc := mcptool.NewRegistry(mcpopenapi.Types(), mcptool.Discovery())
	if err := mcpopenapi.Add(disc, d, mcpopenapi.Options{BaseURL: up.URL}); err != nil {
		t.Fatal(err)
	}
	d = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := len(full.Tools())
	if n < 1000 {
		t.Errorf("%d tools", n)
	}
	fb, fn := listBytes(t, full)
	db, dn := listBytes(t, disc)
	t.Logf("GitHub: %d operations, all fronted; Load %v, Add %v; heap: description and one registry %d MiB, two registries %d MiB",
		n, loaded.Round(time.Millisecond), registered.Round(time.Millisecond), (withDoc.HeapAlloc-before.HeapAlloc)>>20, (after.HeapAlloc-before.HeapAlloc)>>20)
	t.Logf("first tools/list: %d tools, %d bytes; in discovery mode %d tools, %d bytes", fn, fb, dn, db)
	if dn > 3 || db*100 > fb {
		t.Errorf("discovery lists %d tools, %d bytes", dn, db)
	}

	r, err := disc.Call(context.Background(), "search_tools", json.RawMessage(`{"query":"list pull requests of a repository","limit":3}`))
	if err != nil || r.IsError || !strings.Contains(text(r), `"name":"pulls_list"`) {
		t.Fatalf("search_tools: %v %s", err, text(r))
	}
	r, err = disc.Call(context.Background(), "call_tool", json.RawMessage(`{"name":"pulls_list","arguments":{"owner":"mcpgen","repo":"mcpgen","state":"open","per_page":5}}`))
	if err != nil || r.IsError || up.lastRequest() != "GET /repos/mcpgen/mcpgen/pulls?state=open&per_page=5 " {
		t.Errorf("call_tool pulls_list: %v %s; upstream saw %q", err, text(r), up.lastRequest())
	}
	r, _ = disc.Call(context.Background(), "call_tool", json.RawMessage(`{"name":"pulls_list","arguments":{"owner":"mcpgen","repo":"mcpgen","state":"merged"}}`))
	if !r.IsError || !strings.Contains(text(r), "state") {
		t.Errorf("call_tool pulls_list with a bad state: %s", text(r))
	}
	runtime.KeepAlive(full)
	runtime.KeepAlive(disc)
}

// listBytes is the size of the tools/list a client of reg gets, and the
// number of tools in it.
func listBytes(t *testing.T, reg *mcptool.Registry) (int, int) {
	t.Helper()
	ctx := context.Background()
	srv := reg.Server(&mcp.Implementation{Name: "openapi", Version: "1"}, nil)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	size, n := 0, 0
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(tl)
		size += len(b)
		n++
	}
	return size, n
}
