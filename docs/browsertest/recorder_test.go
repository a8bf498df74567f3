package browsertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
)

// exchange is one HTTP exchange that reached the MCP server.
type exchange struct {
	method, path string
	rpc, tool    string // the JSON-RPC method and, for tools/call, the tool
	status       int
	challenge    string // WWW-Authenticate
	bearer       bool   // the request carried a bearer token
}

// recorder is a reverse proxy in front of the MCP server that records what
// reaches it.
type recorder struct {
	mu        sync.Mutex
	exchanges []exchange
}

func (rec *recorder) handler(target *url.URL) http.Handler {
	proxy := httputil.NewSingleHostReverseProxy(target)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ex := exchange{method: r.Method, path: r.URL.Path, bearer: strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ")}
		if r.Body != nil {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var msg struct {
				Method string `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			if json.Unmarshal(body, &msg) == nil {
				ex.rpc, ex.tool = msg.Method, msg.Params.Name
			}
		}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		proxy.ServeHTTP(sw, r)
		ex.status, ex.challenge = sw.status, sw.Header().Get("WWW-Authenticate")
		rec.mu.Lock()
		rec.exchanges = append(rec.exchanges, ex)
		rec.mu.Unlock()
	})
}

// take returns the exchanges recorded since the last take.
func (rec *recorder) take() []exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	ex := rec.exchanges
	rec.exchanges = nil
	return ex
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
