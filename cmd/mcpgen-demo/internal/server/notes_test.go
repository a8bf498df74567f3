package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

func hitTitles(t *testing.T, res *mcptest.Result) []string {
	t.Helper()
	var out []string
	for _, h := range okResult(t, res)["results"].([]any) {
		out = append(out, h.(map[string]any)["title"].(string))
	}
	return out
}

// TestNotes searches, reads and deletes the seeded notes.
func TestNotes(t *testing.T) {
	conf := &confirmer{accept: true}
	cs, _ := demoClient(t, nil, mcptest.Elicit(conf.handle))

	// Full text, every word, in any form; titles weigh more.
	assert.Equal(t, []string{"Meeting notes: schema design review", "Meeting notes: release planning"},
		hitTitles(t, cs.Call("search_pages", map[string]any{"query": "meeting notes"})))
	assert.Equal(t, []string{"Release plan 0.2", "Meeting notes: release planning"},
		hitTitles(t, cs.Call("search_pages", map[string]any{"query": "releases plans"})))
	assert.Len(t, hitTitles(t, cs.Call("search_pages", map[string]any{"query": "the", "limit": 2})), 2)
	assert.Empty(t, hitTitles(t, cs.Call("search_pages", map[string]any{"query": "kubernetes"})))
	// FTS5 syntax in the query is plain text.
	for _, q := range []string{`"unbalanced`, `NEAR(a b)`, `title:x OR -y*`, `AND`, `^start`} {
		okResult(t, cs.Call("search_pages", map[string]any{"query": q}))
	}
	assert.Contains(t, errResult(t, cs.Call("search_pages", map[string]any{"query": "!!"})), "no words to search for")
	assert.Contains(t, errResult(t, cs.Call("search_pages", map[string]any{"query": "x", "limit": 99})), "limit: must be at most 50")

	hit := okResult(t, cs.Call("search_pages", map[string]any{"query": "freeze"}))["results"].([]any)
	require.Len(t, hit, 2)
	first := hit[0].(map[string]any)
	assert.Contains(t, first["snippet"], "**freeze**")
	id := first["id"]

	page := okResult(t, cs.Call("get_page", map[string]any{"id": id}))
	assert.Equal(t, first["title"], page["title"])
	assert.Contains(t, page["body"], "freeze")
	assert.Equal(t, page["createdAt"], page["updatedAt"])
	assert.Contains(t, errResult(t, cs.Call("get_page", map[string]any{"id": 999})), "no page with id 999; search_pages finds pages")
	assert.Contains(t, errResult(t, cs.Call("get_page", map[string]any{"id": 0})), "id: must be at least 1")

	// delete_page asks first.
	del := okResult(t, cs.Call("delete_page", map[string]any{"id": id}))
	assert.Equal(t, map[string]any{"id": id, "title": first["title"], "deleted": true}, del)
	require.Len(t, conf.questions(), 1)
	assert.Contains(t, conf.questions()[0], `Allow "Delete Page" to run?`)
	assert.Contains(t, errResult(t, cs.Call("get_page", map[string]any{"id": id})), "no page with id")
	assert.Len(t, hitTitles(t, cs.Call("search_pages", map[string]any{"query": "freeze"})), 1, "the index forgot it too")
	assert.Contains(t, errResult(t, cs.Call("delete_page", map[string]any{"id": id})), "deleted already?")
}

// TestDeletePageDeclined checks that nothing is deleted unless the user
// confirms.
func TestDeletePageDeclined(t *testing.T) {
	a, _ := newDemoApp(t, nil)
	for _, opts := range [][]mcptest.Option{{mcptest.Elicit((&confirmer{}).handle)}, nil} {
		for _, version := range []string{"2025-11-25", ""} {
			cs := demoSession(t, a, version, opts...)
			res := cs.Call("delete_page", map[string]any{"id": 1})
			assert.Regexp(t, "did not confirm|cannot ask the user", errResult(t, res))
			okResult(t, cs.Call("get_page", map[string]any{"id": 1}))
		}
	}
}
