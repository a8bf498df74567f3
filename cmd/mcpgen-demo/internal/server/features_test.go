package server

import (
	"context"
	"database/sql"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/adapters/sqlite"
	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/internal/demoauth"
	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/library"
	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// full are the features of cmd/mcpgen-demo/full: its features(), the same.
func full() Features {
	return Features{
		SQLite: func(dsn string) (*sql.DB, error) { return sql.Open("sqlite", dsn) },
		TaskStore: func(path string) (taskstore.Store, func() error, error) {
			s, err := sqlite.Open(path)
			if err != nil {
				return nil, nil, err
			}
			return s, s.Close, nil
		},
		Redis: func(ctx context.Context, url string) (Shared, error) {
			c, err := mcpredis.Open(ctx, url, nil)
			if err != nil {
				return nil, err
			}
			return c, nil
		},
		Auth: func(ctx context.Context, a Auth, shared Shared, o *mcptool.HTTPOptions) (func(), error) {
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
