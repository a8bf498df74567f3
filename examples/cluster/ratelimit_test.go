package cluster_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// b. github_create_issue has rate=20/m (burst 20). Called 60 times through
// the load balancer within its window, round robin over three replicas, it
// is allowed 20 times (±1) cluster-wide, not 20 per replica; the refusals
// say when to retry.
func TestRateLimitAcrossReplicas(t *testing.T) {
	// No token and an unreachable API: an allowed call fails fast with an
	// isError of its own, a refused one with the rate limit's.
	c := startCluster(t, "demo", "-github-url", "http://127.0.0.1:1")
	sb := &servedBy{}
	cs := c.connect(t, "", sb, nil)
	allowed := 0
	for range 60 {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "github_create_issue",
			Arguments: map[string]any{"repo": "octocat/hello-world", "title": "cluster test"}})
		if err != nil {
			t.Fatal(err)
		}
		msg := text(res)
		if !strings.Contains(msg, "rate limit exceeded") {
			allowed++
			continue
		}
		if !strings.Contains(msg, "retry in") {
			t.Errorf("a refusal that does not say when to retry: %q", msg)
		}
	}
	if allowed < 19 || allowed > 21 {
		t.Fatalf("allowed %d of 60 calls; want 20 (±1) across the cluster", allowed)
	}
	if n := len(sb.counts()); n != 3 {
		t.Fatalf("the calls reached %v; want all three replicas", sb.counts())
	}
}
