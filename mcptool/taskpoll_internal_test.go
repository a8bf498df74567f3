package mcptool

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Which requests the handler answers itself, and which it leaves to go-sdk.
func TestServePollTakes(t *testing.T) {
	reg := NewRegistry()
	built := reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mounted := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	reg.Mount(mounted)
	shared := NewRegistry().Server(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	reg.Mount(shared) // two registries: whose tasks?

	const plain = `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"T","_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},` +
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`
	for _, tc := range []struct {
		name   string
		srv    *mcp.Server
		body   string
		header []string
		want   bool
	}{
		{"plain", built, plain, nil, true},
		{"mounted only", mounted, plain, nil, false},
		{"two registries", shared, plain, nil, false},
		{"no extension", built, strings.Replace(plain, `"io.modelcontextprotocol/tasks"`, `"other"`, 1), nil, false},
		{"old protocol in _meta", built, strings.Replace(plain, `"2026-07-28"`, `"2025-11-25"`, 1), nil, false},
		{"bad clientInfo", built, strings.Replace(plain, `{"name":"c","version":"1"}`, `"c"`, 1), nil, false},
		{"no taskId", built, strings.Replace(plain, `"taskId":"T",`, ``, 1), nil, false},
		{"null id", built, strings.Replace(plain, `"id":7`, `"id":null`, 1), nil, false},
		{"object id", built, strings.Replace(plain, `"id":7`, `"id":{}`, 1), nil, false},
		{"jsonrpc 1.0", built, strings.Replace(plain, `"2.0"`, `"1.0"`, 1), nil, false},
		{"key case", built, strings.Replace(plain, `"method"`, `"Method"`, 1), nil, false},
		{"Mcp-Name mismatch", built, plain, []string{"Mcp-Name", "U"}, false},
		{"Mcp-Name matches", built, plain, []string{"Mcp-Name", "T"}, true},
		{"other Mcp-Method", built, plain, []string{"Mcp-Method", "tools/call"}, false},
		{"no JSON accepted", built, plain, []string{"Accept", "text/event-stream"}, false},
		{"old protocol header", built, plain, []string{"Mcp-Protocol-Version", "2025-11-25"}, false},
	} {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", "tasks/get")
		for i := 0; i+1 < len(tc.header); i += 2 {
			r.Header.Set(tc.header[i], tc.header[i+1])
		}
		w := httptest.NewRecorder()
		if got := servePoll(w, r, tc.srv, []byte(tc.body)); got != tc.want {
			t.Errorf("%s: servePoll = %v, want %v", tc.name, got, tc.want)
		}
		if tc.want && (w.Header().Get("Content-Type") != "application/json" || !strings.Contains(w.Body.String(), `"id":7`)) {
			t.Errorf("%s: answered %q %s", tc.name, w.Header().Get("Content-Type"), w.Body)
		}
	}
}
