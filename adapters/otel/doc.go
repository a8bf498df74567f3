// Package mcpotel traces and measures an mcpgen registry's tool calls with
// OpenTelemetry, following the OpenTelemetry semantic conventions for MCP
// (Development status; the names of go.opentelemetry.io/otel/semconv
// v1.41.0):
//
//   - a SERVER span per tools/call, named "tools/call {tool}", with
//     mcp.method.name, gen_ai.tool.name, gen_ai.operation.name
//     (execute_tool), mcp.session.id and mcp.protocol.version when known,
//     and error.type when the call failed: "tool_error" for a result with
//     isError set, the JSON-RPC error code for a protocol error; and
//     mcpgen.outcome, how the call ended (mcptool.Call.Outcome);
//   - the span's parent taken from the request's params._meta (traceparent,
//     tracestate, baggage), so a client's trace continues in the server;
//   - metrics: mcp.server.operation.duration (histogram, seconds),
//     mcpgen.tool.calls (counter, by tool, error.type and mcpgen.outcome) and
//     mcpgen.tool.refusals (counter, by tool and mcpgen.refusal: the policy
//     that refused, e.g. rate_limited or busy).
//
// It is a middleware for mcptool.Use:
//
//	mw, err := mcpotel.Middleware(nil) // the global providers
//	reg := mcptool.NewRegistry(mcptool.Use(mw))
//
// The module is separate from mcpgen's core so that users who do not trace
// never download OpenTelemetry.
package mcpotel
