package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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
