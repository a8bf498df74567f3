// Package mcpgo serves an mcpgen tool registry on a
// github.com/mark3labs/mcp-go server, so that mcpgen tools drop into
// existing mcp-go servers unchanged.
//
//	reg := mcptool.NewRegistry()
//	_ = reg.Add("search_pages", Search, mcptool.Description("Search pages."))
//
//	s := server.NewMCPServer("docs", "1.0.0", server.WithToolCapabilities(true), server.WithLogging())
//	unmount := mcpgo.Mount(reg, s) // or: s := mcpgo.NewServer(reg, "docs", "1.0.0")
//	defer unmount()
//	_ = server.ServeStdio(s)
//
// Each registry tool becomes an mcp-go tool with the registry's exact input
// and output schemas (raw JSON, no re-derivation), its description and its
// annotations. A call runs through [github.com/mcpgen/mcpgen/mcptool/adapter.Invoke]: the same
// decoding, validation, policies, middleware and result mapping as on
// mcpgen's go-sdk server, so clients see the same isError texts and the
// same content. The context helpers work through mcp-go:
// [mcptool.Progress] sends notifications/progress for the request's
// progress token, [mcptool.Log] sends notifications/message at or above the
// session's logging level, and [mcptool.Ask] (with [mcptool.Elicit],
// [mcptool.Sample] and [mcptool.ListRoots]) sends elicitation, sampling and
// roots requests on the client session. Both protocol eras of mcp-go are
// served: on 2026-07-28 requests input is asked with input-required results
// (mcp-go's client answers and calls again), on 2025-era sessions with
// requests on the session.
//
// Tools added to or removed from the registry after mounting are added to
// or removed from the server, which tells clients with
// notifications/tools/list_changed.
//
// See docs/mcp-go.md for the mapping in full and the few differences from
// the go-sdk path.
package mcpgo
