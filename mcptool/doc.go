// Package mcptool turns plain Go functions into Model Context Protocol tools.
//
// A tool is an ordinary function with a typed argument struct:
//
//	type SearchArgs struct {
//		_     struct{} `mcp:"title=Search pages,readOnly,openWorld"`
//		Query string   `json:"query" jsonschema_description:"Search query" validate:"required,min=2"`
//		Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
//	}
//
//	func Search(ctx context.Context, in SearchArgs) ([]Page, error)
//
//	reg := mcptool.NewRegistry()
//	err := reg.Add("search_pages", Search, mcptool.Description("Search pages by title or content."))
//
// Registration derives the tool's inputSchema from the struct's tags (json,
// jsonschema, validate and mcp; see docs/tags.md), its outputSchema from the
// result type, and its annotations from the `mcp` tag of the blank field.
// Each type is compiled once into a plan that decodes and checks a call's
// arguments against exactly the schema clients were shown.
//
// # Two error channels
//
// [Registry.Call] returns a non-nil error only for protocol errors: an unknown
// tool or arguments that are not JSON (an [*Error] with a [Code]). Everything
// the model can act on is a result with IsError set: arguments that break the
// schema (every offending path and rule listed at once), a policy refusal
// (rate limit, timeout, missing confirmation), or an error the tool returned
// marked for the model with [UserError] or [Errorf], or one the type handler
// of the tool's argument shows (mcpreflect.ErrorTexter: the protobuf
// adapter shows a gRPC status such as NotFound). Any other error, and any
// panic, is reported as "internal error (ref ...)", with the details logged
// under the same reference and never shown to the model ([ExposeErrors]
// turns the masking off). A tool that returns a *jsonrpc.Error makes the call
// that protocol error.
//
// # Policies
//
// The `mcp` tag and options set per-tool runtime policies: timeout=,
// rate= and burst=, sessionRate=, concurrency=, confirm, maxArgBytes= and
// maxDepth= (see [Timeout], [RateLimit], [SessionRateLimit],
// [MaxConcurrency], [Confirm], [MaxArgBytes], [MaxDepth]); [Use] adds
// middleware of your own and [Audit] logs every call.
//
// # Results
//
// A function's result becomes content by its type: a string is one text
// block; an [mcp.Content] or []mcp.Content are those blocks; an
// [image.Image] is a PNG image block; an *[mcp.CallToolResult] is sent as it
// is; any other value is structuredContent plus its JSON as a text block, and
// its Go type gives the tool's outputSchema. Results that are not JSON objects
// are sent as {"result": value}.
package mcptool
