// Command mcpgen-demo is mcpgen's demo MCP server: plain Go functions served
// as MCP tools over stdio (the default) or streamable HTTP.
//
//	go run ./cmd/mcpgen-demo                         # stdio, for MCP clients that launch servers
//	go run ./cmd/mcpgen-demo -http 127.0.0.1:8080    # streamable HTTP at http://127.0.0.1:8080/mcp
//	go run ./cmd/mcpgen-demo -toolset conformance -http 127.0.0.1:3000
//
// Logs go to stderr, never stdout (stdout carries the protocol on stdio).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

const version = "0.1.0"

type config struct {
	httpAddr  string
	stateless bool
	toolset   string
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgen-demo:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcpgen-demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.StringVar(&cfg.httpAddr, "http", "", "serve streamable HTTP on `ADDR` (endpoint /mcp) instead of stdio; a bare port listens on localhost")
	fs.BoolVar(&cfg.stateless, "stateless", false, "with -http: serve every request statelessly (the 2026-07-28 mode), no sessions")
	fs.StringVar(&cfg.toolset, "toolset", "demo", "which tools to serve: demo or conformance")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv, err := newServer(cfg, logger)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.httpAddr == "" {
		logger.Info("serving on stdio", "toolset", cfg.toolset)
		return srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	}
	return serveHTTP(ctx, srv, cfg, logger)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// newServer builds the MCP server of the chosen toolset.
func newServer(cfg config, logger *slog.Logger) (*mcp.Server, error) {
	impl := &mcp.Implementation{Name: "mcpgen-demo", Title: "mcpgen demo", Version: version}
	reg := mcptool.NewRegistry(mcptool.Logger(logger))
	switch cfg.toolset {
	case "demo":
		if err := registerDemo(reg); err != nil {
			return nil, err
		}
		return reg.Server(impl, &mcp.ServerOptions{Logger: logger, Instructions: "mcpgen demo tools."}), nil
	case "conformance":
		return conformanceServer(reg, impl, logger)
	}
	return nil, fmt.Errorf("unknown toolset %q (want demo or conformance)", cfg.toolset)
}

func serveHTTP(ctx context.Context, srv *mcp.Server, cfg config, logger *slog.Logger) error {
	addr := cfg.httpAddr
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort("127.0.0.1", addr) // a bare port: localhost only
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcptool.NewHTTPHandler(srv, &mcptool.HTTPOptions{Stateless: cfg.stateless, Logger: logger}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	logger.Info("serving streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "stateless", cfg.stateless, "toolset", cfg.toolset)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
