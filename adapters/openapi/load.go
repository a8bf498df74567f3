package mcpopenapi

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Description is an OpenAPI 3.0 or 3.1 description, loaded and checked,
// its references resolved.
type Description struct {
	doc      *openapi3.T
	location *url.URL // where it was read from: a relative server URL is resolved against it
}

// Load reads an OpenAPI 3.0 or 3.1 description, JSON or YAML, from a file
// or an http(s) URL, with the files and URLs its $refs name relative to it,
// and checks it against the OpenAPI specification of its version.
func Load(ctx context.Context, pathOrURL string) (*Description, error) {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = true
	var (
		doc *openapi3.T
		loc *url.URL
		err error
	)
	if u, perr := url.Parse(pathOrURL); perr == nil && (u.Scheme == "http" || u.Scheme == "https") {
		loc = u
		doc, err = loader.LoadFromURI(u)
	} else {
		doc, err = loader.LoadFromFile(pathOrURL)
	}
	if err != nil {
		return nil, fmt.Errorf("mcpopenapi.Load %s: %w", pathOrURL, err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.0") && !strings.HasPrefix(doc.OpenAPI, "3.1") {
		return nil, fmt.Errorf("mcpopenapi.Load %s: OpenAPI %q: only 3.0 and 3.1 are read", pathOrURL, doc.OpenAPI)
	}
	if err := check(ctx, doc); err != nil {
		return nil, fmt.Errorf("mcpopenapi.Load %s: %w", pathOrURL, err)
	}
	return &Description{doc: doc, location: loc}, nil
}

// v30 reports OpenAPI 3.0's schema dialect.
func (d *Description) v30() bool { return strings.HasPrefix(d.doc.OpenAPI, "3.0") }

// server is the description's first server URL, its variables at their
// defaults, resolved against the description's own URL.
func (d *Description) server() (string, error) {
	if len(d.doc.Servers) == 0 || d.doc.Servers[0] == nil {
		return "", fmt.Errorf("the description names no server: give Options.BaseURL")
	}
	s := d.doc.Servers[0]
	raw := s.URL
	for name, v := range s.Variables {
		raw = strings.ReplaceAll(raw, "{"+name+"}", v.Default)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("server %q: %w", s.URL, err)
	}
	if !u.IsAbs() {
		if d.location == nil {
			return "", fmt.Errorf("server %q is relative and the description was read from a file: give Options.BaseURL", s.URL)
		}
		u = d.location.ResolveReference(u)
	}
	return u.String(), nil
}

// check validates doc against its version's rules, but for two paths that
// differ only in their templates' names ("/a/{id}" and "/a/{name}" with
// other methods): a client never routes, so the rule does not concern it,
// and GitHub's description breaks it.
func check(ctx context.Context, doc *openapi3.T) error {
	err := doc.Validate(ctx, openapi3.DisableExamplesValidation(), openapi3.EnableMultiError())
	var me openapi3.MultiError
	if !errors.As(err, &me) {
		return err
	}
	var kept openapi3.MultiError
	for _, e := range me {
		var cp *openapi3.ConflictingPathsError
		if !errors.As(e, &cp) {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}
