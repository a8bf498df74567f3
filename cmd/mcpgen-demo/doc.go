// Command mcpgen-demo is mcpgen's demo MCP server: plain Go functions and the
// methods of small services, served as MCP tools over stdio (the default) or
// streamable HTTP. The tools do real work on an embedded default: files and an
// SQLite database in a per-user data directory, seeded on first run, and public
// HTTP APIs where a tool needs one.
//
//	go run ./cmd/mcpgen-demo                         # stdio, for MCP clients that launch servers
//	go run ./cmd/mcpgen-demo -http 127.0.0.1:8080    # streamable HTTP at http://127.0.0.1:8080/mcp
//	go run ./cmd/mcpgen-demo docs                    # the tool catalogue as Markdown (-format json)
//	go run ./cmd/mcpgen-demo -toolset conformance -http 127.0.0.1:3000
//
// Flags of the demo toolset: -data DIR, -allow CMD,..., -confirm=false,
// -cmd-timeout, -github-url, -weather-url, -geocoding-url, -search-url,
// -allow-private-upstreams (see -help). Environment: GITHUB_TOKEN (or
// GH_TOKEN) for github_create_issue, and
// MCPGEN_GITHUB_URL, MCPGEN_WEATHER_URL, MCPGEN_GEOCODING_URL and
// MCPGEN_SEARCH_URL as defaults of the URL flags.
//
// Logs go to stderr, never stdout (stdout carries the protocol on stdio).
//
// The tools are documented where they are written: a tool's description is
// the doc comment of its function or method, and the descriptions of its
// arguments and results are the doc comments of their types and fields.
// cmd/mcpgen turns them into mcpgen_gen.go (go generate ./cmd/mcpgen-demo),
// with the schemas precomputed.
package main

// mcpgen_gen.go first: docs/tools.md (docs.go) is written from the registry,
// whose descriptions and schemas come from it. go generate runs the files of
// a package in the order of their names, doc.go before docs.go.

//go:generate go tool mcpgen
