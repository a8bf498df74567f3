package mcpoauth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lestrrat-go/httprc/v3"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Options configure a [Verifier]. Issuer and Audience are required.
type Options struct {
	// Issuer is the authorization server's issuer identifier, exactly as
	// its tokens' iss claim and its metadata's issuer spell it.
	Issuer string
	// Audience is this server's resource identifier (RFC 8707): tokens
	// whose aud does not name it are refused.
	Audience string
	// Algorithms are the signature algorithms accepted. Default: RS256,
	// RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA. none
	// and the HMAC algorithms are never accepted.
	Algorithms []string
	// Leeway is how far exp and nbf may be off, for clocks that drift.
	// Default 30 seconds; negative: none; at most a minute, the most
	// mcptool's HTTP handler takes, so that a token the verifier accepts
	// is never refused after it.
	Leeway time.Duration
	// RefetchInterval is how often, at most, a token naming a key the
	// JWKS does not hold makes the verifier fetch the JWKS again. Default
	// 10 seconds.
	RefetchInterval time.Duration
	// CacheSize bounds the tokens whose verification is remembered until
	// they expire. Default 10,000; negative: none remembered.
	CacheSize int
	// HTTPClient fetches the metadata and the JWKS. Default: a client with
	// a 10-second timeout.
	HTTPClient *http.Client
	// RequireATJWT refuses tokens whose header typ is not "at+jwt" or
	// "application/at+jwt" (any case): RFC 9068 §2.1 types access tokens
	// so that another JWT of the issuer's, an ID token say, cannot pass
	// for one. Off by default, because many issuers sign access tokens
	// with typ "JWT" or none: Keycloak by default (a per-client setting
	// added in 2025 switches to at+jwt), and Auth0 unless the API is set
	// to its RFC 9068 token profile. Look at a token's header before
	// turning it on (docs/auth.md).
	RequireATJWT bool
	// DPoP turns on DPoP-bound tokens (RFC 9449): see [DPoPOptions]. nil:
	// tokens bound to a key (cnf.jkt) are refused, and so is the DPoP
	// authorization scheme.
	DPoP *DPoPOptions
}

// Verifier verifies the access tokens of one issuer for one audience. Its
// methods are safe for concurrent use.
type Verifier struct {
	opts    Options
	algs    []jwa.SignatureAlgorithm
	jwksURI string
	cache   *jwk.Cache

	refetchMu   sync.Mutex
	lastRefetch time.Time

	dpop *dpopCheck // nil without Options.DPoP

	mu     sync.Mutex
	tokens map[[sha256.Size]byte]verified
}

// verified is what Verify learned of a token: its caller, and the key it is
// bound to ("" for none), which every request must prove again.
type verified struct {
	ti  *auth.TokenInfo
	jkt string
}

// ErrNoJWKS reports an issuer whose metadata cannot be found or names no
// JWKS.
var ErrNoJWKS = errors.New("mcpoauth: no JWKS for the issuer")

// MaxLeeway is the most [Options.Leeway] may be: what mcptool's HTTP
// handler allows a token past its expiry, whatever its verifier says.
const MaxLeeway = time.Minute

var defaultAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// New discovers the issuer's metadata and fetches its JWKS; the verifier
// keeps the JWKS fresh until ctx ends or [Verifier.Close].
func New(ctx context.Context, o *Options) (*Verifier, error) {
	var opts Options
	if o != nil {
		opts = *o
	}
	if opts.Issuer == "" || opts.Audience == "" {
		return nil, errors.New("mcpoauth: Options.Issuer and Options.Audience are required")
	}
	if opts.Leeway > MaxLeeway {
		return nil, fmt.Errorf("mcpoauth: Options.Leeway %v is more than %v", opts.Leeway, MaxLeeway)
	}
	if opts.Leeway == 0 {
		opts.Leeway = 30 * time.Second
	} else if opts.Leeway < 0 {
		opts.Leeway = 0
	}
	if opts.RefetchInterval <= 0 {
		opts.RefetchInterval = 10 * time.Second
	}
	if opts.CacheSize == 0 {
		opts.CacheSize = 10_000
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if len(opts.Algorithms) == 0 {
		opts.Algorithms = defaultAlgorithms
	}
	v := &Verifier{opts: opts, tokens: map[[sha256.Size]byte]verified{}}
	var err error
	if v.algs, err = signatureAlgorithms(opts.Algorithms); err != nil {
		return nil, fmt.Errorf("mcpoauth: %w", err)
	}
	if opts.DPoP != nil {
		if v.dpop, err = newDPoPCheck(opts.DPoP, opts.Audience); err != nil {
			return nil, err
		}
	}
	meta, err := auth.GetAuthServerMetadata(ctx, opts.Issuer, opts.HTTPClient)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoJWKS, err)
	}
	if meta == nil || meta.JWKSURI == "" {
		return nil, fmt.Errorf("%w: %s publishes no metadata naming a jwks_uri (RFC 8414 or OpenID Connect discovery)", ErrNoJWKS, opts.Issuer)
	}
	v.jwksURI = meta.JWKSURI
	v.cache, err = jwk.NewCache(ctx, httprc.NewClient())
	if err != nil {
		return nil, fmt.Errorf("mcpoauth: %w", err)
	}
	if err := v.cache.Register(ctx, v.jwksURI, jwk.WithHTTPClient(opts.HTTPClient)); err != nil {
		_ = v.cache.Shutdown(context.Background())
		return nil, fmt.Errorf("%w: %v", ErrNoJWKS, err)
	}
	return v, nil
}

