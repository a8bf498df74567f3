package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeGitHub is the part of the GitHub REST API github_create_issue uses,
// under prefix (GitHub Enterprise serves it under /api/v3).
func fakeGitHub(t *testing.T, prefix, token string) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+prefix+"/repos/{owner}/{repo}/issues", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}`)
			return
		}
		assert.Equal(t, "application/json", r.Header.Get("Accept"))
		assert.Equal(t, "2022-11-28", r.Header.Get("X-GitHub-Api-Version"))
		if r.PathValue("owner") != "octocat" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"message": "Not Found"}`)
			return
		}
		var in struct {
			Title  string   `json:"title"`
			Body   string   `json:"body"`
			Labels []string `json:"labels"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&in))
		if in.Title == "invalid" {
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = io.WriteString(w, `{"message": "Validation Failed", "errors": [{"resource": "Issue", "code": "invalid"}]}`)
			return
		}
		labels := []map[string]any{}
		for _, l := range in.Labels {
			labels = append(labels, map[string]any{"name": l, "id": 1})
		}
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"number": 42, "state": "open", "title": in.Title, "body": in.Body, "labels": labels,
			"html_url": "https://github.com/" + r.PathValue("owner") + "/" + r.PathValue("repo") + "/issues/42",
			"url":      "https://api.github.com/repos/x/y/issues/42",
		})
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

func TestGitHubCreateIssue(t *testing.T) {
	gh := fakeGitHub(t, "/api/v3", "secret")
	cs, _ := demoClient(t, func(c *config) { c.githubURL = gh.URL + "/api/v3/"; c.githubToken = "secret" })
	got := okResult(t, cs.Call("github_create_issue", map[string]any{
		"repo": "octocat/hello-world", "title": "Crash on empty input", "body": "Steps: ...", "labels": []string{"bug", "good first issue"}}))
	assert.Equal(t, map[string]any{"number": 42.0, "url": "https://github.com/octocat/hello-world/issues/42",
		"title": "Crash on empty input", "state": "open", "labels": []any{"bug", "good first issue"}}, got)

	for args, want := range map[string]string{
		`{"repo": "someone/else", "title": "x"}`:                              "GitHub answered 404 Not Found: Not Found (no repository someone/else, or the token cannot see it)",
		`{"repo": "octocat/hello-world", "title": "invalid"}`:                 "GitHub answered 422 Unprocessable Entity: Validation Failed",
		`{"repo": "../../etc", "title": "x"}`:                                 "repo: must match the pattern",
		`{"repo": "octocat/hello-world", "title": ""}`:                        "title: must be at least 1 character long",
		`{"repo": "octocat/hello-world", "title": "x", "labels": ["a", "a"]}`: "labels: items must be unique",
	} {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(args), &m))
		assert.Contains(t, errResult(t, cs.Call("github_create_issue", m)), want, args)
	}
}

// TestGitHubUnavailable checks the three ways github_create_issue cannot
// work: no token, a bad token, no network.
func TestGitHubUnavailable(t *testing.T) {
	gh := fakeGitHub(t, "", "secret")
	args := map[string]any{"repo": "octocat/hello-world", "title": "x"}
	for _, tc := range []struct {
		name       string
		url, token string
		want       string
	}{
		{"no token", gh.URL, "", "no GitHub token: the server needs GITHUB_TOKEN set to a token that may create issues in octocat/hello-world; nothing was sent"},
		{"bad token", gh.URL, "wrong", "GitHub answered 401 Unauthorized: Bad credentials (the server's GitHub token is not valid)"},
		{"no network", deadURL(t), "secret", "cannot reach GitHub at 127.0.0.1:"},
		{"bad URL", "ftp://example.com", "secret", `the server's URL "ftp://example.com" is not an http(s) URL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, _ := demoClient(t, func(c *config) { c.githubURL = tc.url; c.githubToken = tc.token })
			assert.Contains(t, errResult(t, cs.Call("github_create_issue", args)), tc.want)
		})
	}
}

// TestGitHubRepoPath checks that repo cannot climb out of the API's path:
// "../.." fails the schema's pattern, "octocat/.." is refused before
// anything is sent, and the name's characters are escaped in the URL.
func TestGitHubRepoPath(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.EscapedPath())
		mu.Unlock()
		w.WriteHeader(http.StatusNotFound)
	}))
	defer ts.Close()
	cs, _ := demoClient(t, func(c *config) { c.githubURL = ts.URL + "/api/v3"; c.githubToken = "secret" })
	for repo, want := range map[string]string{
		"../..":        "repo: must match the pattern",
		"../../etc":    "repo: must match the pattern",
		"octocat/..":   `repo "octocat/..": ".." is not a repository name; nothing was sent`,
		"octocat/.":    `"." is not a repository name`,
		"-x/hello":     "repo: must match the pattern",
		"octocat/a/b":  "repo: must match the pattern",
		"octocat/a%2f": "repo: must match the pattern",
	} {
		assert.Contains(t, errResult(t, cs.Call("github_create_issue", map[string]any{"repo": repo, "title": "x"})), want, repo)
	}
	mu.Lock()
	assert.Empty(t, paths, "nothing was sent")
	mu.Unlock()
	errResult(t, cs.Call("github_create_issue", map[string]any{"repo": "octocat/..hello.world", "title": "x"}))
	assert.Equal(t, []string{"/api/v3/repos/octocat/..hello.world/issues"}, paths)
}

// TestGitHubRedirectKeepsToken checks that a redirect to another origin,
// here another port on loopback, is followed without the token.
func TestGitHubRedirectKeepsToken(t *testing.T) {
	got := make(chan string, 1)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Authorization")
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "Bearer secret", r.Header.Get("Authorization"))
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	cs, _ := demoClient(t, func(c *config) { c.githubURL = first.URL; c.githubToken = "secret" })
	msg := errResult(t, cs.Call("github_create_issue", map[string]any{"repo": "octocat/hello-world", "title": "x"}))
	assert.Contains(t, msg, "GitHub answered 401")
	assert.Equal(t, "", <-got, "the token stays with the configured origin")
}

// TestUpstreamsPrivateRefused checks that without -allow-private-upstreams
// the HTTP tools do not connect to loopback: the call says why and how to
// allow it, and the server gets nothing.
func TestUpstreamsPrivateRefused(t *testing.T) {
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer ts.Close()
	cs, _ := demoClient(t, func(c *config) {
		c.privateUpstreams = false
		c.githubURL, c.githubToken, c.weatherURL, c.geocodingURL, c.searchURL = ts.URL, "secret", ts.URL, ts.URL, ts.URL+"/search"
	})
	host := strings.TrimPrefix(ts.URL, "http://")
	for tool, args := range map[string]map[string]any{
		"github_create_issue": {"repo": "octocat/hello-world", "title": "x"},
		"get_weather":         {"location": "Berlin"},
		"web_search":          {"query": "mcp"},
	} {
		msg := errResult(t, cs.Call(tool, args))
		assert.Contains(t, msg, " at "+host+" is not reached: its address is loopback, private or link-local, which the server refuses unless started with -allow-private-upstreams; nothing was sent", tool)
	}
	assert.Zero(t, hits.Load())
}
