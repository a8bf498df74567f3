package mcpoauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/adapters/oauth/internal/dpop"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
)

// DPoPOptions turn on DPoP-bound access tokens (RFC 9449): a token whose
// cnf.jkt binds it to a key is taken only with "Authorization: DPoP" and a
// DPoP header holding a proof signed by that key, made for this request's
// method and URL a moment ago, for this token, and never seen before.
// Without DPoPOptions such a token is refused outright (a token bound to a
// key must not work as a bearer token anywhere).
//
// A proof's htu must be this request's URL: the scheme and host of
// [Options].Audience (the URL clients reach this server at) and the path of
// the request, compared after RFC 3986 normalization.
type DPoPOptions struct {
	// Required refuses tokens that are not bound to a key: every caller
	// must use DPoP. The resource metadata says so
	// ([Verifier.ResourceMetadata]: dpop_bound_access_tokens_required).
	Required bool
	// Window is how far a proof's iat may be from now, either way, and so
	// how long its jti is remembered. Default 1 minute.
	Window time.Duration
	// Algorithms are the signature algorithms a proof may use. Default:
	// ES256, ES384, ES512, PS256, PS384, PS512, RS256, RS384, RS512,
	// EdDSA. none and the HMAC algorithms are never accepted.
	Algorithms []string
	// Spent remembers the jti of every proof taken, until the proof is too
	// old to be taken again, so that a proof is taken once. Replicas behind
	// one load balancer must share one — adapters/redis's, the one its
	// Cluster's registry options use for requestStates — or a proof
	// replayed to another replica would pass. Default: in this process.
	Spent cluster.SpentStore
}

var defaultDPoPAlgorithms = []string{"ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512", "EdDSA"}

// dpopCheck is DPoPOptions resolved by New.
type dpopCheck struct {
	required bool
	window   time.Duration
	algs     []jwa.SignatureAlgorithm
	algNames string // for the challenge
	spent    cluster.SpentStore
	origin   string // scheme://host of the Audience, normalized
}

func newDPoPCheck(o *DPoPOptions, audience string) (*dpopCheck, error) {
	d := &dpopCheck{required: o.Required, window: o.Window, spent: o.Spent}
	if d.window < 0 {
		return nil, fmt.Errorf("mcpoauth: DPoPOptions.Window %v is negative", d.window)
	}
	if d.window == 0 {
		d.window = time.Minute
	}
	if d.spent == nil {
		d.spent = cluster.LocalSpent(0)
	}
	names := o.Algorithms
	if len(names) == 0 {
		names = defaultDPoPAlgorithms
	}
	algs, err := signatureAlgorithms(names)
	if err != nil {
		return nil, fmt.Errorf("mcpoauth: DPoPOptions.Algorithms: %w", err)
	}
	d.algs, d.algNames = algs, strings.Join(names, " ")
	u, err := url.Parse(audience)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("mcpoauth: with DPoP, Options.Audience %q must be the http(s) URL clients reach this server at: a proof's htu is checked against it", audience)
	}
	d.origin, err = dpop.Normalize(u.Scheme + "://" + u.Host)
	if err != nil {
		return nil, fmt.Errorf("mcpoauth: Options.Audience %q: %w", audience, err)
	}
	d.origin = strings.TrimSuffix(d.origin, "/")
	return d, nil
}

// signatureAlgorithms looks up names, refusing none and HMAC.
func signatureAlgorithms(names []string) ([]jwa.SignatureAlgorithm, error) {
	var algs []jwa.SignatureAlgorithm
	for _, name := range names {
		alg, ok := jwa.LookupSignatureAlgorithm(name)
		if !ok || alg == jwa.NoSignature() || strings.HasPrefix(name, "HS") {
			return nil, fmt.Errorf("algorithm %q is not accepted: want asymmetric algorithms such as RS256 or ES256", name)
		}
		algs = append(algs, alg)
	}
	return algs, nil
}

// dpopError is a refusal that carries the challenge RFC 9449 §7.1 gives.
// mcptool's HTTP handler answers it with that challenge (it looks for the
// WWWAuthenticate method).
type dpopError struct {
	code, desc, algs string
}

func (e *dpopError) Error() string { return auth.ErrInvalidToken.Error() + ": " + e.desc }
func (e *dpopError) Unwrap() error { return auth.ErrInvalidToken }

// WWWAuthenticate is the challenge of the refusal. Its description is one
// of the fixed sentences of this file: it holds nothing of the token or
// the proof.
func (e *dpopError) WWWAuthenticate() string {
	return fmt.Sprintf(`DPoP error=%q, error_description=%q, algs=%q`, e.code, e.desc, e.algs)
}

func (d *dpopCheck) refuse(code, desc string) error {
	return &dpopError{code: code, desc: desc, algs: d.algNames}
}

