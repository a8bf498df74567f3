package mcptool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stashed counts the arguments set aside and not yet taken back.
func stashed() int {
	n := 0
	setAside.Range(func(any, any) bool { n++; return true })
	return n
}

// Large arguments set aside by NewHTTPHandler reach the tool whole, on
// every path a call takes, and nothing stays set aside.
func TestLargeArgumentsSetAside(t *testing.T) {
	type sizeIn struct {
		S string `json:"s"`
	}
	type headerIn struct {
		Region string `json:"region" jsonschema_extras:"x-mcp-header=Region"`
		S      string `json:"s"`
	}
	reg := NewRegistry()
	size := func(_ context.Context, in sizeIn) (int, error) { return len(in.S), nil }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(Add(reg, "size", size, Description("Measure s.")))
	must(Add(reg, "size_task", size, Description("Measure s, as a task."), Task(TaskSettings{Wait: -1})))
	must(Add(reg, "header", func(_ context.Context, in headerIn) (string, error) {
		return fmt.Sprintf("%s %d", in.Region, len(in.S)), nil
	}, Description("Mirrors region.")))
	hs := httptest.NewServer(NewHTTPHandler(reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil), Stateless()))
	defer hs.Close()

	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},` +
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	post := func(method, params string, header ...string) string {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + meta + `,` + params + `}}`
		req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				raw = []byte(d)
			}
		}
		return string(raw)
	}
	big := strings.Repeat("x", 200<<10)

	if got := post("tools/call", `"name":"size","arguments":{"s":"`+big+`"}`, "Mcp-Name", "size"); !strings.Contains(got, fmt.Sprintf(`{"result":%d}`, len(big))) {
		t.Errorf("plain call: %.300s", got)
	}
	// A task: its worker reads the arguments after the request is answered.
	got := post("tools/call", `"name":"size_task","arguments":{"s":"`+big+`"}`, "Mcp-Name", "size_task")
	var created struct {
		Result struct {
			TaskID string `json:"taskId"`
		} `json:"result"`
	}
	if json.Unmarshal([]byte(got), &created); created.Result.TaskID == "" {
		t.Fatalf("task call: %.300s", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got = post("tasks/get", `"taskId":"`+created.Result.TaskID+`"`, "Mcp-Name", created.Result.TaskID)
		if strings.Contains(got, `"completed"`) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(got, fmt.Sprintf(`{\"result\":%d}`, len(big))) && !strings.Contains(got, fmt.Sprintf(`"result":%d`, len(big))) {
		t.Errorf("task result: %.400s", got)
	}
	// A tool with a header parameter: go-sdk sees the real arguments.
	if got := post("tools/call", `"name":"header","arguments":{"region":"eu","s":"`+big+`"}`, "Mcp-Name", "header", "Mcp-Param-Region", "eu"); !strings.Contains(got, fmt.Sprintf("eu %d", len(big))) {
		t.Errorf("header tool: %.300s", got)
	}
	// Without the header, as go-sdk answers it for small arguments.
	small := post("tools/call", `"name":"header","arguments":{"region":"eu","s":"x"}`, "Mcp-Name", "header")
	large := post("tools/call", `"name":"header","arguments":{"region":"eu","s":"`+big+`"}`, "Mcp-Name", "header")
	if strings.Contains(small, `"error"`) != strings.Contains(large, `"error"`) {
		t.Errorf("header tool without the header: small %.200s, large %.200s", small, large)
	}
	// An unknown tool: go-sdk's error, as without setting aside.
	if got := post("tools/call", `"name":"nope","arguments":{"s":"`+big+`"}`, "Mcp-Name", "nope"); !strings.Contains(got, `"error"`) {
		t.Errorf("unknown tool: %.300s", got)
	}
	// A client sending a placeholder itself gets its arguments checked as
	// they are.
	if got := post("tools/call", `"name":"size","arguments":{"`+setAsideKey+`":"AAAAAAAAAAAAAAAAAAAAAAAAAA"}`, "Mcp-Name", "size"); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, setAsideKey) {
		t.Errorf("forged placeholder: %.300s", got)
	}
	// Arguments given twice: left to go-sdk.
	if got := post("tools/call", `"name":"size","arguments":{"s":"a"},"arguments":{"s":"`+big+`"}`, "Mcp-Name", "size"); !strings.Contains(got, `"result"`) {
		t.Errorf("arguments twice: %.300s", got)
	}
	if n := stashed(); n != 0 {
		t.Errorf("%d arguments still set aside", n)
	}
}

// setArgsAside leaves alone what it must not touch.
func TestSetArgsAsideLeaves(t *testing.T) {
	reg := NewRegistry()
	if err := Add(reg, "size", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (int, error) {
		return len(in.S), nil
	}, Description("Measure s.")); err != nil {
		t.Fatal(err)
	}
	built := reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	plain := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	shared := reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	NewRegistry().Mount(shared)
	big := strings.Repeat("x", setAsideMin)
	call := func(args string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"size","arguments":` + args + `}}`)
	}
	for _, tc := range []struct {
		name   string
		srv    *mcp.Server
		body   []byte
		header string
		want   bool
	}{
		{"large", built, call(`{"s":"` + big + `"}`), "", true},
		{"small", built, call(`{"s":"x"}`), "", false},
		{"no registry", plain, call(`{"s":"` + big + `"}`), "", false},
		{"two registries", shared, call(`{"s":"` + big + `"}`), "", false},
		{"header", built, call(`{"s":"` + big + `"}`), "Mcp-Param-S", false},
		{"not an object", built, call(`["` + big + `"]`), "", false},
		{"invalid", built, call(`{"s":"` + big + `",}`), "", false},
		{"unknown tool", built, bytes.Replace(call(`{"s":"`+big+`"}`), []byte(`"size"`), []byte(`"nope"`), 1), "", false},
	} {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		if tc.header != "" {
			r.Header.Set(tc.header, "x")
		}
		out, drop, ok := setArgsAside(r, tc.srv, tc.body)
		if ok != tc.want {
			t.Errorf("%s: set aside = %v, want %v", tc.name, ok, tc.want)
		}
		if ok {
			if len(out) > 300 || !json.Valid(out) {
				t.Errorf("%s: body handed on: %.300s", tc.name, out)
			}
			drop()
		} else if !bytes.Equal(out, tc.body) {
			t.Errorf("%s: body changed though not set aside", tc.name)
		}
	}
	if n := stashed(); n != 0 {
		t.Errorf("%d arguments still set aside", n)
	}
}
