// Package annotations holds the grammar of mcpgen's `mcp:"..."` struct tag and
// the MCP tool annotation hints it carries.
//
// The tag is a comma-separated list of items. An item is a bare key (meaning
// true for a hint) or key=value. A value that contains a comma is written in
// single quotes, with \' and \\ as the only escapes:
//
//	_ struct{} `mcp:"title='Search, fast',readOnly,openWorld=false"`
//
// The hint keys are title, readOnly, destructive, idempotent and openWorld.
// Other keys (timeout, rate, confirm, ...) belong to the layers above; this
// package scans them and hands them on.
//
// [Hints.Annotations] fills in the defaults the MCP specification gives the
// hints (readOnly false, destructive true, idempotent false, openWorld true),
// and [Hints.Check] rejects the combinations the specification calls
// meaningless: destructive or idempotent on a read-only tool.
package annotations
