// Package mcpopenapi fronts an HTTP API described by OpenAPI 3.0 or 3.1:
// each operation becomes an MCP tool of an mcptool.Registry that calls the
// API.
//
//	d, err := mcpopenapi.Load(ctx, "petstore.yaml")
//	reg := mcptool.NewRegistry(mcpopenapi.Types())
//	err = mcpopenapi.Add(reg, d, mcpopenapi.Options{BaseURL: "https://petstore.example/v1"})
//
// A tool's input schema is one JSON Schema 2020-12 object: the operation's
// path, query and header parameters by name, and its JSON request body as
// "body". OpenAPI 3.0's nullable, boolean exclusiveMinimum and
// exclusiveMaximum, discriminator and the int32, int64 and byte formats are
// translated to what they mean in 2020-12. Every call is checked against
// exactly that schema before a request is made, and the request goes only
// to the base URL: path parameters are percent-encoded single segments
// (never empty, . or ..), header values hold no line break, redirects are
// followed within the base URL's origin only, and the response size, the
// time and the calls in flight are bounded. An HTTP 4xx reaches the model
// as an isError result with the status and the API's message; a 5xx or a
// network error is an internal error, masked with a reference.
//
// The description is read by github.com/getkin/kin-openapi. See
// docs/openapi.md in the mcpgen repository for the guide: overrides
// (x-mcp-* extensions and Options), credentials, bounds and what is not
// supported.
package mcpopenapi
