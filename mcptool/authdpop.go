package mcptool

import (
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
