package mcpotel

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/mcptool"
)

// scope names this instrumentation to the providers.
const scope = "github.com/mcpgen/mcpgen/adapters/otel"

// Options configure [Middleware]. The zero value uses OpenTelemetry's global
// providers and W3C trace context and baggage.
type Options struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Propagator reads the trace context from the request's _meta.
	// Default: W3C traceparent/tracestate and baggage.
	Propagator propagation.TextMapPropagator
}

// ErrorTypeToolError is error.type for a call whose result has isError set.
const ErrorTypeToolError = "tool_error"

type instruments struct {
	tracer   trace.Tracer
	prop     propagation.TextMapPropagator
	duration mcpconv.ServerOperationDuration
	calls    metric.Int64Counter
	refusals metric.Int64Counter
}

// Attribute keys of mcpgen's own.
const (
	// OutcomeKey is how a call ended (mcptool.Call.Outcome): ok,
	// tool_error, invalid_arguments, input_required, internal_error,
	// protocol_error, or the refusal (rate_limited, busy, declined,
	// timeout, cancelled).
	OutcomeKey = attribute.Key("mcpgen.outcome")
	// RefusalKey is the refusal that ended a call, on
	// mcpgen.tool.refusals.
	RefusalKey = attribute.Key("mcpgen.refusal")
)

// Middleware returns the mcptool middleware that traces and measures every
// call. The error reports instruments the meter provider could not make.
func Middleware(opts *Options) (mcptool.Middleware, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.TracerProvider == nil {
		o.TracerProvider = otel.GetTracerProvider()
	}
	if o.MeterProvider == nil {
		o.MeterProvider = otel.GetMeterProvider()
	}
	if o.Propagator == nil {
		o.Propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	meter := o.MeterProvider.Meter(scope)
	in := &instruments{tracer: o.TracerProvider.Tracer(scope), prop: o.Propagator}
	var err1, err2, err3 error
	in.duration, err1 = mcpconv.NewServerOperationDuration(meter)
	in.calls, err2 = meter.Int64Counter("mcpgen.tool.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls, by tool, error.type (absent when the call succeeded) and mcpgen.outcome."))
	in.refusals, err3 = meter.Int64Counter("mcpgen.tool.refusals", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls a policy refused, by tool and mcpgen.refusal (rate_limited, busy, declined, timeout, cancelled)."))
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	return in.wrap, nil
}

func (in *instruments) wrap(next mcptool.Handler) mcptool.Handler {
	return func(ctx context.Context, call *mcptool.Call) (*mcp.CallToolResult, error) {
		start := time.Now()
		attrs := make([]attribute.KeyValue, 0, 6)
		attrs = append(attrs,
			semconv.McpMethodNameKey.String("tools/call"),
			semconv.GenAIToolName(call.Name),
			semconv.GenAIOperationNameExecuteTool,
		)
		if req := call.Request; req != nil {
			if meta := req.Params.GetMeta(); len(meta) > 0 {
				ctx = in.prop.Extract(ctx, metaCarrier(meta))
			}
			if v := protocolVersion(req); v != "" {
				attrs = append(attrs, semconv.McpProtocolVersionKey.String(v))
			}
		}
		spanAttrs := attrs
		if id := sessionID(call); id != "" {
			spanAttrs = append(spanAttrs, semconv.McpSessionIDKey.String(id))
		}
		ctx, span := in.tracer.Start(ctx, "tools/call "+call.Name,
			trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(spanAttrs...))
		defer span.End()

		res, err := next(ctx, call)

		errType := ""
		switch {
		case err != nil:
			errType = "_OTHER"
			we := (*jsonrpc.Error)(nil)
			if e := (*mcptool.Error)(nil); errors.As(err, &e) {
				we = e.JSONRPC() // what the client gets
			}
			if we != nil || errors.As(err, &we) {
				errType = strconv.FormatInt(we.Code, 10)
				span.SetAttributes(semconv.RPCResponseStatusCode(errType))
			}
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		case res != nil && res.IsError:
			errType = ErrorTypeToolError
			span.SetStatus(codes.Error, ErrorTypeToolError)
		}
		if errType != "" {
			span.SetAttributes(semconv.ErrorTypeKey.String(errType))
			attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
		}
		in.duration.Record(ctx, time.Since(start).Seconds(), mcpconv.MethodNameAttr("tools/call"), attrs[1:]...)
		outcome := call.Outcome()
		if outcome != "" {
			span.SetAttributes(OutcomeKey.String(outcome))
		}
		in.calls.Add(ctx, 1, metric.WithAttributes(append(attrs[1:], OutcomeKey.String(outcome))...))
		if refusal(outcome) {
			in.refusals.Add(ctx, 1, metric.WithAttributes(semconv.GenAIToolName(call.Name), RefusalKey.String(outcome)))
		}
		return res, err
	}
}

// refusal reports whether an outcome is a policy's refusal.
func refusal(outcome string) bool {
	switch outcome {
	case "", "ok", "tool_error", "invalid_arguments", "input_required", "internal_error", "protocol_error":
		return false
	}
	return true
}

// metaCarrier reads the trace context keys of a request's _meta.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(string, string) {} // never injected into

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// protocolVersion is the request's protocol version: in its _meta on the
// 2026-07-28 wire, else the session's.
func protocolVersion(req *mcp.CallToolRequest) string {
	if v, ok := req.Params.GetMeta()[mcp.MetaKeyProtocolVersion].(string); ok {
		return v
	}
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil {
			return p.ProtocolVersion
		}
	}
	return ""
}

func sessionID(call *mcptool.Call) string {
	if call.Request == nil || call.Request.Session == nil {
		return ""
	}
	return call.Request.Session.ID()
}
