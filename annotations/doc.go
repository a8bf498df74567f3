// Package annotations owns mcpgen's `mcp:"..."` struct tag: its grammar, and
// the one typed value it is read into, [Tool] (the tool's [Hints] and its
// [Policy]).
//
// The tag sits on a blank field of a tool's argument type. It is a
// comma-separated list of items; an item is a bare key (true for a boolean
// key) or key=value. A value that contains a comma is written in single
// quotes, with \' and \\ as the only escapes:
//
//	_ struct{} `mcp:"title='Search, fast',readOnly,openWorld=false,timeout=5s"`
//
// The keys, and what a tool gets when its tag leaves a key out:
//
//	title=...                 display title; default none
//	readOnly[=bool]           readOnlyHint; default false
//	destructive[=bool]        destructiveHint; default true (not on a read-only tool)
//	idempotent[=bool]         idempotentHint; default false
//	openWorld[=bool]          openWorldHint; default true
//	timeout=5s                bound on each call; default none
//	rate=10/s, burst=5        calls per s, m or h across all clients; default unlimited, burst max(1, rate)
//	sessionRate=2/s,
//	sessionBurst=2            the same per client session
//	concurrency=4             calls running at once; default no cap
//	callerConcurrency=2       the same per caller (verified principal, else session)
//	confirm[=bool]            ask the user before each call; default false
//	maxArgBytes=4096          size of the JSON arguments; default 1 MiB
//	maxDepth=8                nesting depth of the JSON arguments; default 64
//	task[=required]           may (or must) run as a task; default forbidden
//	scopes=a:read a:write     OAuth scopes a caller's token must all carry; default none
//	view[=bool]               a view (MCP Apps): the default one, from the output schema; default none
//	visibility=app            who may call it: model, app or 'model app'; default both
//	connectDomains=https://a  origins its view may connect to, separated by spaces; default none
//	resourceDomains=https://b origins its view may load images, scripts, styles from; default none
//	group=billing             the tool's group, for discovery; default none
//	eager[=bool]              listed even in discovery mode; default false
//
// [Parse] reads a tag, reporting every wrong item at once with the key
// probably meant; [Tool.Merge] lays options over a tag; [Tool.Check] rejects
// what the specification calls meaningless (destructive or idempotent on a
// read-only tool) and confirm on a read-only tool; [Hints.Effective] and
// [Policy.Resolved] fill in the defaults above. The package knows nothing of
// the MCP SDK: the layers above turn hints into protocol annotations.
package annotations
