package sdkpatch

import (
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The resultType of a tools/call result. go-sdk v1.8.0 keeps
// CallToolResult's resultType unexported and sets it only on results of
// tools it holds itself; mcptool answers tools/call from middleware, so its
// results would go out without one on the 2026-07-28 wire. A
// CallToolResult decoded from JSON carries it (UnmarshalJSON), so one
// decoded prototype per value is copied into each result. The prototypes
// are decoded at first use, not at start: a server that answers no
// tools/call pays nothing for them.
//
// Retire when go-sdk exports a way to set it (a ResultType field or
// setter), or sets it on every CallToolResult its tools/call returns.

var (
	completeResult      = sync.OnceValue(func() mcp.CallToolResult { return prototype("complete") })
	inputRequiredResult = sync.OnceValue(func() mcp.CallToolResult { return prototype("input_required") })
)

func prototype(resultType string) mcp.CallToolResult {
	var r mcp.CallToolResult
	if err := json.Unmarshal([]byte(`{"content":[],"resultType":"`+resultType+`"}`), &r); err != nil {
		panic("sdkpatch: " + err.Error())
	}
	r.Content = nil
	return r
}

// WithResultType returns res with the resultType "input_required" when
// inputRequired, else "complete". Every exported field of
// mcp.CallToolResult is copied (TestWithResultTypeCopiesEveryField fails
// when go-sdk adds one), and the error set with SetError is kept.
func WithResultType(res *mcp.CallToolResult, inputRequired bool) *mcp.CallToolResult {
	out := completeResult()
	if inputRequired {
		out = inputRequiredResult()
	}
	out.Meta = res.Meta
	out.Content = res.Content
	out.StructuredContent = res.StructuredContent
	out.IsError = res.IsError
	out.InputRequests = res.InputRequests
	out.RequestState = res.RequestState
	if err := res.GetError(); err != nil {
		out.SetError(err)
	}
	return &out
}

// CompleteToolsList returns an empty tools/list result whose resultType is
// "complete", as go-sdk's session sets it on every result of the
// 2026-07-28 wire (its field is unexported; a ListToolsResult decoded from
// JSON carries it). mcptool's own 2026-07-28 path answers tools/list
// without a session.
//
// Retire when go-sdk exports a way to set it.
func CompleteToolsList() *mcp.ListToolsResult {
	r := completeList()
	r.Tools = []*mcp.Tool{}
	return &r
}

var completeList = sync.OnceValue(func() mcp.ListToolsResult {
	var r mcp.ListToolsResult
	if err := json.Unmarshal([]byte(`{"tools":[],"resultType":"complete"}`), &r); err != nil {
		panic("sdkpatch: " + err.Error())
	}
	return r
})
