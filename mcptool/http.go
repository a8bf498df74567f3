package mcptool

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure [NewHTTPHandler]. The zero value serves both protocol
// eras with DNS-rebinding and cross-origin protection on.
type HTTPOptions struct {
	// Stateless serves every request without a session. 2026-07-28 clients
	// are always served statelessly; with Stateless set, 2025-era clients are
	// too, and then cannot be sent requests (sampling, elicitation, roots)
	// or notifications outside a request.
	Stateless bool
	// TrustedOrigins are the browser origins (scheme://host[:port]) allowed
	// to make cross-origin requests. Others get 403.
	TrustedOrigins []string
	// SessionTimeout closes 2025-era sessions idle this long. Default 30
	// minutes; negative means never.
	SessionTimeout time.Duration
	// Logger receives the transport's own logs. Default: none.
	Logger *slog.Logger
	// MaxRequestBodyBytes bounds a request body. Default 4 MiB.
	MaxRequestBodyBytes int64
	// EventStore keeps the events of 2025-era streams, so a client resumes
	// a dropped stream with Last-Event-ID. Default: in memory. Replicas use
	// a shared one (adapters/redis).
	EventStore mcp.EventStore
}

// NewHTTPHandler serves srv over the streamable HTTP transport on a single
// endpoint. Requests of the 2026-07-28 revision are served statelessly, as
// that revision requires; 2025-era clients get sessions (unless
// opts.Stateless), so tools can elicit and sample through them. Requests
// whose Host is not loopback are refused when the server listens on
// loopback (DNS-rebinding protection), and cross-origin browser requests are
// refused unless their origin is trusted.
func NewHTTPHandler(srv *mcp.Server, opts *HTTPOptions) http.Handler {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = 30 * time.Minute
	} else if o.SessionTimeout < 0 {
		o.SessionTimeout = 0
	}
	if o.MaxRequestBodyBytes == 0 {
		o.MaxRequestBodyBytes = 4 << 20
	}
	if o.EventStore == nil {
		o.EventStore = mcp.NewMemoryEventStore(nil)
	}
	get := func(*http.Request) *mcp.Server { return srv }
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		Logger:                       o.Logger,
		MaxRequestBodyBytes:          o.MaxRequestBodyBytes,
		PropagateRequestCancellation: true,
	})
	var h http.Handler = stateless
	if !o.Stateless {
		stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Logger:              o.Logger,
			SessionTimeout:      o.SessionTimeout,
			MaxRequestBodyBytes: o.MaxRequestBodyBytes,
			EventStore:          o.EventStore,
		})
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if statelessWire(r, o.MaxRequestBodyBytes) {
				stateless.ServeHTTP(w, r)
				return
			}
			stateful.ServeHTTP(w, r)
		})
	}
	cop := http.NewCrossOriginProtection()
	for _, origin := range o.TrustedOrigins {
		if err := cop.AddTrustedOrigin(origin); err != nil {
			panic("mcptool: TrustedOrigins: " + err.Error())
		}
	}
	return cop.Handler(h)
}

// statelessWire reports whether r belongs to the 2026-07-28 stateless wire:
// its protocol version header says so, or, without one, its body carries
// per-request protocol metadata.
func statelessWire(r *http.Request, limit int64) bool {
	if r.Header.Get("Mcp-Session-Id") != "" {
		return false
	}
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
		return v >= modernVersion || !isKnownVersion(v)
	}
	if r.Method != http.MethodPost {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method == "initialize" {
		return false
	}
	_, has := msg.Params.Meta[mcp.MetaKeyProtocolVersion]
	return has || msg.Method == "server/discover"
}

func isKnownVersion(v string) bool {
	for _, s := range mcp.SupportedProtocolVersions() {
		if s == v {
			return true
		}
	}
	return false
}
