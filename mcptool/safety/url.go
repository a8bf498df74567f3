package safety

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
)

// ErrForbiddenURL is wrapped by errors for URLs a [URLPolicy] refuses.
var ErrForbiddenURL = errors.New("URL not allowed")

// URLPolicy says which URLs tools may fetch.
type URLPolicy struct {
	// Schemes allowed. Default: https only.
	Schemes []string
	// AllowPrivate allows loopback, private, link-local and unspecified
	// addresses (for a configured local endpoint). Default false.
	AllowPrivate bool
	// Resolver looks hosts up. Default net.DefaultResolver.
	Resolver *net.Resolver
}

func (p URLPolicy) schemes() []string {
	if len(p.Schemes) == 0 {
		return []string{"https"}
	}
	return p.Schemes
}

// Check parses raw and checks its scheme and, unless AllowPrivate, that its
// host does not resolve to a non-public address.
func (p URLPolicy) Check(ctx context.Context, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, mcptool.UserError(fmt.Errorf("%w: %q is not a URL", ErrForbiddenURL, raw))
	}
	if !slices.Contains(p.schemes(), strings.ToLower(u.Scheme)) {
		return nil, mcptool.UserError(fmt.Errorf("%w: scheme %q (allowed: %s)", ErrForbiddenURL, u.Scheme, strings.Join(p.schemes(), ", ")))
	}
	if u.Hostname() == "" {
		return nil, mcptool.UserError(fmt.Errorf("%w: %q has no host", ErrForbiddenURL, raw))
	}
	if u.User != nil {
		return nil, mcptool.UserError(fmt.Errorf("%w: credentials in the URL", ErrForbiddenURL))
	}
	if p.AllowPrivate {
		return u, nil
	}
	res := p.Resolver
	if res == nil {
		res = net.DefaultResolver
	}
	addrs, err := res.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return nil, mcptool.UserError(fmt.Errorf("cannot resolve %q: %v", u.Hostname(), err))
	}
	for _, a := range addrs {
		if !public(a) {
			return nil, mcptool.UserError(fmt.Errorf("%w: %s resolves to the non-public address %s", ErrForbiddenURL, u.Hostname(), a.Unmap()))
		}
	}
	return u, nil
}

func public(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && !(a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast() ||
		netip.MustParsePrefix("100.64.0.0/10").Contains(a) || netip.MustParsePrefix("fc00::/7").Contains(a))
}

// HTTPClient returns a client with a timeout whose connections are checked
// against the policy when they are made, so a host that resolves to a
// public address at Check time and a private one at dial time (DNS
// rebinding) is still refused. Redirects are checked too, and a redirect to
// another origin (scheme, host or port) is sent without the request's
// Authorization, Proxy-Authorization and Cookie headers: net/http drops them
// only when the host changes, not the port.
func (p URLPolicy) HTTPClient(timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: timeout}
	if !p.AllowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			a, err := netip.ParseAddr(host)
			if err != nil || !public(a) {
				return fmt.Errorf("%w: connection to non-public address %s", ErrForbiddenURL, host)
			}
			return nil
		}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = d.DialContext
	tr.Proxy = nil
	return &http.Client{
		Timeout:   timeout,
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			if !slices.Contains(p.schemes(), req.URL.Scheme) {
				return fmt.Errorf("%w: redirect to scheme %q", ErrForbiddenURL, req.URL.Scheme)
			}
			if origin(req.URL) != origin(via[0].URL) {
				// net/http keeps them when only the port changes.
				for _, h := range credentialHeaders {
					req.Header.Del(h)
				}
			}
			return nil
		},
	}
}

// credentialHeaders are the headers a redirect to another origin loses.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

// origin is u's scheme, host and port (the scheme's default when none).
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
