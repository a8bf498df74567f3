// Package server is the demo MCP server of cmd/mcpgen-demo and
// cmd/mcpgen-demo/full: plain Go functions and the methods of small
// services, served as MCP tools over stdio (the default) or streamable HTTP.
// The tools do real work on an embedded default: files and an SQLite
// database in a per-user data directory, seeded on first run, and public
// HTTP APIs where a tool needs one. What needs a heavy dependency (Redis,
// OAuth, protobuf) comes from the command as Features.
//
// Logs go to stderr, never stdout (stdout carries the protocol on stdio).
//
// The tools are documented where they are written: a tool's description is
// the doc comment of its function or method, and the descriptions of its
// arguments and results are the doc comments of their types and fields.
// cmd/mcpgen turns them into mcpgen_gen.go (go generate ./cmd/mcpgen-demo/...),
// with the schemas precomputed.
package server

// mcpgen_gen.go first: docs/tools.md (docs.go) is written from the registry,
// whose descriptions and schemas come from it. go generate runs the files of
// a package in the order of their names, doc.go before docs.go.

//go:generate go tool mcpgen
