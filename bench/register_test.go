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
//	mcpgen-generic mcptool.Add, cache warm
//	mcpgen-cold    Registry.Add with a new, empty plan cache per iteration
//	               (mcptool.PlanCache): every tool's schema is derived by
//	               reflection, its validate tags mirrored, its decoder
//	               compiled and its schema marshalled, as at a process's
//	               first registration
//	mcpgen-generated  Registry.Add of package gentypes' tools (the same
//	               types, with plans precomputed by cmd/mcpgen), with a new,
//	               empty plan cache per iteration: every plan is loaded from
//	               the generated data (fingerprint check, decoder compiled
//	               from the literals), as at a process's first registration
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
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"testing"

	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/gentypes"
	"github.com/mcpgen/mcpgen/bench/internal/regtypes"
	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

var regSizes = []int{10, 100, 1000}

func regName(i int) string { return fmt.Sprintf("tool_%04d", i) }

// floorTools are the registration tools with their schemas written
// beforehand (taken from mcpgen's derivation, as text), as a hand-written
// tool has them.
var floorTools = sync.OnceValue(func() []*mcp.Tool {
	// NoDescription: the generated tool types have no descriptions, and
	// the registration warning is not what is measured.
	r := mcptool.NewRegistry(mcptool.NoDescription())
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
					r := mcptool.NewRegistry(mcptool.NoDescription())
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
					r := mcptool.NewRegistry(mcptool.NoDescription())
					for i := range n {
						if err := regtypes.Types[i].McpgenGeneric(r, regName(i)); err != nil {
							b.Fatal(err)
						}
					}
				}
				perTool(b, n)
			})
			b.Run("stack=mcpgen-cold", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r := mcptool.NewRegistry(mcptool.NoDescription(), mcptool.PlanCache(&mcpreflect.Cache{}))
					for i := range n {
						if err := regtypes.Types[i].Mcpgen(r, regName(i)); err != nil {
							b.Fatal(err)
						}
					}
				}
				perTool(b, n)
			})
			b.Run("stack=mcpgen-generated", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r := mcptool.NewRegistry(mcptool.NoDescription(), mcptool.PlanCache(&mcpreflect.Cache{}))
					for i := range n {
						if err := r.Add(regName(i), gentypes.Funcs[i]); err != nil {
							b.Fatal(err)
						}
					}
				}
				perTool(b, n)
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

// The registration rows compare the same tools: gentypes' plans really come
// from the generated data, regtypes' by reflection, and both publish the
// same input schemas. (Their output schemas differ by GenOut's doc comment,
// which cmd/mcpgen turns into a description.)
func TestRegistrationPaths(t *testing.T) {
	if len(gentypes.Funcs) != len(regtypes.Types) {
		t.Fatalf("gentypes has %d tools, regtypes %d", len(gentypes.Funcs), len(regtypes.Types))
	}
	gen := mcptool.NewRegistry(mcptool.NoDescription(), mcptool.PlanCache(&mcpreflect.Cache{}))
	refl := mcptool.NewRegistry(mcptool.NoDescription(), mcptool.PlanCache(&mcpreflect.Cache{}))
	for i := range gentypes.Funcs {
		if err := gen.Add(regName(i), gentypes.Funcs[i]); err != nil {
			t.Fatal(err)
		}
		if err := regtypes.Types[i].Mcpgen(refl, regName(i)); err != nil {
			t.Fatal(err)
		}
	}
	gt, rt := gen.Tools(), refl.Tools()
	for i := range gt {
		g, r := gt[i], rt[i]
		if string(g.InputSchema.(json.RawMessage)) != string(r.InputSchema.(json.RawMessage)) {
			t.Fatalf("%s: generated and reflected schemas differ:\n%s\n%s", g.Name, g.InputSchema, r.InputSchema)
		}
	}
	for _, fn := range gentypes.Funcs {
		in := reflect.TypeOf(fn).In(1)
		p, err := (&mcpreflect.Cache{}).Plan(in, mcpreflect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !p.Generated {
			t.Fatalf("%s: plan derived by reflection; run go generate ./internal/gentypes", in)
		}
	}
	for _, in := range []reflect.Type{reflect.TypeFor[regtypes.RegArgs0000](), reflect.TypeFor[regtypes.RegArgs0999]()} {
		p, err := (&mcpreflect.Cache{}).Plan(in, mcpreflect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Generated {
			t.Fatalf("%s: regtypes has generated data; the reflection rows would measure the generated path", in)
		}
	}
}

// liveArgs is the argument type of the RegisterLive tools.
type liveArgs struct {
	Query string `json:"query" validate:"required"`
}

func liveTool(context.Context, liveArgs) (string, error) { return "", nil }

// BenchmarkRegisterLive adds N tools to a registry without a server
// (server=none) and to one that already serves a go-sdk server
// (server=live), which learns of each tool as it is added.
//
//	types=1     N tools of one argument type (plans warm after the first):
//	            N = 1,000 and 10,000 show that the cost per tool does not
//	            grow with N; the live rows' extra is go-sdk's own
//	            Server.AddTool (it re-marshals every schema it is given)
//	types=cold  1,000 tools of 1,000 distinct types on a new plan cache,
//	            as a process's first registration: live stays within 2x
func BenchmarkRegisterLive(b *testing.B) {
	servers := []string{"none", "live"}
	run := func(b *testing.B, live bool, n int, add func(r *mcptool.Registry, i int) error, opts ...mcptool.RegistryOption) {
		b.ReportAllocs()
		for b.Loop() {
			r := mcptool.NewRegistry(opts...)
			var srv *mcptool.Server
			if live {
				srv = r.Server(impl, nil)
			}
			for i := range n {
				if err := add(r, i); err != nil {
					b.Fatal(err)
				}
			}
			runtime.KeepAlive(srv)
		}
		perTool(b, n)
	}
	oneType := func(r *mcptool.Registry, i int) error {
		return mcptool.Add(r, regName(i), liveTool, mcptool.Description("A tool."))
	}
	for _, n := range []int{1_000, 10_000} {
		for _, s := range servers {
			b.Run("types=1/n="+strconv.Itoa(n)+"/server="+s, func(b *testing.B) { run(b, s == "live", n, oneType) })
		}
	}
	for _, s := range servers {
		b.Run("types=cold/n=1000/server="+s, func(b *testing.B) {
			run(b, s == "live", len(regtypes.Types), func(r *mcptool.Registry, i int) error {
				return regtypes.Types[i].Mcpgen(r, regName(i))
			}, mcptool.PlanCache(&mcpreflect.Cache{}), mcptool.NoDescription())
		})
	}
}
