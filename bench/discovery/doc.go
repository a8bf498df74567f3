// Package discovery measures discovery mode (docs/discovery.md) on a
// catalogue nobody here wrote: the methods of Google's public APIs, as their
// discovery documents (shipped in the Go module google.golang.org/api)
// describe them, registered as mcpgen tools — one tool per method, its
// arguments the method's parameters with their descriptions and its request
// body (an object of the body schema's fields), its group the API. It is its own module so that the core never depends on that module.
//
// TestRecall runs the labeled queries of testdata/queries.tsv against a
// 769-tool catalogue of 19 APIs, ranked by words alone, and fails below the
// goal of the right tool first for 70% of queries, or below the measured
// top 5 (88%; the goal, 90%, is not reached by words alone and is logged);
// TestRecallSemantic ranks by words and meaning (mcptool.SearchEmbedder,
// with the Universal Sentence Encoder lite run in Node, from npm) and fails
// below both goals; TestFirstList compares
// the first tools/list in discovery mode with the full list; TestSearchLatency
// and BenchmarkSearch time search_tools over 10,000 tools.
package discovery