// Close stops refreshing the JWKS.
func (v *Verifier) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return v.cache.Shutdown(ctx)
}

// Verify checks an access token, with the shape of go-sdk's
// auth.TokenVerifier: the TokenInfo carries the subject (UserID), the
// scopes (the scope claim, or scp), the expiry and, in Extra, "client_id"
// (client_id, else azp). A token bound to a key (cnf.jkt) must come with
// the request r's DPoP proof ([DPoPOptions]). Every failure wraps
// auth.ErrInvalidToken and says what was wrong with the token or the
// proof, never what they hold; a failure to record a proof's jti
// ([DPoPOptions].Spent) does not.
func (v *Verifier) Verify(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	key := sha256.Sum256([]byte(token))
	now := time.Now()
	e, ok := v.cached(key, now)
	if !ok {
		var err error
		if e, err = v.verify(ctx, token, now); err != nil {
			return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
		}
		v.remember(key, e, now)
	}
	if err := v.bind(ctx, token, e.jkt, r, now); err != nil {
		return nil, err
	}
	return e.ti, nil
}

func (v *Verifier) verify(ctx context.Context, token string, now time.Time) (verified, error) {
	msg, err := jws.Parse([]byte(token), jws.WithCompact())
	if err != nil {
		return verified{}, errors.New("not a signed JWT")
	}
	sigs := msg.Signatures()
	if len(sigs) != 1 {
		return verified{}, errors.New("not a JWT with one signature")
	}
	h := sigs[0].ProtectedHeaders()
	alg, ok := h.Algorithm()
	if !ok || !slices.Contains(v.algs, alg) {
		return verified{}, fmt.Errorf("signature algorithm %q is not accepted", alg.String())
	}
	if v.opts.RequireATJWT {
		if err := accessTokenType(h); err != nil {
			return verified{}, err
		}
	}
	kid, _ := h.KeyID()
	key, err := v.key(ctx, kid)
	if err != nil {
		return verified{}, err
	}
	if ka, ok := key.Algorithm(); ok && ka.String() != alg.String() {
		return verified{}, fmt.Errorf("key %q is for %s, not %s", kid, ka, alg)
	}
	tok, err := jwt.Parse([]byte(token),
		jwt.WithKey(alg, key),
		jwt.WithValidate(true),
		jwt.WithClock(jwt.ClockFunc(func() time.Time { return now })),
		jwt.WithAcceptableSkew(v.opts.Leeway),
		jwt.WithIssuer(v.opts.Issuer),
		jwt.WithAudience(v.opts.Audience),
		jwt.WithRequiredClaim("exp"),
	)
	if err != nil {
		return verified{}, reason(err)
	}
	ti, err := tokenInfo(tok)
	if err != nil {
		return verified{}, err
	}
	jkt, err := binding(tok.Has, tok.Get)
	if err != nil {
		return verified{}, err
	}
	return verified{ti: ti, jkt: jkt}, nil
}

// accessTokenType checks the header typ of RFC 9068 §2.1: "at+jwt", or the
// full media type "application/at+jwt"; media types are case-insensitive.
func accessTokenType(h jws.Headers) error {
	typ, ok := h.Type()
	if !ok {
		return errors.New("the token has no typ; want at+jwt (RFC 9068)")
	}
	if t := strings.ToLower(typ); t != "at+jwt" && t != "application/at+jwt" {
		return errors.New("the token's typ is not at+jwt (RFC 9068)")
	}
	return nil
}

