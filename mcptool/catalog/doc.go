// Package catalog is the document that describes a server's tools for people
// and for tools: what [mcptool.Registry.Catalog] returns, what the JSON
// catalogue file holds, and what reviewers read as Markdown or HTML.
//
// A [Catalog] lists [Tool] entries, each with its hints, arguments and result
// fields flattened into tables, its schemas, an example call and a
// fingerprint: the SHA-256 of its canonical definition (see [Fingerprint]),
// so a client or a CI job can pin a tool and notice when it changes.
//
// [Catalog.Write] renders the document as Markdown, JSON or one
// self-contained HTML page. [Read] reads a JSON catalogue back, and [Compare]
// classes what changed between two catalogues: breaking for callers,
// security-relevant for clients that approved the tools, guard loosened (an
// argument that was refused is now accepted) or compatible. The
// command mcpgen diff is Compare on two files.
//
// The package depends on nothing of mcptool: it reads and writes files, so
// that tools which only compare catalogues need no registry.
//
// [mcptool.Registry.Catalog]: https://pkg.go.dev/github.com/mcpgen/mcpgen/mcptool#Registry.Catalog
package catalog
