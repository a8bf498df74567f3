//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptest

import (
	"context"
	"net/http"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Option configures a [Client], and through it [Fuzz] and [FuzzF].
type Option func(*config)

// config is what the options set.
type config struct {
	version  string
	elicit   func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
	sample   func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	roots    []*mcp.Root
	copts    mcp.ClientOptions
	srv      *mcptool.Server
	http     bool
	httpOpts *mcptool.HTTPOptions
	header   http.Header
	cmd      *exec.Cmd
	timeout  time.Duration
	logLevel mcp.LoggingLevel
	leaks    bool
	tasks    bool
	seed     int64
}

// Defaults of the options.
const (
	// DefaultVersion is the protocol revision a client speaks unless
	// [Version] says otherwise.
	DefaultVersion = "2026-07-28"
	// DefaultTimeout bounds each request of a client (see [Timeout]).
	DefaultTimeout = 30 * time.Second
)

func newConfig(opts []Option) *config {
	c := &config{version: DefaultVersion, timeout: DefaultTimeout, logLevel: "debug", seed: 1}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Version sets the protocol revision the client asks for: "2026-07-28" (the
// default; every request stands alone, and elicitation and sampling are
// input-required round trips) or "2025-11-25" (initialize, then a session
// that carries requests from server to client).
func Version(v string) Option { return func(c *config) { c.version = v } }

// Elicit answers the server's elicitation requests with fn, on either
// protocol era. Without it the client declares no elicitation capability.
//
// The question of a tool marked [mcptool.Confirm] (tag mcp:"confirm") asks
// for a boolean "confirm": the tool runs on the answer
//
//	&mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}
//
// and on nothing else: a decline, a cancel or an accept without
// "confirm": true is refused at once, on both eras, with "the user did not
// confirm (<action>); <tool> was not run".
func Elicit(fn func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) Option {
	return func(c *config) { c.elicit = fn }
}

// Sample answers the server's sampling requests with fn, on either protocol
// era. Without it the client declares no sampling capability.
func Sample(fn func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)) Option {
	return func(c *config) { c.sample = fn }
}

// Roots sets the roots the client reports when the server lists them.
func Roots(roots ...*mcp.Root) Option {
	return func(c *config) { c.roots = append(c.roots, roots...) }
}

// ClientOptions starts the client from opts, for what the other options do
// not cover (capabilities, MultiRoundTrip, list-changed handlers, ...).
// [Elicit] and [Sample] take precedence over its handlers; its notification
// handlers run as well as the collection of progress and logs.
func ClientOptions(opts *mcp.ClientOptions) Option {
	return func(c *config) {
		if opts != nil {
			c.copts = *opts
		}
	}
}

// Server connects the client to srv instead of a server made from the
// registry: one built with reg.Server and your own mcp.ServerOptions, or a
// go-sdk server of yours, with prompts and resources, that a registry is
// mounted on (reg.Mount). Over [HTTP] it is served by srv.Handler. The
// registry argument of [Client] may then be nil.
func Server(srv *mcptool.Server) Option { return func(c *config) { c.srv = srv } }

// HTTP serves the server over streamable HTTP (its Handler with opts,
// nil for the defaults) on a loopback httptest server, and connects
// the client to it. The server is shut down when the test ends.
func HTTP(opts *mcptool.HTTPOptions) Option {
	return func(c *config) { c.http, c.httpOpts = true, opts }
}

// Header sends h with every HTTP request of the client (see [HTTP]): a
// bearer token for the server's TokenVerifier, or a header tools read in
// mcptool.Request(ctx).Extra.Header (which never holds Authorization,
// Cookie or Proxy-Authorization: tools see the verified caller,
// mcptool.Caller).
func Header(h http.Header) Option { return func(c *config) { c.header = h } }

// Command runs cmd and talks to it over its stdin and stdout: the program's
// own server, as a client would launch it. The registry argument of [Client]
// is not used and may be nil. Set cmd.Stderr to see the program's logs. See
// [Binary] to build the program first.
func Command(cmd *exec.Cmd) Option { return func(c *config) { c.cmd = cmd } }

// Timeout bounds connecting and each call of the client. Default
// [DefaultTimeout].
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// LogLevel sets the level from which the server's log records reach the
// client (see [Conn.Logs]): with logging/setLevel on a 2025-era session, in
// each request's _meta on 2026-07-28. Default "debug"; "" asks for none.
func LogLevel(level mcp.LoggingLevel) Option { return func(c *config) { c.logLevel = level } }

// CheckLeaks makes the client, when the test ends and everything it started
// is closed, fail the test if goroutines started since the client was made
// are still running (tool goroutines that outlive their call, a server
// session that never ends). Do not combine it with t.Parallel: other tests'
// goroutines would count.
func CheckLeaks() Option { return func(c *config) { c.leaks = true } }

// Seed sets the seed of [Fuzz]'s random choices. The same seed and schema
// give the same documents. Default 1.
func Seed(seed int64) Option { return func(c *config) { c.seed = seed } }
