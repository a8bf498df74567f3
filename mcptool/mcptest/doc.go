// Package mcptest tests mcpgen tools the way the MCP documentation asks
// tool authors to: functional, integration, security, performance and
// error-handling tests, each in a few lines.
//
//	func TestSearch(t *testing.T) {
//		reg := mcptool.NewRegistry()
//		_ = reg.Add("search_pages", Search)
//
//		c := mcptest.Client(t, reg)                       // a real go-sdk client, in memory
//		var out SearchResult
//		c.Call("search_pages", map[string]any{"query": "go"}).Decode(&out)
//
//		mcptest.Fuzz(t, reg, "search_pages")              // the published schema's edge cases
//		mcptest.Snapshot(t, reg, "testdata/tools.golden.json") // what the model sees, reviewed
//	}
//
// # Functional
//
// [Client] connects a real go-sdk client to a registry (or any go-sdk server,
// see [Server]) over in-memory transports, on the 2026-07-28 protocol unless
// [Version] asks for another, and closes it when the test ends. [Conn.Call]
// returns a [Result] that reads text, structured content and isError text.
// Elicitation and sampling are answered by functions the test supplies
// ([Elicit], [Sample]); [Roots] sets the client's roots; progress and log
// notifications are collected ([Conn.Progress], [Conn.Logs]). With [Tasks]
// the client declares the tasks extension and Call waits for a task tool's
// result.
//
// # Integration
//
// The same client runs over a real streamable HTTP server on loopback
// ([HTTP], with [Header] for the credentials an authorization check reads)
// or over stdio to a subprocess ([Command], with [Binary] building the
// program).
//
// # Security
//
// [Fuzz] (and [FuzzF] for go test -fuzz) derives argument documents from the
// tool's published inputSchema — valid documents, boundary values and near
// misses — judges each with an independent JSON Schema 2020-12 validator, and
// checks the contract: a valid document never yields a protocol error, a
// panic or an internal error; an invalid one is refused with an
// "invalid arguments" result naming the paths, before the tool runs.
//
// # Snapshots
//
// [Snapshot] compares the registry's catalogue (descriptions, hints,
// schemas, and a fingerprint of each definition) with a golden file, and
// go test -update rewrites it, so a pull request shows every change of what
// the model sees. The file's extension names the format: JSON, or the
// Markdown (.md) or HTML (.html) catalogue a module commits as its docs,
// which the same test keeps current. [Golden] does the same for any
// generated text.
//
// # Performance and cleanup
//
// [Conn.Load] runs many calls at once within a deadline and reports failures
// and latency percentiles; [CheckLeaks] fails the test when goroutines
// started during it are still running after the client has closed.
//
// Every helper takes a testing.TB, so benchmarks and fuzz targets can use
// them. Helpers report through Errorf and Fatalf; after a Fatalf from a
// testing.TB that does not stop the goroutine, they return values whose
// methods report the failure again rather than panic.
package mcptest
