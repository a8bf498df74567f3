package mcpopenapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// newRequest builds the HTTP request of one call from its arguments, which
// the input schema has checked: the path parameters percent-encoded as
// whole segments of the base URL's path, the query and the headers
// serialized in their styles, the body as sent.
func (o *operation) newRequest(ctx context.Context, base *url.URL, args map[string]any) (*http.Request, error) {
	var refusals []string
	path := o.path
	var query []string
	var header http.Header
	for _, p := range o.params {
		v, ok := args[p.name]
		if !ok {
			continue
		}
		switch p.in {
		case "path":
			s := simple(v, p.explode, url.PathEscape)
			if s == "" || s == "." || s == ".." {
				refusals = append(refusals, fmt.Sprintf("%s: %q cannot be a path segment (path parameters are single segments, never empty, . or ..)", p.name, s))
				continue
			}
			path = strings.ReplaceAll(path, "{"+p.name+"}", s)
		case "query":
			query = append(query, form(p, v)...)
		case "header":
			s := simple(v, p.explode, func(s string) string { return s })
			if strings.ContainsAny(s, "\r\n\x00") {
				refusals = append(refusals, p.name+": a header value cannot hold a line break or NUL")
				continue
			}
			if header == nil {
				header = http.Header{}
			}
			header.Set(p.name, s)
		}
	}
	if len(refusals) > 0 {
		return nil, mcptool.Errorf("the request was not sent: %s", strings.Join(refusals, "; "))
	}
	// The path template's own segments and the parameters' are all there
	// is: a segment of . or .. would leave the base URL's path.
	for rest := path; rest != ""; {
		var seg string
		seg, rest, _ = strings.Cut(rest, "/")
		if seg == "." || seg == ".." {
			return nil, mcptool.Errorf("the request was not sent: its path %q has a . or .. segment", path)
		}
	}
	u := *base
	u.RawPath = strings.TrimSuffix(base.EscapedPath(), "/") + path
	var err error
	if u.Path, err = url.PathUnescape(u.RawPath); err != nil {
		return nil, err
	}
	u.RawQuery = strings.Join(query, "&")
	u.Fragment, u.RawFragment = "", ""
	var body io.Reader = http.NoBody
	if b, ok := args[bodyName]; ok && o.body {
		// The body as checked: json.Number keeps each number as written.
		raw, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, o.method, u.String(), body)
	if err != nil {
		return nil, err
	}
	if body != http.NoBody {
		req.Header.Set("Content-Type", o.contentType)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if o.accept != "" {
		req.Header.Set("Accept", o.accept)
	}
	return req, nil
}

// scalar is a primitive value as a parameter carries it.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// simple serializes v in the simple style (RFC 6570 {v} and {v*}), each
// value escaped by esc and the commas and equals signs between them not.
func simple(v any, explode bool, esc func(string) string) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = esc(scalar(e))
		}
		return strings.Join(parts, ",")
	case map[string]any:
		var parts []string
		for _, k := range sortedKeys(x) {
			if explode {
				parts = append(parts, esc(k)+"="+esc(scalar(x[k])))
			} else {
				parts = append(parts, esc(k), esc(scalar(x[k])))
			}
		}
		return strings.Join(parts, ",")
	}
	return esc(scalar(v))
}

// form serializes a query parameter: form (exploded or not),
// spaceDelimited, pipeDelimited or deepObject.
func form(p param, v any) []string {
	name := url.QueryEscape(p.name)
	esc := url.QueryEscape
	switch x := v.(type) {
	case []any:
		if p.explode {
			out := make([]string, len(x))
			for i, e := range x {
				out[i] = name + "=" + esc(scalar(e))
			}
			return out
		}
		sep := map[string]string{"spaceDelimited": "%20", "pipeDelimited": "|"}[p.style]
		if sep == "" {
			sep = ","
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = esc(scalar(e))
		}
		return []string{name + "=" + strings.Join(parts, sep)}
	case map[string]any:
		keys := sortedKeys(x)
		var out []string
		switch {
		case p.style == "deepObject":
			for _, k := range keys {
				out = append(out, name+"%5B"+esc(k)+"%5D="+esc(scalar(x[k])))
			}
		case p.explode:
			for _, k := range keys {
				out = append(out, esc(k)+"="+esc(scalar(x[k])))
			}
		default:
			var parts []string
			for _, k := range keys {
				parts = append(parts, esc(k), esc(scalar(x[k])))
			}
			out = append(out, name+"="+strings.Join(parts, ","))
		}
		return out
	}
	return []string{name + "=" + esc(scalar(v))}
}
