package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Search queries a SearXNG-compatible search endpoint: GET
// ENDPOINT?q=QUERY&format=json, answered with
//
//	{"results": [{"title": "...", "url": "...", "content": "..."}, ...]}
//
// (SearXNG serves this when its settings.yml lists json under
// search.formats).
type Search struct {
	endpoint string // e.g. http://127.0.0.1:8888/search; "" means none configured
	client   *http.Client
}

// SearchArgs are the arguments of web_search. Bounds per call: one request
// upstream, 30 s, 4 MiB read of the answer; at most four calls at once, one
// a second on average.
type SearchArgs struct {
	_ struct{} `mcp:"title=Web Search,readOnly,openWorld,rate=1/s,burst=5,timeout=30s,concurrency=4"`
	// What to search for, as you would type it into a search engine, e.g. "model context protocol tool
	// annotations".
	Query string `json:"query" jsonschema:"example=model context protocol tool annotations" validate:"required,min=1,max=500"`
	// The most results to return, best first.
	Limit int `json:"limit,omitempty" jsonschema:"default=5" validate:"omitempty,min=1,max=20"`
}

// SearchResults are web_search's hits.
type SearchResults struct {
	// The query searched for.
	Query string `json:"query"`
	// The hits, best first; empty when nothing matched.
	Results []SearchHit `json:"results"`
}

// SearchHit is one web page found.
type SearchHit struct {
	// The page's title.
	Title string `json:"title"`
	// The page's address.
	URL string `json:"url"`
	// Text of the page around the match, as the search engine gives it.
	Snippet string `json:"snippet,omitempty"`
}

// Web searches the web through the server's configured search engine
// (SearXNG-compatible) and returns the title, URL and snippet of each hit,
// best first. With no search engine configured, or none reachable, the call
// fails and says so.
//
// Example: {"query": "model context protocol tool annotations", "limit": 3}
// returns {"query": ..., "results": [{"title": ..., "url": ..., "snippet": ...}, ...]}.
func (s *Search) Web(ctx context.Context, in SearchArgs) (SearchResults, error) {
	if s.endpoint == "" {
		return SearchResults{}, mcptool.Errorf("no search endpoint configured; set MCPGEN_SEARCH_URL (or -search-url) to a SearXNG-compatible /search endpoint that serves format=json, and restart the server")
	}
	u, err := endpoint(s.endpoint, url.Values{"q": {in.Query}, "format": {"json"}})
	if err != nil {
		return SearchResults{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return SearchResults{}, err
	}
	var got struct {
		Results *[]struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := fetchJSON(s.client, req, "the search engine", &got); err != nil {
		if statusCode(err) == http.StatusForbidden {
			return SearchResults{}, mcptool.Errorf("%w (a SearXNG instance answers 403 to format=json unless its settings.yml lists json under search.formats)", err)
		}
		return SearchResults{}, err
	}
	if got.Results == nil {
		return SearchResults{}, mcptool.Errorf("the search engine answered without a results list; is MCPGEN_SEARCH_URL a SearXNG-compatible /search endpoint?")
	}
	out := SearchResults{Query: in.Query, Results: []SearchHit{}}
	for _, r := range *got.Results {
		if len(out.Results) == in.Limit {
			break
		}
		if r.URL == "" {
			continue
		}
		out.Results = append(out.Results, SearchHit{Title: strings.TrimSpace(r.Title), URL: r.URL, Snippet: strings.TrimSpace(r.Content)})
	}
	return out, nil
}
