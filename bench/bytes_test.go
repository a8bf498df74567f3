package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestBytesPerTool measures what a model reads of the search tool on each
// stack: the bytes of its input and output schemas as tools/list carries
// them (go-sdk: the schema given to mcp.AddTool and the output schema it
// infers with jsonschema-go; mcp-go: the tool's marshalled schemas). The
// table is bench/README.md's "bytes per tool" row:
//
//	cd bench && go test -run TestBytesPerTool -v
func TestBytesPerTool(t *testing.T) {
	sizes := map[string][2]int{}

	tl, ok := mcpgenRegistry().Tool(toolName)
	if !ok {
		t.Fatal("no search tool")
	}
	sizes["mcpgen"] = [2]int{len(tl.InputSchema.(json.RawMessage)), len(tl.OutputSchema.(json.RawMessage))}
	if strings.Contains(string(tl.OutputSchema.(json.RawMessage)), "1.7976931348623157e308") {
		t.Errorf("mcpgen's output schema restates float64's range: %s", tl.OutputSchema)
	}

	in, err := json.Marshal(gosdkInputSchema())
	if err != nil {
		t.Fatal(err)
	}
	outSchema, err := jsonschema.For[SearchResult](nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(outSchema)
	if err != nil {
		t.Fatal(err)
	}
	sizes["gosdk"] = [2]int{len(in), len(out)}

	mt := mcpgoTool()
	raw, err := json.Marshal(mt)
	if err != nil {
		t.Fatal(err)
	}
	var listed struct{ InputSchema, OutputSchema json.RawMessage }
	if err := json.Unmarshal(raw, &listed); err != nil {
		t.Fatal(err)
	}
	sizes["mcpgo"] = [2]int{len(compact(t, listed.InputSchema)), len(compact(t, listed.OutputSchema))}

	var b strings.Builder
	b.WriteString("| stack | input schema | output schema | total | vs gosdk |\n| --- | --- | --- | --- | --- |\n")
	base := sizes["gosdk"][0] + sizes["gosdk"][1]
	for _, stack := range []string{"mcpgen", "gosdk", "mcpgo"} {
		s := sizes[stack]
		if s[0] == 0 || s[1] == 0 {
			t.Errorf("%s: no schema measured", stack)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.2fx |\n", stack, s[0], s[1], s[0]+s[1], float64(s[0]+s[1])/float64(base))
	}
	t.Logf("search tool, bytes per tool:\n%s", b.String())
}

func compact(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
