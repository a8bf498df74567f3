package server

import (
	"context"
	"database/sql"
	"io"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// Features are what a command adds to the demo server beyond its core.
// The demo command (cmd/mcpgen-demo) adds none, so that its first build
// compiles no SQLite, Redis client, OAuth library or protobuf runtime;
// cmd/mcpgen-demo/full adds them all. A feature left nil has no flag.
type Features struct {
	name string // the command's name, for usage and errors

	// SQLite opens the SQLite database of dsn (a file name with
	// parameters): the notes and create_record's tables (demo.db). Without
	// it the demo toolset has neither.
	SQLite func(dsn string) (*sql.DB, error)
	// TaskStore opens the SQLite file of the tasks (-tasks-db); without it
	// tasks are kept in memory.
	TaskStore func(path string) (store taskstore.Store, close func() error, err error)
	// Redis opens the state replicas share in the Redis server at url
	// (-redis).
	Redis func(ctx context.Context, url string) (Shared, error)
	// Auth makes o require OAuth access tokens (-auth-issuer, -auth-audience,
	// -auth-dpop, -list-all-tools); shared is -redis's state, nil without
	// it. done stops refreshing the issuer's keys.
	Auth func(ctx context.Context, a Auth, shared Shared, o *mcptool.HTTPOptions) (done func(), err error)
	// Issuer is the issuer subcommand: a development OAuth issuer.
	Issuer func(ctx context.Context, args []string, stderr io.Writer) error
	// Tools registers more tools of the demo toolset (the protobuf library's),
	// with the scopes read and write; their types need ToolTypes.
	Tools     func(reg *mcptool.Registry, read, write mcptool.Option) error
	ToolTypes mcptool.RegistryOption
}

// Shared is the state replicas share (-redis): the registry's and the HTTP
// handler's options.
type Shared interface {
	RegistryOptions() []mcptool.RegistryOption
	HTTPOptions() *mcptool.HTTPOptions
	Close() error
}

// Auth is what -auth-issuer, -auth-audience and -auth-dpop ask for.
type Auth struct {
	Issuer   string // the issuer's URL
	Audience string // this server's resource identifier
	DPoP     bool   // only DPoP-bound tokens (RFC 9449)
}

// fullNote names the command with the features the demo command leaves out.
const fullNote = "SQLite (the notes, create_record, -tasks-db), Redis (-redis), OAuth (-auth-issuer, the issuer subcommand) and the protobuf library's tools " +
	"are in cmd/mcpgen-demo/full: go run ./cmd/mcpgen-demo/full -help"

// command is the command's name.
func (f Features) command() string {
	if f.name == "" {
		return "mcpgen-demo"
	}
	return f.name
}
