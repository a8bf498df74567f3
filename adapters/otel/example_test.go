package mcpotel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	mcpotel "github.com/mcpgen/mcpgen/adapters/otel"
	"github.com/mcpgen/mcpgen/mcptool"
)

// Spans exported with the stdout exporter. A real program writes them to
// os.Stdout (or uses an OTLP exporter); here they go to a buffer, and the
// example prints the fields that do not change from run to run.
func ExampleMiddleware() {
	var out bytes.Buffer
	exp, _ := stdouttrace.New(stdouttrace.WithWriter(&out))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())

	mw, err := mcpotel.Middleware(&mcpotel.Options{TracerProvider: tp})
	if err != nil {
		panic(err)
	}
	reg := mcptool.NewRegistry(mcptool.Use(mw))
	_ = reg.Add("greet", func(_ context.Context, in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "hello " + in.Name, nil
	})

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()
	_, _ = cs.CallTool(ctx, &mcp.CallToolParams{
		Name: "greet", Arguments: map[string]any{"name": "Ada"},
		// The client's trace context: the span continues its trace.
		Meta: mcp.Meta{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
	})

	var span struct {
		Name        string
		SpanContext struct{ TraceID string }
		Attributes  []struct {
			Key   string
			Value struct{ Value any }
		}
	}
	_ = json.Unmarshal(out.Bytes(), &span)
	fmt.Println(span.Name, span.SpanContext.TraceID)
	for _, a := range span.Attributes {
		if a.Key != "mcp.protocol.version" {
			fmt.Printf("  %s = %v\n", a.Key, a.Value.Value)
		}
	}
	// Output:
	// tools/call greet 4bf92f3577b34da6a3ce929d0e0e4736
	//   mcp.method.name = tools/call
	//   gen_ai.tool.name = greet
	//   gen_ai.operation.name = execute_tool
	//   mcpgen.outcome = ok
}
