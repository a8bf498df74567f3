package cluster_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The cluster runs with authorization on: a development issuer on
// loopback (mcpgen-demo issuer) signs the tokens, every replica verifies
// them against its JWKS for the load balancer's URL, and the tests' clients
// send a token with every scope of the demo.

// startIssuer starts the issuer and gets the cluster's token.
func (c *cluster) startIssuer() {
	t := c.t
	port := freePort(t)
	c.issuer = "http://127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(demoBin, "issuer", "-http", "127.0.0.1:"+strconv.Itoa(port))
	c.logTo(cmd, "issuer.log")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(c.issuer + "/.well-known/oauth-authorization-server")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the issuer did not come up within 20s (logs in %s)", c.dir)
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.token = c.tokenFor("demo:read demo:write demo:admin")
}

// tokenFor asks the issuer for a token with scope, for the cluster.
func (c *cluster) tokenFor(scope string) string {
	res, err := http.PostForm(c.issuer+"/token", url.Values{"grant_type": {"client_credentials"}, "scope": {scope}, "resource": {c.url()}})
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		c.t.Fatalf("no token from the issuer: %v", err)
	}
	return tok.AccessToken
}

// authFlags are the replicas' flags that turn authorization on.
func (c *cluster) authFlags() []string {
	return []string{"-auth-issuer", c.issuer, "-auth-audience", c.url()}
}

// bearer sends a token with every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestClusterAuth: through HAProxy, a request without a token gets 401 and
// the metadata's address; one token is good on every replica (each
// verifies it against the issuer's JWKS); a token without demo:admin is
// refused a destructive tool with 403 by whichever replica answers.
func TestClusterAuth(t *testing.T) {
	c := startCluster(t, "demo", "-confirm=false")
	res, err := http.Post(c.url(), "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	want := fmt.Sprintf(`Bearer resource_metadata="http://%s/.well-known/oauth-protected-resource/mcp"`, c.lbAddr)
	if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") != want {
		t.Fatalf("no token: %d %q; want 401 %q", res.StatusCode, res.Header.Get("WWW-Authenticate"), want)
	}

	var sb servedBy
	cs := c.connect(t, "", &sb, nil)
	for i := range 6 {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "calculate_sum", Arguments: map[string]any{"a": i, "b": 1}})
		if err != nil || res.IsError {
			t.Fatalf("call %d: %v %q", i, err, text(res))
		}
	}
	if n := len(sb.counts()); n != 3 {
		t.Errorf("replicas that verified the token: %d (%v), want 3", n, sb.counts())
	}

	c.token = c.tokenFor("demo:read demo:write")
	writer := c.connect(t, "", nil, nil)
	_, err = writer.CallTool(t.Context(), &mcp.CallToolParams{Name: "delete_file", Arguments: map[string]any{"path": "x.csv"}})
	if err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("delete_file without demo:admin: %v, want 403 Forbidden", err)
	}
}
