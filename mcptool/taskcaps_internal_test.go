package mcptool

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientHasTasks reads a 2026-07-28 request's _meta itself: it answers as
// go-sdk's ClientCapabilities does, for every capabilities go-sdk lets
// through.
func TestClientHasTasksAsGoSDK(t *testing.T) {
	for _, caps := range []string{
		`{}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":{}}}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":null}}`,
		`{"extensions":{"io.modelcontextprotocol/tasks":{"x":1}},"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{}}}`,
		`{"extensions":{"io.modelcontextprotocol/Tasks":{}}}`,
		`{"extensions":{"other":{}}}`,
		`{"extensions":{}}`,
		`{"extensions":null}`,
		`{"Extensions":{"io.modelcontextprotocol/tasks":{}}}`,
		`{"experimental":{"io.modelcontextprotocol/tasks":{}}}`,
	} {
		for _, version := range []string{"2026-07-28", "2025-11-25", ""} {
			raw := `{"name":"x","_meta":{"io.modelcontextprotocol/clientCapabilities":` + caps
			if version != "" {
				raw += `,"io.modelcontextprotocol/protocolVersion":"` + version + `"`
			}
			raw += `}}`
			var p mcp.CallToolParamsRaw
			if err := json.Unmarshal([]byte(raw), &p); err != nil {
				t.Fatal(err)
			}
			call := &mcp.CallToolRequest{Params: &p}
			want := false
			if c := call.ClientCapabilities(); c != nil {
				_, want = c.Extensions[TasksExtension]
			}
			if got := clientHasTasks(call); got != want {
				t.Errorf("%s at %q: clientHasTasks %v, ClientCapabilities says %v", caps, version, got, want)
			}
			get := &mcp.ServerRequest[*taskParams]{Params: &taskParams{ParamsBase: mcp.ParamsBase{Meta: p.Meta}}}
			if got := clientHasTasks(get); got != want {
				t.Errorf("tasks/get, %s at %q: clientHasTasks %v, ClientCapabilities says %v", caps, version, got, want)
			}
		}
	}
	if clientHasTasks(&mcp.CallToolRequest{}) {
		t.Error("a request without params declares the extension")
	}
}
