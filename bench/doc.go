// Package bench compares mcpgen with its peers on the same tool: go-sdk's
// generic mcp.AddTool, mark3labs/mcp-go with input validation, and a
// hand-written handler on go-sdk's low-level Server.AddTool (the floor).
//
// It is a separate module so the peers never enter mcpgen's own go.mod; its
// go.mod replaces github.com/mcpgen/mcpgen with the working tree (../).
// The benchmarks live in _test.go files; run ./run.sh for the side-by-side
// table, ./ci.sh for the CI smoke run. README.md has the latest results.
//
// The registration benchmarks' 1000 argument types are generated into
// internal/regtypes by internal/gen (go generate ./...).
//
// BenchmarkStandalone runs two minimal servers as processes of their own,
// the commands in internal/standalone/mcpgen and internal/standalone/gosdk,
// so that each holds only what its own stack links.
package bench
