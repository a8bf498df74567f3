// Package toolsearch ranks tools for a query: a lexical BM25F ranker over a
// tool's name parts, group, description and arguments, deterministic (ties
// go to the smaller name), built once and read concurrently. It knows
// nothing of MCP: a [Doc] is a tool's text by field.
package toolsearch
