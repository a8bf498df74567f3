// Package example is a package of tools for cmd/mcpgen's tests: several
// files, a generic helper, embedded structs and types from another package.
package example

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen
