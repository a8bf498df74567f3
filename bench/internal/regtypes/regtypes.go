// Package regtypes holds the registration benchmarks' argument types,
// written by internal/gen (regtypes_gen.go), and each stack's registration
// call for each of them. It is a package of its own so that the 1000 types
// and their generic instantiations compile once, not with every change to
// the benchmarks.
package regtypes

import (
	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

//go:generate go run ../gen -n 1000 -o regtypes_gen.go

// RegOut is the result type of every generated tool.
type RegOut struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

// Type is one generated argument type's registration on each stack.
type Type struct {
	// Mcpgen registers with Registry.Add (the reflection path).
	Mcpgen func(r *mcptool.Registry, name string) error
	// McpgenGeneric registers with the generic mcptool.Add.
	McpgenGeneric func(r *mcptool.Registry, name string) error
	// Gosdk registers with go-sdk's generic mcp.AddTool, schemas inferred.
	Gosdk func(s *mcp.Server, name string)
	// Mcpgo builds an mcp-go tool with WithInputSchema[T] and
	// WithOutputSchema[RegOut] and a structured handler.
	Mcpgo func(name string) mgoserver.ServerTool
}
