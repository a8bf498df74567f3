package bench

// BenchmarkTaskWire is BenchmarkTask with the client taken out: a bare
// JSON-RPC client writes each request's bytes and reads the response's,
// over mcpgen's stdio transport (pipes) or streamable HTTP on loopback.
// What it measures is the server's share of the two modes: the transport,
// go-sdk's server and mcpgen.
//
//	BenchmarkTaskWire/transport=T/mode=direct  tools/call of a tool that is not a task
//	BenchmarkTaskWire/transport=T/mode=task    tools/call of it as a task plus
//	                                           its first tasks/get

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/mcptool"
)

// wireMeta is the _meta of a 2026-07-28 request from a client declaring
// the tasks extension.
const wireMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// roundTrip sends one request and returns its response's bytes; name is
// the Mcp-Name header's value (HTTP).
type roundTrip func(method, name, body string) []byte

func wireSession(tb testing.TB, transport string) roundTrip {
	tb.Helper()
	store, _ := storeWith(tb, 10_000)
	_, srv := echoServer(tb, mcptool.Tasks(mcptool.TaskSettings{Store: store}))
	if transport == "stdio" {
		cr, cw := serveStdio(tb, srv)
		out := bufio.NewReader(cr)
		return func(_, _, body string) []byte {
			if _, err := io.WriteString(cw, body+"\n"); err != nil {
				tb.Fatal(err)
			}
			line, err := out.ReadBytes('\n')
			if err != nil {
				tb.Fatal(err)
			}
			return line
		}
	}
	ts := httptest.NewServer(srv.Handler(nil))
	tb.Cleanup(ts.Close)
	client := ts.Client()
	return func(method, name, body string) []byte {
		req, err := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		if err != nil {
			tb.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		req.Header.Set("Mcp-Name", name)
		resp, err := client.Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			tb.Fatal(resp.Status, err)
		}
		// A response that came as an event stream: its data line.
		if i := bytes.Index(data, []byte("data: ")); i >= 0 {
			data, _, _ = bytes.Cut(data[i+len("data: "):], []byte("\n"))
		}
		return data
	}
}

func callLine(tool string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool +
		`","arguments":{"text":"hello"},` + wireMeta + `}}`
}

func BenchmarkTaskWire(b *testing.B) {
	for _, tr := range []string{"stdio", "http"} {
		b.Run("transport="+tr, func(b *testing.B) {
			send := wireSession(b, tr)
			direct, task := callLine("echo"), callLine("echo_task")
			b.Run("mode=direct", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if res := send("tools/call", "echo", direct); !bytes.Contains(res, []byte(`"text":"hello"`)) {
						b.Fatalf("%s", res)
					}
				}
			})
			b.Run("mode=task", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					var created struct {
						Result struct {
							TaskID string `json:"taskId"`
						} `json:"result"`
					}
					res := send("tools/call", "echo_task", task)
					if json.Unmarshal(res, &created) != nil || created.Result.TaskID == "" {
						b.Fatalf("%s", res)
					}
					id := created.Result.TaskID
					get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `",` + wireMeta + `}}`
					if res := send("tasks/get", id, get); !bytes.Contains(res, []byte(`"taskId":"`+id+`"`)) {
						b.Fatalf("%s", res)
					}
				}
			})
		})
	}
}
