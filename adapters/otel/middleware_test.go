package mcpotel_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	mcpotel "github.com/mcpgen/mcpgen/adapters/otel"
	"github.com/mcpgen/mcpgen/mcptool"
)

type harness struct {
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	cs     *mcp.ClientSession
}

// serve registers two tools on a traced registry and connects a go-sdk
// client in memory, in the protocol version given ("" is 2026-07-28).
func serve(t *testing.T, version string) *harness {
	t.Helper()
	h := &harness{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(h.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	mw, err := mcpotel.Middleware(&mcpotel.Options{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	reg := mcptool.NewRegistry(mcptool.Use(mw))
	type in struct {
		N int `json:"n"`
	}
	if err := reg.Add("double", func(_ context.Context, a in) (int, error) { return 2 * a.N, nil }); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add("broken", func(context.Context) (string, error) { return "", mcptool.Errorf("the disk is full") }); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add("scarce", func(context.Context) (string, error) { return "ok", nil }, mcptool.RateLimit(0.001, 1)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.cs, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.cs.Close(); _ = ss.Close() })
	return h
}

func attrs(kvs []attribute.KeyValue) map[attribute.Key]string {
	m := map[attribute.Key]string{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value.String()
	}
	return m
}

// A call's span is a SERVER span named after the method and tool, with the
// conventions' attributes, and a child of the trace context in _meta.
func TestSpanPerCall(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			h := serve(t, version)
			const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
			res, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{
				Name: "double", Arguments: map[string]any{"n": 21},
				Meta: mcp.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01"},
			})
			if err != nil || res.IsError {
				t.Fatalf("call: %v %v", err, res)
			}
			spans := h.spans.GetSpans()
			if len(spans) != 1 {
				t.Fatalf("%d spans, want 1", len(spans))
			}
			s := spans[0]
			if s.Name != "tools/call double" || s.SpanKind != trace.SpanKindServer {
				t.Fatalf("span %q kind %v", s.Name, s.SpanKind)
			}
			if s.SpanContext.TraceID().String() != traceID || s.Parent.SpanID().String() != parentID || !s.Parent.IsRemote() {
				t.Fatalf("span trace %s parent %s: not the traceparent of _meta", s.SpanContext.TraceID(), s.Parent.SpanID())
			}
			a := attrs(s.Attributes)
			want := map[attribute.Key]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "double", "gen_ai.operation.name": "execute_tool"}
			for k, v := range want {
				if a[k] != v {
					t.Errorf("%s = %q, want %q", k, a[k], v)
				}
			}
			if a["mcp.protocol.version"] == "" {
				t.Error("no mcp.protocol.version")
			}
			if _, has := a["error.type"]; has || s.Status.Code == codes.Error {
				t.Errorf("a successful call has error.type %q, status %v", a["error.type"], s.Status)
			}
		})
	}
}

// A call without trace context starts a new trace.
func TestNewTraceWithoutContext(t *testing.T) {
	h := serve(t, "")
	if _, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "double", Arguments: map[string]any{"n": 1}}); err != nil {
		t.Fatal(err)
	}
	s := h.spans.GetSpans()[0]
	if s.Parent.IsValid() || !s.SpanContext.IsValid() {
		t.Fatalf("parent %v, span %v: want a root span", s.Parent, s.SpanContext)
	}
}

