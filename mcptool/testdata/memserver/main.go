// Command memserver is the server of mcptool's TestHTTPBodiesMemory and
// TestHTTPBatchMemory: one tool (and -tools more) behind Server.Handler
// with its defaults, on a free loopback port, built without the race
// detector (which would multiply its memory). It prints "ADDR <url>" and
// serves until its standard input closes, or for fifteen minutes at most.
// GET /free returns the heap's free memory to the system
// (debug.FreeOSMemory), so that the test measures each case from a heap of
// the same size.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

func main() {
	// How long a body may wait for room: the test bounds each burst with
	// it (it bounds time, not memory).
	wait := flag.Duration("body-timeout", 30*time.Second, "HTTPOptions.BodyReadTimeout")
	tools := flag.Int("tools", 0, "more tools, of about 1.5 KiB each listed: a catalogue whose tools/list is worth asking for many times")
	stateless := flag.Bool("stateless", false, "HTTPOptions.Stateless")
	flag.Parse()
	quiet := slog.New(slog.DiscardHandler)
	reg := mcptool.NewRegistry(mcptool.Logger(quiet))
	if err := mcptool.Add(reg, "size", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (int, error) {
		return len(in.S), nil
	}, mcptool.Description("Measure s.")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := range *tools {
		if err := mcptool.Add(reg, fmt.Sprintf("tool_%03d", i), func(_ context.Context, in struct {
			Query string `json:"query" jsonschema:"description=What to look for in words."`
			Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,description=How many at most."`
		}) (string, error) {
			return in.Query, nil
		}, mcptool.Description(strings.Repeat("Finds the records that match a query. ", 30))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.Handle("/", reg.Server(&mcp.Implementation{Name: "memserver", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{Logger: quiet, BodyReadTimeout: *wait, Stateless: *stateless}))
	mux.HandleFunc("GET /free", func(http.ResponseWriter, *http.Request) { debug.FreeOSMemory() })
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() { _ = hs.Serve(ln) }()
	fmt.Printf("ADDR http://%s\n", ln.Addr())
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Minute): // a test on a busy machine outlasts minutes
	}
	_ = hs.Close()
}
