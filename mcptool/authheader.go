package mcptool

import (
	"fmt"
	"net/http"
	"strings"
)

// The two headers of an access token over HTTP: the Authorization a
// request carries it in (bearer), and the WWW-Authenticate challenge
// every refusal of a token carries (challenge, send), which names the
// scope the client should ask for and where the resource metadata is.

// bearer returns the request's access token (RFC 6750 §2.1: the header
// only; a token in the query string is refused, as OAuth 2.1 says) and
// whether it came with the DPoP scheme (RFC 9449 §7.1), which is taken
// only when the resource metadata announces DPoP (dpopOn). The scheme's
// case does not matter.
func (a *authHTTP) bearer(r *http.Request) (token string, dpop, ok bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	dpop = strings.EqualFold(scheme, "DPoP") && dpopOn(a.cfg.meta)
	if !ok || !(dpop || strings.EqualFold(scheme, "Bearer")) || token == "" {
		return "", false, false
	}
	return token, dpop, true
}

// neededScope is the scope a 401 names (RFC 6750 §3, which the MCP
// authorization specification says servers SHOULD send): the scopes of the
// tool a 2026-07-28 tools/call names in its headers; otherwise none, and
// the client asks for the metadata's scopes_supported.
func (a *authHTTP) neededScope(r *http.Request) string {
	if r.Header.Get("Mcp-Method") != "tools/call" {
		return ""
	}
	reg := a.reg
	if reg == nil {
		return ""
	}
	if t, ok := reg.lookup(r.Header.Get("Mcp-Name")); ok {
		return strings.Join(t.pol.scopes, " ")
	}
	return ""
}

// challenge answers with code and a WWW-Authenticate challenge (RFC 6750
// §3, RFC 9728 §5.1) naming the resource metadata, so that the client can
// find where to get a token. It is the one path of every refusal of a
// token (401 missing, invalid or expired; 403 insufficient scope; a
// verifier's own challenge goes through send): nothing else answers 401
// or 403 (sdkpatch.WithTokenInfo). The scheme is Bearer, or DPoP (RFC 9449
// §7.1, with the metadata's algs) for a request that used it and when
// the metadata requires DPoP-bound tokens; a request without credentials
// to a server that takes both gets both challenges.
func (a *authHTTP) challenge(w http.ResponseWriter, r *http.Request, code int, errCode, scope, msg string) {
	var errParam string
	if errCode != "" {
		errParam = fmt.Sprintf("error=%q", errCode)
	}
	meta := a.cfg.meta
	dpop := "DPoP " + errParam
	if algs := meta.DPOPSigningAlgValuesSupported; len(algs) > 0 {
		if errParam != "" {
			dpop += ", "
		}
		dpop += fmt.Sprintf("algs=%q", strings.Join(algs, " "))
	}
	_, usedDPoP, _ := a.bearer(r)
	switch {
	case usedDPoP || meta.DPOPBoundAccessTokensRequired:
		a.send(w, code, []string{dpop}, scope, msg)
	case errCode == "" && dpopOn(meta):
		a.send(w, code, []string{"Bearer", dpop}, scope, msg)
	default:
		a.send(w, code, []string{"Bearer " + errParam}, scope, msg)
	}
}

// send answers with code, one WWW-Authenticate field per challenge, each
// followed by the scope (if any) and the resource metadata's URL.
func (a *authHTTP) send(w http.ResponseWriter, code int, challenges []string, scope, msg string) {
	var params []string
	if scope != "" {
		params = append(params, fmt.Sprintf("scope=%q", scope))
	}
	params = append(params, fmt.Sprintf("resource_metadata=%q", a.metaURL))
	tail := strings.Join(params, ", ")
	w.Header().Del("WWW-Authenticate")
	for _, c := range challenges {
		c = strings.TrimSpace(c)
		if strings.Contains(c, " ") {
			c += ", " + tail
		} else {
			c += " " + tail
		}
		w.Header().Add("WWW-Authenticate", c)
	}
	http.Error(w, msg, code)
}