// Tool errors and invalid arguments are tool_error; an unknown tool is a
// protocol error that never reaches the middleware.
func TestErrorsAndMetrics(t *testing.T) {
	h := serve(t, "")
	ctx := context.Background()
	for _, p := range []*mcp.CallToolParams{
		{Name: "double", Arguments: map[string]any{"n": 2}},
		{Name: "double", Arguments: map[string]any{"n": 3}},
		{Name: "broken"},
		{Name: "double", Arguments: map[string]any{"n": "two"}},
		{Name: "scarce"},
		{Name: "scarce"},
		{Name: "scarce"},
	} {
		if _, err := h.cs.CallTool(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	spans := h.spans.GetSpans()
	if len(spans) != 7 {
		t.Fatalf("%d spans, want 7", len(spans))
	}
	outcomes := []string{"ok", "ok", "tool_error", "invalid_arguments", "ok", "rate_limited", "rate_limited"}
	for i, s := range spans {
		a := attrs(s.Attributes)
		if a["mcpgen.outcome"] != outcomes[i] {
			t.Errorf("span %d (%s): mcpgen.outcome %q, want %q", i, s.Name, a["mcpgen.outcome"], outcomes[i])
		}
		failed := outcomes[i] != "ok"
		if got := a["error.type"] == mcpotel.ErrorTypeToolError && s.Status.Code == codes.Error; got != failed {
			t.Errorf("span %d (%s): error.type %q, status %v", i, s.Name, a["error.type"], s.Status)
		}
	}

	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	calls := map[string]int64{}    // tool/error.type → count
	refusals := map[string]int64{} // tool/refusal → count
	var histCount uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				if m.Name == "mcpgen.tool.refusals" {
					for _, p := range d.DataPoints {
						tool, _ := p.Attributes.Value("gen_ai.tool.name")
						why, _ := p.Attributes.Value("mcpgen.refusal")
						refusals[tool.AsString()+"/"+why.AsString()] += p.Value
					}
					continue
				}
				for _, p := range d.DataPoints {
					tool, _ := p.Attributes.Value("gen_ai.tool.name")
					et, _ := p.Attributes.Value("error.type")
					calls[tool.AsString()+"/"+et.AsString()] += p.Value
				}
			case metricdata.Histogram[float64]:
				if m.Name != "mcp.server.operation.duration" || m.Unit != "s" {
					t.Errorf("histogram %s in %q", m.Name, m.Unit)
				}
				for _, p := range d.DataPoints {
					if v, _ := p.Attributes.Value("mcp.method.name"); v.AsString() != "tools/call" {
						t.Errorf("histogram point without mcp.method.name=tools/call: %v", p.Attributes)
					}
					histCount += p.Count
				}
			}
		}
	}
	want := map[string]int64{"double/": 2, "broken/tool_error": 1, "double/tool_error": 1, "scarce/": 1, "scarce/tool_error": 2}
	for k, v := range want {
		if calls[k] != v {
			t.Errorf("mcpgen.tool.calls[%s] = %d, want %d (all: %v)", k, calls[k], v, calls)
		}
	}
	if histCount != 7 {
		t.Errorf("duration histogram has %d calls, want 7", histCount)
	}
	if len(refusals) != 1 || refusals["scarce/rate_limited"] != 2 {
		t.Errorf("mcpgen.tool.refusals = %v, want scarce/rate_limited: 2", refusals)
	}
}

// With no options the middleware uses the global providers.
func TestGlobalProviders(t *testing.T) {
	mw, err := mcpotel.Middleware(nil)
	if err != nil || mw == nil {
		t.Fatalf("the global (no-op) providers: %v", err)
	}
}

// A protocol error of the call path (a token without the tool's scopes) is
// recorded with the JSON-RPC code the client gets.
func TestProtocolErrorCode(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	mw, err := mcpotel.Middleware(&mcpotel.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))})
	if err != nil {
		t.Fatal(err)
	}
	reg := mcptool.NewRegistry(mcptool.Use(mw))
	if err := reg.Add("write", func(context.Context) (string, error) { return "ok", nil }, mcptool.Scopes("notes:write")); err != nil {
		t.Fatal(err)
	}
	ctx := mcptool.Authenticated(context.Background(), &auth.TokenInfo{UserID: "ada", Scopes: []string{"notes:read"}})
	_, err = reg.Call(ctx, "write", nil)
	if mcptool.CodeOf(err) != mcptool.CodeInsufficientScope {
		t.Fatalf("call: %v, want insufficient_scope", err)
	}
	got := spans.GetSpans()
	if len(got) != 1 {
		t.Fatalf("%d spans, want 1", len(got))
	}
	a := attrs(got[0].Attributes)
	if a["rpc.response.status_code"] != "-32403" || a["error.type"] != "-32403" || got[0].Status.Code != codes.Error {
		t.Errorf("status code %q, error.type %q, status %v: want -32403", a["rpc.response.status_code"], a["error.type"], got[0].Status)
	}
}
