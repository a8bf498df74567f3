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
// What needs a heavy module is in cmd/mcpgen-demo/full, so that the first
// run compiles about a third as much (bench/README.md): SQLite (the notes,
// create_record, -tasks-db), Redis (-redis), OAuth (-auth-issuer,
// -auth-audience, -auth-dpop, -list-all-tools, the issuer subcommand) and
// the protobuf library's tools (library/).
//
// Logs go to stderr, never stdout (stdout carries the protocol on stdio).
// The server is internal/server.
package main

import "github.com/mcpgen/mcpgen/cmd/mcpgen-demo/internal/server"

func main() { server.Main("mcpgen-demo", server.Features{}) }
