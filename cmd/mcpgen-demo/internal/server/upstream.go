package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// maxResponseBytes bounds what the HTTP-backed tools read of a response.
const maxResponseBytes = 4 << 20

// fetchJSON sends req with client and decodes a 2xx JSON response into out.
// Every failure is an error the model can read, naming service: no network,
// a timeout, the upstream's status and message, or a response that is not
// the JSON expected. A cancelled call returns the context's error.
func fetchJSON(client *http.Client, req *http.Request, service string, out any) error {
	req.Header.Set("Accept", "application/json")
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "mcpgen-demo/"+version)
	}
	resp, err := client.Do(req)
	if err != nil {
		return transportError(req.Context(), service, req.URL, err)
	}
	defer resp.Body.Close()
	body := io.LimitReader(resp.Body, maxResponseBytes)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return statusError(service, resp, body)
	}
	if err := json.NewDecoder(body).Decode(out); err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return ctxErr
		}
		return mcptool.Errorf("%s sent a response that is not the JSON expected (%v); nothing was made up in its place", service, err)
	}
	return nil
}

// transportError describes a request that got no response.
func transportError(ctx context.Context, service string, u *url.URL, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(ctxErr, context.DeadlineExceeded) {
		return ctxErr // the call was cancelled
	}
	host := u.Host
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return mcptool.Errorf("%s at %s did not answer in time; try again later", service, host)
	}
	if errors.Is(err, safety.ErrForbiddenURL) {
		return mcptool.Errorf("%s at %s is not reached: its address is loopback, private or link-local, which the server "+
			"refuses unless started with -allow-private-upstreams; nothing was sent", service, host)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the URL is in the message already
	}
	return mcptool.Errorf("cannot reach %s at %s (no network, or the service is down): %v", service, host, err)
}

// statusError describes a non-2xx response, with the message of its body
// when it has one.
func statusError(service string, resp *http.Response, body io.Reader) error {
	raw, _ := io.ReadAll(io.LimitReader(body, 4096))
	msg := ""
	var m struct {
		Message string `json:"message"`
		Error   any    `json:"error"`
		Reason  string `json:"reason"`
	}
	if json.Unmarshal(raw, &m) == nil {
		switch {
		case m.Message != "":
			msg = m.Message
		case m.Reason != "":
			msg = m.Reason
		case m.Error != nil:
			msg = fmt.Sprint(m.Error)
		}
	} else if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/plain") {
		msg = strings.TrimSpace(string(raw))
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return mcptool.UserError(&statusErr{service: service, code: resp.StatusCode, status: resp.Status, msg: msg})
}

// statusErr is a non-2xx answer of an upstream service.
type statusErr struct {
	service string
	code    int
	status  string // e.g. "404 Not Found"
	msg     string // the body's message, if any
}

func (e *statusErr) Error() string {
	status := e.status
	if status == "" {
		status = fmt.Sprint(e.code)
	}
	if e.msg != "" {
		return fmt.Sprintf("%s answered %s: %s", e.service, status, e.msg)
	}
	return fmt.Sprintf("%s answered %s", e.service, status)
}

// statusCode is the HTTP status of an upstream's refusal, or 0.
func statusCode(err error) int {
	var se *statusErr
	if errors.As(err, &se) {
		return se.code
	}
	return 0
}

// endpoint joins a configured base URL and path segments, keeping the
// base's own path (https://host/api/v3 + repos, o, r = https://host/api/v3/repos/o/r).
// Each segment is escaped (url.PathEscape), and an empty one, "." or ".."
// is refused, so a value from a call cannot climb out of the base's path.
func endpoint(base string, query url.Values, segments ...string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", mcptool.Errorf("the server's URL %q is not an http(s) URL; fix its configuration", base)
	}
	p, raw := strings.TrimSuffix(u.Path, "/"), strings.TrimSuffix(u.EscapedPath(), "/")
	for _, s := range segments {
		if s == "" || s == "." || s == ".." {
			return "", mcptool.Errorf("%q cannot be part of a URL path", s)
		}
		p += "/" + s
		raw += "/" + url.PathEscape(s)
	}
	u.Path, u.RawPath = p, raw
	if query != nil {
		q := u.Query()
		for k, vs := range query {
			q[k] = vs
		}
		u.RawQuery = q.Encode()
	}
	return u.String(), nil
}

// upstreamClient is the HTTP client of the tools that call HTTP APIs:
// safety.URLPolicy's, which refuses loopback, private and link-local
// addresses when the connection is made, redirects and DNS rebinding
// included, unless the operator allows them (-allow-private-upstreams), and
// drops the Authorization header on a redirect to another origin.
func upstreamClient(allowPrivate bool) *http.Client {
	return safety.URLPolicy{Schemes: []string{"https", "http"}, AllowPrivate: allowPrivate}.HTTPClient(httpTimeout)
}
