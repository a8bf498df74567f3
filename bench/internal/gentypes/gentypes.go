// Package gentypes holds the registration benchmarks' argument types for the
// generated path: the types of package regtypes under other names, a
// top-level tool function for each (gentypes_gen.go, written by
// internal/gen), and the plans cmd/mcpgen precomputed for them
// (mcpgen_gen.go). The reflection rows use regtypes, which has no generated
// data, so the two paths never mix.
package gentypes

//go:generate go run ../gen -generated -n 1000 -o gentypes_gen.go
//go:generate go tool mcpgen

// GenOut is the result type of every generated tool.
type GenOut struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}
