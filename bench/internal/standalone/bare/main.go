// Command bare is the stateless series' ceiling: not an MCP server, but a
// plain net/http handler that decodes the series' 2026-07-28 tools/call
// with encoding/json, into the types its members name, and writes a fixed
// answer: the one mcpgen's server writes to it (an SSE message event, with
// the same headers). What a server does beyond this is its MCP stack's
// cost. It serves only -wire stateless, on loopback; it prints its address
// and start-up heap (standalone.Ready) and serves until killed.
package main

import (
	"encoding/json"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
)

// request is a 2026-07-28 tools/call of calculate_sum.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Name      string           `json:"name"`
		Arguments standalone.SumIn `json:"arguments"`
		Meta      map[string]any   `json:"_meta"`
	} `json:"params"`
}

// answer is mcpgen's answer to the series' call, as an SSE event.
const answer = "event: message\ndata: " + `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":` +
	`{"name":"standalone","version":"1"}},"content":[{"type":"text","text":"{\"sum\":3}"}],` +
	`"structuredContent":{"sum":3},"resultType":"complete"}}` + "\n\n"

func main() {
	wire := standalone.Wire()
	standalone.Profile(wire)
	if wire != standalone.Stateless {
		log.Fatalf("-wire %s: the bare server serves only %s", wire, standalone.Stateless)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Method != "tools/call" || req.Params.Name != standalone.SumName {
			http.Error(w, "not the series' call", http.StatusBadRequest)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-cache, no-transform")
		h.Set("Content-Type", "text/event-stream")
		h.Set("Connection", "keep-alive")
		_, _ = w.Write([]byte(answer))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	standalone.Ready(os.Stdout, ln)
	log.Fatal(http.Serve(ln, h))
}