// reason says why jwx refused a token, in a few words.
func reason(err error) error {
	switch {
	case errors.Is(err, jwt.TokenExpiredError()):
		return errors.New("the token has expired")
	case errors.Is(err, jwt.TokenNotYetValidError()):
		return errors.New("the token is not valid yet")
	case errors.Is(err, jwt.InvalidIssuerError()):
		return errors.New("the token is from another issuer")
	case errors.Is(err, jwt.InvalidAudienceError()):
		return errors.New("the token is not for this server (aud)")
	case errors.Is(err, jwt.MissingRequiredClaimError()):
		return errors.New("the token has no exp")
	}
	return errors.New("the signature or the claims do not verify")
}

// key returns the JWKS key kid names; a kid the JWKS does not hold makes it
// fetch the JWKS again, at most once per RefetchInterval.
func (v *Verifier) key(ctx context.Context, kid string) (jwk.Key, error) {
	set, err := v.cache.Lookup(ctx, v.jwksURI)
	if err == nil {
		if k, ok := pick(set, kid); ok {
			return k, nil
		}
	}
	v.refetchMu.Lock()
	if time.Since(v.lastRefetch) < v.opts.RefetchInterval {
		v.refetchMu.Unlock()
		return nil, fmt.Errorf("no key %q in the issuer's JWKS", kid)
	}
	v.lastRefetch = time.Now()
	v.refetchMu.Unlock()
	set, err = v.cache.Refresh(ctx, v.jwksURI)
	if err != nil {
		return nil, errors.New("the issuer's JWKS cannot be fetched")
	}
	if k, ok := pick(set, kid); ok {
		return k, nil
	}
	return nil, fmt.Errorf("no key %q in the issuer's JWKS", kid)
}

// pick finds the key kid names; a token without kid may use the JWKS's only
// key.
func pick(set jwk.Set, kid string) (jwk.Key, bool) {
	if kid == "" {
		if set.Len() == 1 {
			return set.Key(0)
		}
		return nil, false
	}
	return set.LookupKeyID(kid)
}

// tokenInfo reads what a verified token says of its caller.
func tokenInfo(tok jwt.Token) (*auth.TokenInfo, error) {
	sub, _ := tok.Subject()
	exp, _ := tok.Expiration()
	ti := &auth.TokenInfo{UserID: sub, Expiration: exp, Extra: map[string]any{}}
	var scope string
	if tok.Get("scope", &scope) == nil {
		ti.Scopes = strings.Fields(scope)
	} else {
		var scp any
		if tok.Get("scp", &scp) == nil {
			switch s := scp.(type) {
			case string:
				ti.Scopes = strings.Fields(s)
			case []any:
				for _, x := range s {
					if str, ok := x.(string); ok {
						ti.Scopes = append(ti.Scopes, str)
					}
				}
			}
		}
	}
	var client string
	if tok.Get("client_id", &client) == nil || tok.Get("azp", &client) == nil {
		ti.Extra["client_id"] = client
	}
	if sub == "" {
		return nil, errors.New("the token has no sub")
	}
	return ti, nil
}

// cached returns what an earlier Verify learned of the token, until it
// expires.
func (v *Verifier) cached(key [sha256.Size]byte, now time.Time) (verified, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	e, ok := v.tokens[key]
	if !ok {
		return verified{}, false
	}
	if !now.Before(e.ti.Expiration.Add(v.opts.Leeway)) {
		delete(v.tokens, key)
		return verified{}, false
	}
	return e, true
}

// remember keeps e for the token until it expires; a full cache first
// drops the tokens that expired, else one at random.
func (v *Verifier) remember(key [sha256.Size]byte, e verified, now time.Time) {
	if v.opts.CacheSize < 0 {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.tokens) >= v.opts.CacheSize {
		for k, t := range v.tokens {
			if !now.Before(t.ti.Expiration.Add(v.opts.Leeway)) {
				delete(v.tokens, k)
			}
		}
		for k := range v.tokens {
			if len(v.tokens) < v.opts.CacheSize {
				break
			}
			delete(v.tokens, k)
		}
	}
	v.tokens[key] = e
}
