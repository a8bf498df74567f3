package mcptool_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/mcptool"
)

type SearchNotes struct {
	_     struct{} `mcp:"readOnly,scopes=notes:read"`
	Query string   `json:"query"`
}

// A server whose tools need scopes: without a token a client gets 401 and
// the address of the metadata, which names the authorization server and
// the scopes; a token without a tool's scopes gets 403 naming them.
func ExampleHTTPOptions_authorization() {
	reg := mcptool.NewRegistry()
	_ = mcptool.Add(reg, "search_notes", func(ctx context.Context, in SearchNotes) (string, error) {
		p, _ := mcptool.Caller(ctx) // the verified principal
		return "notes of " + p.Subject + " matching " + in.Query, nil
	}, mcptool.Description("Searches the caller's notes."))

	// In production: mcpoauth.New(ctx, &mcpoauth.Options{Issuer, Audience}).Verify
	// (adapters/oauth). Here, one made-up token.
	verify := func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "t0ken" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "ada", Scopes: []string{"profile"}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	defer hs.Close()
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{TokenVerifier: verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
		Resource:             hs.URL,
		AuthorizationServers: []string{"https://auth.example.com"},
	}})

	post := func(token, body string) {
		req, _ := http.NewRequest("POST", hs.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "search_notes")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode, strings.ReplaceAll(resp.Header.Get("WWW-Authenticate"), hs.URL, "http://server"))
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"go"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	post("", call)
	post("t0ken", call)

	resp, _ := http.Get(hs.URL + "/.well-known/oauth-protected-resource")
	meta, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(strings.ReplaceAll(string(meta), hs.URL, "http://server"))
	// Output:
	// 401 Bearer scope="notes:read", resource_metadata="http://server/.well-known/oauth-protected-resource"
	// 403 Bearer error="insufficient_scope", scope="notes:read", resource_metadata="http://server/.well-known/oauth-protected-resource"
	// {"resource":"http://server","authorization_servers":["https://auth.example.com"],"scopes_supported":["notes:read"],"bearer_methods_supported":["header"]}
}

// Scopes on a registry are the default of its tools; a tool's tag or
// option replaces them, and Scopes() says a tool needs none.
func ExampleScopes() {
	reg := mcptool.NewRegistry(mcptool.Scopes("notes:admin"), mcptool.NoDescription())
	_ = mcptool.Add(reg, "search_notes", func(ctx context.Context, in SearchNotes) (string, error) { return "", nil }) // tag: notes:read
	_ = reg.Add("purge_notes", func(ctx context.Context) (string, error) { return "", nil })                           // the registry's default
	_ = reg.Add("version", func(ctx context.Context) (string, error) { return "1", nil }, mcptool.Scopes())            // none
	cat, _ := reg.Catalog()
	for _, t := range cat.Tools {
		fmt.Println(t.Name, t.Scopes)
	}
	// Output:
	// purge_notes [notes:admin]
	// search_notes [notes:read]
	// version []
}

// A server on stdio (here an in-memory pipe) whose process knows its user:
// the list shows what the user's scopes allow, and calling another tool
// fails naming the missing scopes.
func ExampleAuthenticated() {
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	_ = mcptool.Add(reg, "search_notes", func(ctx context.Context, in SearchNotes) (string, error) {
		p, _ := mcptool.Caller(ctx)
		return "notes of " + p.Subject, nil
	})
	_ = reg.Add("purge_notes", func(ctx context.Context) (string, error) { return "purged", nil }, mcptool.Scopes("notes:admin"))
	srv := reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil)

	user := &auth.TokenInfo{UserID: "ada", Scopes: []string{"notes:read"}, Expiration: time.Now().Add(time.Hour)}
	ctx := mcptool.Authenticated(context.Background(), user)
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := srv.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	defer cs.Close()

	for tool, err := range cs.Tools(context.Background(), nil) {
		if err == nil {
			fmt.Println("listed:", tool.Name)
		}
	}
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": "go"}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "purge_notes"})
	fmt.Println(err)
	// Output:
	// listed: search_notes
	// notes of ada
	// calling "tools/call": insufficient scope: tool purge_notes needs the scopes notes:admin; the token lacks notes:admin
}
