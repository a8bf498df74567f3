// Package standalone holds what the minimal servers of BenchmarkStandalone
// and of the three-server series (./series) share: the tools (echo: one
// string argument; calculate_sum: two numbers; each a structured result),
// the line a server prints when it is ready, the -wire flag that chooses
// what a server serves (wire.go) and the heap report of a stdio server's
// cold start. The servers themselves are the commands in ./mcpgen, ./gosdk
// and ./mcpgo, each its own binary, so that each process holds on its heap
// only what its own stack links (package-level state of its dependencies
// included), as a small server a user deploys does.
package standalone

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
)

// In is the tool's argument.
type In struct {
	Text string `json:"text"`
}

// Out is the tool's result.
type Out struct {
	Text string `json:"text"`
}

// Echo is the tool's function.
func Echo(_ context.Context, in In) (Out, error) { return Out(in), nil }

// Name and Description are the tool's.
const (
	Name        = "echo"
	Description = "Echoes the text."
)

// SumIn is calculate_sum's arguments.
type SumIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// SumOut is calculate_sum's result.
type SumOut struct {
	Sum float64 `json:"sum"`
}

// Sum is calculate_sum's function.
func Sum(_ context.Context, in SumIn) (SumOut, error) { return SumOut{Sum: in.A + in.B}, nil }

// SumName and SumDescription are calculate_sum's.
const (
	SumName        = "calculate_sum"
	SumDescription = "Adds a and b."
)

// Ready writes the line the benchmark waits for, "ADDR HEAP OBJECTS": the
// listener's address and, after a full GC, the bytes and objects live on
// the heap of the server with its tool registered and its handler built.
func Ready(w io.Writer, ln net.Listener) {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	fmt.Fprintf(w, "%s %d %d\n", ln.Addr(), m.HeapAlloc, m.HeapObjects)
}
