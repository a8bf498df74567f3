package sdkpatch

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodeSeeds are lines for DecodeMessage and go-sdk's DecodeMessage to
// agree on: requests and notifications of every id kind, responses, and
// what go-sdk refuses (version, id, method, error member, key case,
// depth).
var decodeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":null}`,
	`{"jsonrpc":"2.0","id":-7,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":""}`,
	`{"jsonrpc":"2.0","id":1,"method":5}`,
	`{"jsonrpc":"2.0","id":1,"method":"a\u00e9\ud83d\ude00\n"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":[1,{"a":[]}]}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":"s"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","error":5}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","error":{"code":1,"message":"m"},"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","result":7}`,
	`{"jsonrpc":"1.0","id":1,"method":"x"}`,
	`{"id":1,"method":"x"}`,
	`{"JSONRPC":"2.0","id":1,"method":"x"}`,
	`{"jsonrpc":"2.0","ID":1,"Method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","method":"y","id":2}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","Params":{"a":1},"params":{"b":2}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no","data":[1]}}`,
	`{"jsonrpc":"2.0","result":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 998) + strings.Repeat("]", 998) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"` + strings.Repeat("{", 1200) + `"}}`,
	`[]`,
	`"x"`,
	`{"jsonrpc":"2.0","id":1,"method":"x"} `,
	` {"jsonrpc":"2.0","id":1,"method":"x"}`,
}

// sameDecode fails t unless DecodeMessage and go-sdk's DecodeMessage give
// line the same message or the same error.
func sameDecode(t *testing.T, line string) {
	t.Helper()
	got, gerr := DecodeMessage([]byte(line), 1000)
	want, werr := jsonrpc.DecodeMessage([]byte(line))
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("%.120s: error %v, go-sdk's %v", line, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%.120s:\n got %#v\nwant %#v", line, got, want)
	}
}

// TestDecodeMessageAsGoSDK: DecodeMessage gives every line
// what go-sdk's DecodeMessage gives it, messages and errors alike.
func TestDecodeMessageAsGoSDK(t *testing.T) {
	for _, line := range decodeSeeds {
		sameDecode(t, line)
	}
}

func FuzzDecodeMessageAsGoSDK(f *testing.F) {
	for _, line := range decodeSeeds {
		f.Add(line)
	}
	f.Fuzz(sameDecode)
}

// TestDecodeMessageStartCost: a stdio session's first lines (initialize,
// notifications/initialized) are decoded without go-sdk's 32 KB decoder
// buffers (four of them, 128 KB, before the first tools/list), which
// brought a garbage collection to most cold starts' first answer.
func TestDecodeMessageStartCost(t *testing.T) {
	lines := [][]byte{[]byte(decodeSeeds[0]), []byte(decodeSeeds[1])}
	const n = 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		for _, l := range lines {
			if _, err := DecodeMessage(l, 1000); err != nil {
				t.Fatal(err)
			}
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 4<<10 {
		t.Errorf("decoding initialize and notifications/initialized allocates %d bytes; at most %d", per, 4<<10)
	}
}
