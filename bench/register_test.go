package bench

// Registration: N tools of N distinct argument types (internal/regtypes)
// on a fresh registry or server per iteration.
//
// Why generated types: go-sdk's mcp.AddTool and mcp-go's WithInputSchema
// take the argument type as a type parameter, so N distinct types must exist
// at compile time for them to register N distinct types through their real
// API; reflect.StructOf types cannot instantiate a generic function. The
// generated file holds 1000 named types and one registration closure per
// type and stack; internal/gen writes it deterministically.
//
// What each row measures:
//
//	floor          Server.AddTool with a schema written beforehand (the
//	               hand-written tool's registration: no schema derivation)
//	mcpgen         Registry.Add (the reflection path) with mcpgen's per-type
//	               plan cache warm: every iteration after the first registers
//	               types it has seen, as a server that registers at start-up,
//	               or builds registries per tenant, does
//	mcpgen-cold    (BenchmarkRegisterCold, z_register_cold_test.go)
//	               Registry.Add of types never seen before
//	mcpgen-generated  the generator's output: skipped, the generator is not
//	               written yet
//	gosdk          mcp.AddTool with no SchemaCache (the default): jsonschema
//	               inference and resolution for the input and output schemas
//	               of every tool, every time
//	gosdk-cached   mcp.AddTool with ServerOptions.SchemaCache shared across
//	               iterations (informative)
//	mcpgo          mcp.NewTool(WithInputSchema[T], WithOutputSchema[Out]) and
//	               AddTools; mcp-go compiles its validator lazily, at the
//	               first call of each tool, which is not counted here

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"testing"

	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/regtypes"
	"github.com/mcpgen/mcpgen/mcptool"
)

var regSizes = []int{10, 100, 1000}

func regName(i int) string { return fmt.Sprintf("tool_%04d", i) }

// floorTools are the registration tools with their schemas written
// beforehand (taken from mcpgen's derivation, as text), as a hand-written
// tool has them.
var floorTools = sync.OnceValue(func() []*mcp.Tool {
	r := mcptool.NewRegistry()
	for i := range regtypes.Types {
		if err := regtypes.Types[i].Mcpgen(r, regName(i)); err != nil {
			panic(err)
		}
	}
	return r.Tools()
})

func noopHandler(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{}, nil
}

func BenchmarkRegister(b *testing.B) {
	for _, n := range regSizes {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			b.Run("stack=floor", func(b *testing.B) {
				tools := floorTools()[:n]
				b.ReportAllocs()
				for b.Loop() {
					s := mcp.NewServer(impl, nil)
					for _, t := range tools {
						s.AddTool(t, noopHandler)
					}
				}
				perTool(b, n)
			})
			b.Run("stack=mcpgen", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r := mcptool.NewRegistry()
					for i := range n {
						if err := regtypes.Types[i].Mcpgen(r, regName(i)); err != nil {
							b.Fatal(err)
						}
					}
				}
				perTool(b, n)
			})
			b.Run("stack=mcpgen-generic", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r := mcptool.NewRegistry()
					for i := range n {
						if err := regtypes.Types[i].McpgenGeneric(r, regName(i)); err != nil {
							b.Fatal(err)
						}
					}
				}
				perTool(b, n)
			})
			b.Run("stack=mcpgen-generated", func(b *testing.B) {
				b.Skip("TODO(issue 7): mcpgen's code generator is not written yet; benchmark its registration here once it exists")
			})
			b.Run("stack=gosdk", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s := mcp.NewServer(impl, nil)
					for i := range n {
						regtypes.Types[i].Gosdk(s, regName(i))
					}
				}
				perTool(b, n)
			})
			b.Run("stack=gosdk-cached", func(b *testing.B) {
				cache := mcp.NewSchemaCache()
				b.ReportAllocs()
				for b.Loop() {
					s := mcp.NewServer(impl, &mcp.ServerOptions{SchemaCache: cache})
					for i := range n {
						regtypes.Types[i].Gosdk(s, regName(i))
					}
				}
				perTool(b, n)
			})
			b.Run("stack=mcpgo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s := mgoserver.NewMCPServer("bench", "1.0.0", mgoserver.WithToolCapabilities(true), mgoserver.WithInputSchemaValidation())
					for i := range n {
						s.AddTools(regtypes.Types[i].Mcpgo(regName(i)))
					}
				}
				perTool(b, n)
			})
		})
	}
}

// perTool reports the time per registered tool.
func perTool(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
}

// ---- fresh types for mcpgen-cold ----

var (
	freshMu  sync.Mutex
	freshSeq int
	ctxType  = reflect.TypeFor[context.Context]()
	errType  = reflect.TypeFor[error]()
	outType  = reflect.TypeFor[regtypes.RegOut]()
	filterTy = reflect.StructOf([]reflect.StructField{
		{Name: "Author", Type: reflect.TypeFor[string](), Tag: `json:"author" validate:"required,min=1,max=64"`},
		{Name: "Year", Type: reflect.TypeFor[int](), Tag: `json:"year,omitempty" validate:"omitempty,min=1900,max=2100"`},
	})
)

// freshFuncs returns n tool functions whose argument types have the shape of
// the generated RegArgs types and have never been seen: their distinguishing
// property's name is new.
func freshFuncs(n int) []any {
	freshMu.Lock()
	defer freshMu.Unlock()
	out := make([]any, n)
	for i := range out {
		freshSeq++
		in := reflect.StructOf([]reflect.StructField{
			{Name: "Query", Type: reflect.TypeFor[string](), Tag: `json:"query" validate:"required,min=2,max=200"`},
			{Name: "Limit", Type: reflect.TypeFor[int](), Tag: `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`},
			{Name: "Sort", Type: reflect.TypeFor[string](), Tag: `json:"sort,omitempty" validate:"omitempty,oneof=relevance date title"`},
			{Name: "Tags", Type: reflect.TypeFor[[]string](), Tag: `json:"tags,omitempty" validate:"omitempty,max=10"`},
			{Name: "Filter", Type: reflect.PointerTo(filterTy), Tag: `json:"filter,omitempty"`},
			{Name: "X", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(`json:"x` + strconv.Itoa(freshSeq) + `,omitempty"`)},
		})
		ft := reflect.FuncOf([]reflect.Type{ctxType, in}, []reflect.Type{outType, errType}, false)
		out[i] = reflect.MakeFunc(ft, func([]reflect.Value) []reflect.Value {
			return []reflect.Value{reflect.ValueOf(regtypes.RegOut{}), reflect.Zero(errType)}
		}).Interface()
	}
	return out
}