// bind checks how a token of binding jkt ("" for none) was presented on r.
func (v *Verifier) bind(ctx context.Context, token, jkt string, r *http.Request, now time.Time) error {
	var scheme string
	if r != nil {
		scheme, _, _ = strings.Cut(r.Header.Get("Authorization"), " ")
	}
	dpopScheme := strings.EqualFold(scheme, "DPoP")
	d := v.dpop
	if d == nil {
		switch {
		case jkt != "":
			return fmt.Errorf("%w: the token is bound to a key (cnf.jkt), and this server does not check DPoP proofs", auth.ErrInvalidToken)
		case dpopScheme:
			return fmt.Errorf("%w: this server does not take DPoP", auth.ErrInvalidToken)
		}
		return nil
	}
	if jkt == "" {
		switch {
		case d.required:
			return d.refuse("invalid_token", "this server takes only DPoP-bound tokens")
		case dpopScheme:
			return d.refuse("invalid_token", "the token is not bound to a key (cnf.jkt)")
		}
		return nil
	}
	if !dpopScheme {
		return d.refuse("invalid_token", "the token is bound to a key: send it with the DPoP scheme and a DPoP proof")
	}
	proofs := r.Header.Values("DPoP")
	if len(proofs) != 1 {
		return d.refuse("invalid_dpop_proof", "send one DPoP header")
	}
	htu, err := dpop.Normalize(d.origin + r.URL.EscapedPath())
	if err != nil {
		return d.refuse("invalid_dpop_proof", "the request's URL is not an http(s) URL")
	}
	p, err := dpop.Check(proofs[0], r.Method, htu, now, d.window, d.algs)
	switch {
	case err != nil:
		return d.refuse("invalid_dpop_proof", err.Error())
	case p.ATH != dpop.ATH(token):
		return d.refuse("invalid_dpop_proof", "the DPoP proof's ath is not this token's hash")
	case p.JKT != jkt:
		return d.refuse("invalid_dpop_proof", "the DPoP proof is not signed by the key the token is bound to")
	}
	// The jti is spent last, once the proof is known good: a proof that
	// fails a check spends nothing. It is kept per key, so that no one
	// spends the jti of another's proofs.
	sum := sha256.Sum256([]byte(jkt + "\x00" + p.JTI))
	first, err := d.spent.Spend(ctx, "dpop:"+base64.RawURLEncoding.EncodeToString(sum[:]), p.IAT.Add(d.window).Add(time.Second))
	if err != nil {
		return fmt.Errorf("mcpoauth: cannot record the DPoP proof's jti: %w", err)
	}
	if !first {
		return d.refuse("invalid_dpop_proof", "the DPoP proof was used before (its jti)")
	}
	return nil
}

// ResourceMetadata returns m, the protected resource metadata (RFC 9728)
// for mcptool.HTTPOptions.ResourceMetadata, with Resource and
// AuthorizationServers the verifier's Audience and Issuer when m leaves
// them empty, and with DPoP the fields that announce it:
// dpop_signing_alg_values_supported, and
// dpop_bound_access_tokens_required with [DPoPOptions].Required. mcptool's
// handler takes the DPoP authorization scheme only when the metadata
// announces DPoP, and with dpop_bound_access_tokens_required it refuses
// Bearer before the verifier sees the token.
func (v *Verifier) ResourceMetadata(m oauthex.ProtectedResourceMetadata) *oauthex.ProtectedResourceMetadata {
	if m.Resource == "" {
		m.Resource = v.opts.Audience
	}
	if len(m.AuthorizationServers) == 0 {
		m.AuthorizationServers = []string{v.opts.Issuer}
	}
	if d := v.dpop; d != nil {
		m.DPOPSigningAlgValuesSupported = strings.Fields(d.algNames)
		m.DPOPBoundAccessTokensRequired = d.required
	} else {
		m.DPOPSigningAlgValuesSupported = nil
		m.DPOPBoundAccessTokensRequired = false
	}
	m.AuthorizationServers = slices.Clone(m.AuthorizationServers)
	return &m
}

// binding reads the key a verified token is bound to: its cnf.jkt
// (RFC 9449 §6.1), "" for none.
func binding(has func(string) bool, get func(string, any) error) (string, error) {
	if !has("cnf") {
		return "", nil
	}
	var cnf map[string]any
	if get("cnf", &cnf) != nil {
		return "", errors.New("the token's cnf is not an object")
	}
	j, ok := cnf["jkt"]
	if !ok {
		return "", nil
	}
	jkt, ok := j.(string)
	if !ok || jkt == "" {
		return "", errors.New("the token's cnf.jkt is not a key thumbprint")
	}
	return jkt, nil
}
