package library_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/library"
	"github.com/mcpgen/mcpgen/mcptool"
)

func text(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

func TestLibraryTools(t *testing.T) {
	now := time.Date(2026, 7, 28, 10, 0, 0, 0, time.UTC)
	reg := mcptool.NewRegistry(library.Types())
	require.NoError(t, library.Register(reg, library.New(func() time.Time { return now }), nil, nil))
	ctx := context.Background()
	call := func(name, args string) *mcp.CallToolResult {
		t.Helper()
		res, err := reg.Call(ctx, name, json.RawMessage(args))
		require.NoError(t, err)
		return res
	}
	tl, ok := reg.Tool("library_lend_book")
	require.True(t, ok)
	assert.Contains(t, tl.Description, "Lends a book to a member for a number of days.")
	// The fields' descriptions are library.proto's comments too (Types'
	// SourceInfo, from the descriptor set go generate writes).
	var in struct {
		Properties map[string]struct{ Description string }
		Examples   []map[string]any
	}
	require.NoError(t, json.Unmarshal(tl.InputSchema.(json.RawMessage), &in))
	assert.Equal(t, "The member's e-mail address.", in.Properties["member"].Description)
	assert.Equal(t, "For how many days: 7, 14 or 28.", in.Properties["days"].Description)
	assert.Equal(t, []map[string]any{{"bookId": "b-1", "member": "ada@example.com", "days": float64(14)}}, in.Examples,
		"the fields' protovalidate example options make one of the arguments")

	res := call("library_search_books", `{"query":"dune"}`)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"books":[{"bookId":"b-1","title":"Dune","authors":["Frank Herbert"],"year":1965,"shelf":"SHELF_FICTION"}]}`, text(res))

	res = call("library_lend_book", `{"bookId":"b-1","member":"ada@example.com","days":14}`)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"bookId":"b-1","member":"ada@example.com","due":"2026-08-11T10:00:00Z"}`, text(res))

	res = call("library_lend_book", `{"bookId":"b-1","member":"bob@example.com","days":7}`)
	require.True(t, res.IsError)
	assert.Equal(t, "book b-1 is lent until 2026-08-11", text(res))

	res = call("library_search_books", `{"query":"DUNE","shelf":"SHELF_FICTION"}`)
	assert.JSONEq(t, `{"books":[{"bookId":"b-1","title":"Dune","authors":["Frank Herbert"],"year":1965,"shelf":"SHELF_FICTION","lent":true}]}`, text(res))

	res = call("library_return_book", `{"bookId":"b-1"}`)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"bookId":"b-1","member":"ada@example.com","due":"2026-08-11T10:00:00Z","returned":"2026-07-28T10:00:00Z"}`, text(res))

	res = call("library_lend_book", `{"bookId":"1","member":"ada","days":3}`)
	require.True(t, res.IsError)
	assert.Equal(t, "invalid arguments:\n"+
		"- bookId: does not match regex pattern `^b-[0-9]+$` (string.pattern)\n"+
		"- member: must be a valid email address (string.email)\n"+
		"- days: must be in list [7, 14, 28] (uint32.in)", text(res))

	res = call("library_search_books", `{"query":"x","limit":0}`)
	require.True(t, res.IsError)
	assert.Contains(t, text(res), "- query: ")
	assert.Contains(t, text(res), "- limit: ")
}
