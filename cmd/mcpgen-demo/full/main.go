// Command full is mcpgen's demo MCP server (cmd/mcpgen-demo) with every
// feature, including those that need heavy modules, which the demo command
// leaves out so that its first run compiles about a third as much (bench/README.md):
//
//   - the notes (search_pages, get_page, delete_page), create_record and
//     -tasks-db FILE: SQLite (modernc.org/sqlite, adapters/sqlite)
//   - -redis URL: replicas share their state in Redis (adapters/redis; docs/deploy.md)
//   - -auth-issuer URL, -auth-audience URI, -auth-dpop, -list-all-tools: an
//     OAuth resource server (adapters/oauth; docs/auth.md)
//   - the issuer subcommand: a development OAuth issuer on loopback
//   - the protobuf library's tools, library_search_books, library_lend_book
//     and library_return_book (cmd/mcpgen-demo/library, served by adapters/protobuf)
//
// Usage:
//
//	go run ./cmd/mcpgen-demo/full -http 127.0.0.1:8080 -stateless -redis redis://127.0.0.1:6379/0
//	go run ./cmd/mcpgen-demo/full issuer -http 127.0.0.1:9000
//	go run ./cmd/mcpgen-demo/full -http 127.0.0.1:8080 -auth-issuer http://127.0.0.1:9000
//	go run ./cmd/mcpgen-demo/full docs -o docs/tools.md
//
// Every other flag is the demo command's (-help lists them all).
package main

import (
	"context"
	"database/sql"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/adapters/sqlite"
	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/internal/demoauth"
	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/internal/server"
	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/library"
	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

func main() { server.Main("mcpgen-demo-full", features()) }

// features are every feature of the demo; internal/server's tests build the
// same (features_test.go).
func features() server.Features {
	return server.Features{
		SQLite: func(dsn string) (*sql.DB, error) { return sql.Open("sqlite", dsn) },
		TaskStore: func(path string) (taskstore.Store, func() error, error) {
			s, err := sqlite.Open(path)
			if err != nil {
				return nil, nil, err
			}
			return s, s.Close, nil
		},
		Redis: func(ctx context.Context, url string) (server.Shared, error) {
			c, err := mcpredis.Open(ctx, url, nil)
			if err != nil {
				return nil, err
			}
			return c, nil
		},
		Auth: func(ctx context.Context, a server.Auth, shared server.Shared, o *mcptool.HTTPOptions) (func(), error) {
			var spent cluster.SpentStore
			if c, ok := shared.(*mcpredis.Cluster); ok {
				spent = c.SpentStore()
			}
			return demoauth.Verify(ctx, a.Issuer, a.Audience, a.DPoP, spent, o)
		},
		Issuer: demoauth.Issuer,
		Tools: func(reg *mcptool.Registry, read, write mcptool.Option) error {
			return library.Register(reg, library.New(time.Now), read, write)
		},
		ToolTypes: library.Types(),
	}
}
