package mcptool

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// DPoP (RFC 9449) at the HTTP front (authHTTP): the handler takes the DPoP
// authorization scheme when the resource metadata announces DPoP, and
// hands the token and the request to the TokenVerifier, which checks the
// proof (adapters/oauth does). A verifier's error with a method
// WWWAuthenticate() string is answered with that challenge, so a refusal
// says what was wrong with the proof the way RFC 9449 §7.1 gives.

// challenger is a TokenVerifier's error that carries its own challenge,
// such as `DPoP error="invalid_dpop_proof", error_description="…",
// algs="ES256"`; the handler adds the scope and the resource metadata.
type challenger interface{ WWWAuthenticate() string }

// dpopOn reports whether the resource metadata announces DPoP.
func dpopOn(meta *oauthex.ProtectedResourceMetadata) bool {
	return meta.DPOPBoundAccessTokensRequired || len(meta.DPOPSigningAlgValuesSupported) > 0
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
