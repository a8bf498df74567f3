package mcpopenapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// upstream is the API the operations of one [Add] call: its base URL, the
// client with its bounds, and the calls in flight.
type upstream struct {
	base      *url.URL
	client    *http.Client
	authorize func(*http.Request) error
	maxBytes  int64
	inflight  chan struct{}
}

// errOrigin is a redirect out of the base URL's origin, never followed.
type errOrigin struct{ to string }

func (e *errOrigin) Error() string { return "a redirect to " + e.to + ", outside the API's origin" }

func newUpstream(base *url.URL, opts Options) *upstream {
	c := http.Client{}
	if opts.Client != nil {
		c = *opts.Client
	}
	origin := base.Scheme + "://" + base.Host
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if to := req.URL.Scheme + "://" + req.URL.Host; to != origin {
			return &errOrigin{to: to}
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	u := &upstream{base: base, client: &c, authorize: opts.Authorize, maxBytes: opts.MaxResponseBytes}
	if u.maxBytes == 0 {
		u.maxBytes = 4 << 20
	}
	if n := opts.MaxConcurrent; n >= 0 {
		if n == 0 {
			n = 16
		}
		u.inflight = make(chan struct{}, n)
	}
	return u
}

// response is what the API answered to one call, within the bounds.
type response struct {
	status int
	header http.Header
	body   []byte
	url    *url.URL // where the answer came from, after redirects
}

// do sends one call's request and reads the answer; a refusal (a bound
// reached, a 4xx) is an error the model reads, anything else an internal
// error.
func (u *upstream) do(ctx context.Context, o *operation, args map[string]any) (*response, error) {
	if u.inflight != nil {
		select {
		case u.inflight <- struct{}{}:
			defer func() { <-u.inflight }()
		default:
			return nil, mcptool.Errorf("refused: %d calls to %s are in flight, the most this server makes at once (MaxConcurrent); try again shortly", cap(u.inflight), u.base.Host)
		}
	}
	req, err := o.newRequest(ctx, u.base, args)
	if err != nil {
		return nil, err
	}
	if u.authorize != nil {
		if err := u.authorize(req); err != nil {
			return nil, fmt.Errorf("outbound credentials: %w", err)
		}
	}
	resp, err := u.client.Do(req)
	if err != nil {
		var eo *errOrigin
		if errors.As(err, &eo) {
			return nil, mcptool.Errorf("refused: the API redirected to %s; redirects are followed only within %s://%s", eo.to, u.base.Scheme, u.base.Host)
		}
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	limit := u.maxBytes
	var body []byte
	if limit > 0 {
		body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err == nil && int64(len(body)) > limit {
			return nil, mcptool.Errorf("refused: the API's response is larger than %d bytes (MaxResponseBytes)", limit)
		}
	} else {
		body, err = io.ReadAll(resp.Body)
	}
	if err != nil {
		return nil, err
	}
	r := &response{status: resp.StatusCode, header: resp.Header, body: body, url: resp.Request.URL}
	switch {
	case r.status >= 200 && r.status < 300:
		return r, nil
	case r.status >= 400 && r.status < 500:
		return nil, mcptool.UserError(&StatusError{Status: r.status, Message: apiMessage(r)})
	}
	return nil, &StatusError{Status: r.status, Message: apiMessage(r)}
}

// StatusError is an answer of the API other than 2xx. A 4xx one is shown
// to the model (its status and the API's own message); others are internal
// errors, masked with a reference.
type StatusError struct {
	Status  int
	Message string // the API's message: a problem's title and detail, a JSON "message", or the text
}

func (e *StatusError) Error() string {
	s := "the API answered " + strconv.Itoa(e.Status) + " " + http.StatusText(e.Status)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// apiMessage is the message of an error response: application/problem+json's
// title and detail, a JSON object's message or error, else its text, cut
// at 500 bytes.
func apiMessage(r *response) string {
	mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type"))
	var msg string
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		var obj map[string]any
		if json.Unmarshal(r.body, &obj) == nil {
			str := func(k string) string { s, _ := obj[k].(string); return s }
			var parts []string
			for _, k := range []string{"title", "detail", "message", "error", "error_description"} {
				if s := str(k); s != "" {
					parts = append(parts, s)
				}
			}
			msg = strings.Join(parts, ": ")
		}
	} else if strings.HasPrefix(mt, "text/") {
		msg = strings.TrimSpace(string(r.body))
	}
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	return msg
}

// content maps a 2xx answer of an operation without an output schema to
// content by its media type: JSON and text/* as text, image/* as an image,
// anything else as an embedded resource.
func content(r *response) *mcp.CallToolResult {
	ct := r.header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case len(r.body) == 0:
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the API answered " + strconv.Itoa(r.status) + " " + http.StatusText(r.status) + " without content"}}}
	case mt == "application/json" || strings.HasSuffix(mt, "+json") || strings.HasPrefix(mt, "text/"):
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(r.body)}}}
	case strings.HasPrefix(mt, "image/"):
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: r.body, MIMEType: mt}}}
	}
	if mt == "" {
		mt = "application/octet-stream"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: r.url.String(), MIMEType: mt, Blob: r.body}}}}
}
