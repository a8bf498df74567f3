// Package mcpoauth verifies OAuth 2.1 access tokens that are JWTs signed by
// an authorization server, for an MCP server acting as a resource server
// (the MCP authorization specification, RFC 9068 access tokens).
//
// [New] discovers the issuer's JWKS from its metadata (RFC 8414
// /.well-known/oauth-authorization-server or OpenID Connect
// /.well-known/openid-configuration), keeps it in a cache that refreshes in
// the background (github.com/lestrrat-go/jwx/v3) and fetches it again, at
// most once per [Options].RefetchInterval, when a token names a key it does
// not know (the issuer rotated its keys). [Verifier.Verify] checks the
// signature with an algorithm of the allowlist (never none, never HMAC: the
// keys are public), exp and nbf with a small leeway, iss, and that aud names
// this server's resource identifier (RFC 8707), with [Options].RequireATJWT
// the header typ RFC 9068 gives access tokens, and caches what it learned
// per token until the token expires, in a bounded cache.
//
// Verify has the shape of go-sdk's auth.TokenVerifier, the seam
// mcptool.HTTPOptions.TokenVerifier takes:
//
//	v, err := mcpoauth.New(ctx, &mcpoauth.Options{
//		Issuer:   "https://auth.example.com/realms/mcp",
//		Audience: "https://mcp.example.com/mcp",
//	})
//	h := reg.Server(impl, nil).Handler(&mcptool.HTTPOptions{
//		TokenVerifier: v.Verify,
//		ResourceMetadata: &oauthex.ProtectedResourceMetadata{
//			Resource:             "https://mcp.example.com/mcp",
//			AuthorizationServers: []string{"https://auth.example.com/realms/mcp"},
//		},
//	})
//
// With [Options].DPoP it takes DPoP-bound tokens (RFC 9449): a token whose
// cnf.jkt binds it to a client's key passes only with "Authorization: DPoP"
// and a proof signed by that key for the request's method and URL, recent,
// for this token and never seen before (across replicas with a shared
// cluster.SpentStore); each refusal carries RFC 9449's DPoP challenge,
// which mcptool's handler sends. [Verifier.ResourceMetadata] announces it
// in the protected resource metadata. Without DPoP, a bound token is
// refused: it is never taken as a bearer token.
//
// It is a module of its own so that the core does not download a JWT
// library for users who do not need one.
package mcpoauth
