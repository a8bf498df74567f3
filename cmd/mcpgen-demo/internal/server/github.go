package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// GitHub creates issues through the GitHub REST API.
type GitHub struct {
	baseURL string // e.g. https://api.github.com
	token   string // from GITHUB_TOKEN; "" means none
	client  *http.Client
}

// IssueArgs are the arguments of github_create_issue. Bounds per call: one
// request upstream, 30 s, 4 MiB read of the answer; at most four calls at
// once, twenty a minute.
type IssueArgs struct {
	_ struct{} `mcp:"title=Create GitHub Issue,readOnly=false,destructive=false,idempotent=false,openWorld,rate=20/m,burst=20,timeout=30s,concurrency=4"`
	// The repository to create the issue in, as owner/name, e.g. "octocat/hello-world": the owner
	// letters, digits and hyphens, the name letters, digits, ".", "_" and "-" (not "." or "..").
	Repo string `json:"repo" jsonschema:"pattern=^[A-Za-z0-9][A-Za-z0-9-]{0\\,38}/[A-Za-z0-9_.-]{1\\,100}$,maxLength=140,example=octocat/hello-world"`
	// The issue's title: one line that says what is wrong or wanted, e.g. "Crash on empty input".
	Title string `json:"title" jsonschema:"example=Crash on empty input" validate:"required,min=1,max=256"`
	// The issue's text in GitHub Markdown: what happened, what was expected, steps to reproduce.
	// Optional.
	Body string `json:"body,omitempty" validate:"omitempty,max=65536"`
	// Names of labels to put on the issue, e.g. ["bug", "good first issue"]; GitHub creates labels
	// that do not exist yet when the token may.
	Labels []string `json:"labels,omitempty" jsonschema:"maxItems=20,uniqueItems" validate:"omitempty,dive,min=1,max=50"`
}

// Issue is the issue github_create_issue created.
type Issue struct {
	// The issue's number in its repository, e.g. 42.
	Number int `json:"number"`
	// The issue's page on GitHub, e.g. https://github.com/octocat/hello-world/issues/42.
	URL string `json:"url"`
	// The issue's title as GitHub stored it.
	Title string `json:"title"`
	// The issue's state: open for a new issue.
	State string `json:"state"`
	// The labels the issue has.
	Labels []string `json:"labels"`
}

// CreateIssue creates an issue in a GitHub repository, with the server's
// GitHub token, and returns the new issue's number and URL. It needs network
// access and a token with permission to create issues: when the server has
// no token, GitHub cannot be reached, or GitHub refuses (bad token, no such
// repository, no permission), the call fails and says so.
//
// Example: {"repo": "octocat/hello-world", "title": "Crash on empty input",
// "body": "Steps to reproduce: ...", "labels": ["bug"]} returns
// {"number": 42, "url": "https://github.com/octocat/hello-world/issues/42", ...}.
func (g *GitHub) CreateIssue(ctx context.Context, in IssueArgs) (Issue, error) {
	if g.token == "" {
		return Issue{}, mcptool.Errorf("no GitHub token: the server needs GITHUB_TOKEN set to a token that may create issues in %s; nothing was sent", in.Repo)
	}
	owner, name, _ := strings.Cut(in.Repo, "/")
	if name == "." || name == ".." {
		return Issue{}, mcptool.Errorf("repo %q: %q is not a repository name; nothing was sent", in.Repo, name)
	}
	u, err := endpoint(g.baseURL, nil, "repos", owner, name, "issues")
	if err != nil {
		return Issue{}, err
	}
	payload, err := json.Marshal(struct {
		Title  string   `json:"title"`
		Body   string   `json:"body,omitempty"`
		Labels []string `json:"labels,omitempty"`
	}{in.Title, in.Body, in.Labels})
	if err != nil {
		return Issue{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(payload))
	if err != nil {
		return Issue{}, err
	}
	req.Header.Set("Authorization", "Bearer "+g.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	var got struct {
		Number  *int   `json:"number"`
		HTMLURL string `json:"html_url"`
		Title   string `json:"title"`
		State   string `json:"state"`
		Labels  []struct {
			Name string `json:"name"`
		} `json:"labels"`
	}
	if err := fetchJSON(g.client, req, "GitHub", &got); err != nil {
		return Issue{}, githubHint(err, in.Repo)
	}
	if got.Number == nil || got.HTMLURL == "" {
		return Issue{}, mcptool.Errorf("GitHub answered without the new issue's number and URL; check %s for the issue before trying again", in.Repo)
	}
	out := Issue{Number: *got.Number, URL: got.HTMLURL, Title: got.Title, State: got.State, Labels: []string{}}
	for _, l := range got.Labels {
		out.Labels = append(out.Labels, l.Name)
	}
	return out, nil
}

// githubHint adds what to do to GitHub's most common refusals.
func githubHint(err error, repo string) error {
	switch statusCode(err) {
	case http.StatusUnauthorized:
		return mcptool.Errorf("%w (the server's GitHub token is not valid)", err)
	case http.StatusNotFound:
		return mcptool.Errorf("%w (no repository %s, or the token cannot see it)", err, repo)
	case http.StatusForbidden:
		return mcptool.Errorf("%w (the token may not create issues in %s, or a rate limit was hit)", err, repo)
	case http.StatusGone:
		return mcptool.Errorf("%w (issues are turned off in %s)", err, repo)
	}
	return err
}
