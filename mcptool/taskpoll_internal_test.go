package mcptool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjson "github.com/segmentio/encoding/json"
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

// Whatever plainTaskGet takes, go-sdk reads the same way: a tasks/get
// request with the same id and task ID, of the 2026-07-28 wire, from a
// client declaring the tasks extension. (Not the converse: it may leave to
// go-sdk what go-sdk would also take.)
func FuzzPlainTaskGet(f *testing.F) {
	const plain = `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"T","_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},` +
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`
	f.Add([]byte(plain))
	f.Add([]byte(strings.Replace(plain, `"id":7`, `"id":"x\u00e9"`, 1)))
	f.Add([]byte(strings.Replace(plain, `"method"`, `"Method"`, 1)))
	f.Add([]byte(strings.Replace(plain, `"taskId":"T"`, `"taskId":"T","TaskId":"U"`, 1)))
	f.Add([]byte(strings.Replace(plain, `{}}}}}}`, `null}}}}} `, 1)))
	f.Add([]byte(plain + `{}`))
	f.Add([]byte(strings.Replace(plain, `"name":"c"`, `"name":5`, 1)))
	f.Add([]byte(strings.Replace(plain, `"id":7`, `"id":7,"id":8`, 1)))
	f.Fuzz(func(t *testing.T, body []byte) {
		id, taskID, ok := plainTaskGet(body)
		if !ok {
			return
		}
		msg, err := jsonrpc.DecodeMessage(body)
		if err != nil {
			t.Fatalf("taken, but go-sdk cannot decode it: %v", err)
		}
		req, isReq := msg.(*jsonrpc.Request)
		if !isReq || req.Method != "tasks/get" || !req.IsCall() {
			t.Fatalf("taken, but go-sdk reads %#v", msg)
		}
		var ours, theirs any
		if json.Unmarshal(id, &ours) != nil {
			t.Fatalf("id %s is no JSON", id)
		}
		raw, _ := json.Marshal(req.ID.Raw())
		_ = json.Unmarshal(raw, &theirs)
		if fmt.Sprint(ours) != fmt.Sprint(theirs) {
			t.Fatalf("id %v, go-sdk reads %v", ours, theirs)
		}
		// go-sdk decodes params as it decodes messages: segmentio, keys
		// matched exactly.
		var p taskParams
		dec := sjson.NewDecoder(bytes.NewReader(req.Params))
		dec.DontMatchCaseInsensitiveStructFields()
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go-sdk cannot decode the params: %v", err)
		}
		if p.TaskID != taskID {
			t.Fatalf("taskId %q, go-sdk reads %q", taskID, p.TaskID)
		}
		if !clientHasTasks(&mcp.ServerRequest[*taskParams]{Params: &p}) || p.Meta[mcp.MetaKeyProtocolVersion] != modernVersion {
			t.Fatalf("go-sdk reads _meta %v: not a 2026-07-28 client with tasks", p.Meta)
		}
		var info mcp.Implementation
		if v, present := p.Meta[mcp.MetaKeyClientInfo]; present {
			b, _ := json.Marshal(v)
			dec := sjson.NewDecoder(bytes.NewReader(b))
			dec.DontMatchCaseInsensitiveStructFields()
			if err := dec.Decode(&info); err != nil {
				t.Fatalf("go-sdk cannot read clientInfo %s: %v", b, err)
			}
		}
	})
}
