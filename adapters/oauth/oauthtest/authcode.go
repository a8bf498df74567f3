package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// The authorization code grant with PKCE (RFC 7636, S256 only) and dynamic
// client registration (RFC 7591), as MCP clients drive them (MCP Inspector,
// the TypeScript SDK): register at /register with loopback redirect URIs,
// send the user to /authorize, exchange the code at /token. There is no
// user to ask: /authorize grants the scopes asked for at once, to the user
// "dev-user". The redirect URIs must be loopback, so that a code never
// leaves the machine.

// maxClients and maxCodes bound what registrations and authorizations can
// make the issuer hold.
const (
	maxClients = 1000
	maxCodes   = 1000
	codeTTL    = time.Minute
)

// devUser is the subject of the tokens the authorization code grant gives.
const devUser = "dev-user"

type client struct{ redirects []string }

type grant struct {
	client, redirect, challenge, scope, resource string
	expires                                      time.Time
}

// register answers a dynamic client registration (RFC 7591 §3).
func (i *Issuer) register(w http.ResponseWriter, r *http.Request) {
	var md struct {
		RedirectURIs []string `json:"redirect_uris"`
		ClientName   string   `json:"client_name"`
		Scope        string   `json:"scope"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&md); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "the body is not a JSON object of client metadata")
		return
	}
	if len(md.RedirectURIs) == 0 {
		oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris is required")
		return
	}
	for _, u := range md.RedirectURIs {
		if !loopbackURL(u) {
			oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect URIs must be http(s) URLs on loopback: "+u)
			return
		}
	}
	id := randomString()
	i.mu.Lock()
	if i.clients == nil {
		i.clients = map[string]client{}
	}
	if len(i.clients) >= maxClients {
		i.mu.Unlock()
		oauthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "too many clients registered")
		return
	}
	i.clients[id] = client{redirects: slices.Clone(md.RedirectURIs)}
	i.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
	writeJSON(w, map[string]any{
		"client_id":                  id,
		"client_id_issued_at":        time.Now().Unix(),
		"client_name":                md.ClientName,
		"redirect_uris":              md.RedirectURIs,
		"grant_types":                []string{"authorization_code"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
		"scope":                      md.Scope,
	})
}

// authorize answers an authorization request (RFC 6749 §4.1.1 with RFC
// 7636's code_challenge): errors about the client or its redirect URI are
// shown here; the others go back to the client's redirect URI.
func (i *Issuer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, redirect := q.Get("client_id"), q.Get("redirect_uri")
	i.mu.Lock()
	c, ok := i.clients[id]
	i.mu.Unlock()
	if !ok {
		http.Error(w, "unknown client_id: register the client first (RFC 7591, "+i.base(r)+"/register)", http.StatusBadRequest)
		return
	}
	if redirect == "" && len(c.redirects) == 1 {
		redirect = c.redirects[0]
	}
	if !slices.ContainsFunc(c.redirects, func(reg string) bool { return sameRedirect(reg, redirect) }) {
		http.Error(w, "redirect_uri is not one the client registered", http.StatusBadRequest)
		return
	}
	back := func(params url.Values) {
		u, _ := url.Parse(redirect)
		v := u.Query()
		for k, vs := range params {
			v[k] = vs
		}
		if s := q.Get("state"); s != "" {
			v.Set("state", s)
		}
		v.Set("iss", i.base(r)) // RFC 9207
		u.RawQuery = v.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	}
	switch {
	case q.Get("response_type") != "code":
		back(url.Values{"error": {"unsupported_response_type"}})
		return
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		back(url.Values{"error": {"invalid_request"}, "error_description": {"PKCE with code_challenge_method S256 is required"}})
		return
	}
	code := randomString()
	i.mu.Lock()
	if i.codes == nil {
		i.codes = map[string]grant{}
	}
	now := time.Now()
	for k, g := range i.codes {
		if now.After(g.expires) {
			delete(i.codes, k)
		}
	}
	full := len(i.codes) >= maxCodes
	if !full {
		i.codes[code] = grant{client: id, redirect: redirect, challenge: q.Get("code_challenge"),
			scope: q.Get("scope"), resource: q.Get("resource"), expires: now.Add(codeTTL)}
	}
	i.mu.Unlock()
	if full {
		back(url.Values{"error": {"temporarily_unavailable"}})
		return
	}
	back(url.Values{"code": {code}})
}

// exchange answers the token request of the authorization code grant
// (RFC 6749 §4.1.3, RFC 7636 §4.5); a code is good once.
func (i *Issuer) exchange(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	i.mu.Lock()
	g, ok := i.codes[f.Get("code")]
	delete(i.codes, f.Get("code"))
	i.mu.Unlock()
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	switch {
	case !ok || time.Now().After(g.expires):
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the code is unknown, used or expired")
		return
	case g.client != f.Get("client_id") || g.redirect != f.Get("redirect_uri"):
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the code was issued to another client or redirect_uri")
		return
	case subtle.ConstantTimeCompare([]byte(challenge), []byte(g.challenge)) != 1:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
		return
	}
	resource := g.resource
	if res := f.Get("resource"); res != "" {
		resource = res
	}
	i.grantToken(w, r, Claims{"sub": devUser, "client_id": g.client, "scope": g.scope}, resource)
}

// sameRedirect reports whether the redirect URI of a request matches the
// registered one: exactly, except that the port of a loopback IP address
// may differ (RFC 8252 §7.3: a native client listens on whatever port it
// gets; MCP Inspector keeps its registration when its callback port changes).
func sameRedirect(registered, requested string) bool {
	if registered == requested {
		return true
	}
	r, err1 := url.Parse(registered)
	q, err2 := url.Parse(requested)
	if err1 != nil || err2 != nil {
		return false
	}
	ip := net.ParseIP(r.Hostname())
	if ip == nil || !ip.IsLoopback() {
		return false
	}
	r.Host, q.Host = r.Hostname(), q.Hostname()
	return r.String() == q.String()
}

// loopbackURL reports whether u is an http(s) URL whose host is a loopback
// address or localhost.
func loopbackURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Fragment != "" {
		return false
	}
	if p.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(p.Hostname())
	return ip != nil && ip.IsLoopback()
}

func randomString() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// oauthError answers an OAuth error response (RFC 6749 §5.2).
func oauthError(w http.ResponseWriter, code int, errCode, description string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": errCode, "error_description": description})
}
