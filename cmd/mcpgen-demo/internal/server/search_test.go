package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fakeSearXNG answers /search?q=...&format=json like a SearXNG instance.
func fakeSearXNG(t *testing.T) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path != "/search" {
			http.NotFound(w, r)
			return
		}
		if q.Get("format") != "json" {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		if q.Get("q") == "json off" { // an instance without json in search.formats
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte("<html>403 Forbidden</html>"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		results := []map[string]any{
			{"title": " Tools - Model Context Protocol ", "url": "https://modelcontextprotocol.io/docs/concepts/tools", "content": "Tools are a powerful primitive...", "engine": "duckduckgo", "score": 3.0},
			{"title": "No URL", "url": "", "content": "dropped"},
			{"title": "Tool annotations", "url": "https://example.com/annotations", "content": "readOnlyHint, destructiveHint", "engine": "brave", "score": 2.0},
			{"title": "Third", "url": "https://example.com/3", "content": ""},
		}
		if q.Get("q") == "nothing" {
			results = results[:0]
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"query": q.Get("q"), "number_of_results": len(results), "results": results, "answers": []any{}})
	}))
	t.Cleanup(ts.Close)
	return ts
}

func TestWebSearch(t *testing.T) {
	sx := fakeSearXNG(t)
	cs, _ := demoClient(t, func(c *config) { c.searchURL = sx.URL + "/search" })
	got := okResult(t, cs.Call("web_search", map[string]any{"query": "model context protocol tools", "limit": 2}))
	assert.Equal(t, map[string]any{"query": "model context protocol tools", "results": []any{
		map[string]any{"title": "Tools - Model Context Protocol", "url": "https://modelcontextprotocol.io/docs/concepts/tools", "snippet": "Tools are a powerful primitive..."},
		map[string]any{"title": "Tool annotations", "url": "https://example.com/annotations", "snippet": "readOnlyHint, destructiveHint"},
	}}, got)
	got = okResult(t, cs.Call("web_search", map[string]any{"query": "anything"}))
	assert.Len(t, got["results"], 3, "the default limit is 5")
	assert.Equal(t, []any{}, okResult(t, cs.Call("web_search", map[string]any{"query": "nothing"}))["results"])
	assert.Contains(t, errResult(t, cs.Call("web_search", map[string]any{"query": "json off"})),
		"the search engine answered 403 Forbidden (a SearXNG instance answers 403 to format=json unless its settings.yml lists json under search.formats)")
	assert.Contains(t, errResult(t, cs.Call("web_search", map[string]any{"query": ""})), "query: must be at least 1 character long")
}

func TestWebSearchUnavailable(t *testing.T) {
	cs, _ := demoClient(t, nil)
	assert.Contains(t, errResult(t, cs.Call("web_search", map[string]any{"query": "x"})),
		"no search endpoint configured; set MCPGEN_SEARCH_URL (or -search-url)")

	cs, _ = demoClient(t, func(c *config) { c.searchURL = deadURL(t) + "/search" })
	assert.Contains(t, errResult(t, cs.Call("web_search", map[string]any{"query": "x"})), "cannot reach the search engine at 127.0.0.1:")

	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status": "ok"}`))
	}))
	defer ts.Close()
	cs, _ = demoClient(t, func(c *config) { c.searchURL = ts.URL })
	assert.Contains(t, errResult(t, cs.Call("web_search", map[string]any{"query": "x"})), "answered without a results list")
}
