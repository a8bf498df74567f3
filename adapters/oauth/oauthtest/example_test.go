package oauthtest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
)

// A client's DPoP key: a token request with its proof gets a token bound
// to it (RFC 9449 §5), which the client then sends with a proof per
// request (Proof with the access token).
func ExampleNewDPoPKey() {
	iss, _ := oauthtest.NewIssuer()
	defer iss.Close()
	key, _ := oauthtest.NewDPoPKey("ES256")

	proof, _ := key.Proof("POST", iss.URL+"/token", "")
	req, _ := http.NewRequest("POST", iss.URL+"/token", strings.NewReader(url.Values{
		"grant_type": {"client_credentials"}, "scope": {"notes:read"}, "resource": {"https://mcp.example.com/mcp"},
	}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("DPoP", proof)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	fmt.Println(resp.StatusCode, tok.TokenType)

	// Each request to the server: Authorization: DPoP <token>, and a proof.
	proof, _ = key.Proof("POST", "https://mcp.example.com/mcp", tok.AccessToken)
	fmt.Println(strings.Count(proof, "."))
	// Output:
	// 200 DPoP
	// 2
}
