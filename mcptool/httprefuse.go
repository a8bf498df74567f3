package mcptool

import (
	"log/slog"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// refusalLog logs every request the HTTP handler refuses (403, 408, 413,
// 503), whoever refused it (the handler itself, cross-origin protection,
// go-sdk's Host check): the status, the reason, the remote address, the
// method and path — never the body.
type refusalLog struct {
	next http.Handler
	log  *slog.Logger
}

func (l refusalLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rw := &refusalWriter{statusWriter: statusWriter{ResponseWriter: w}}
	rw.before = func() {
		if !refusedStatus(rw.code) {
			return
		}
		reason := rw.reason
		if reason == "" {
			reason = http.StatusText(rw.code)
		}
		l.log.WarnContext(r.Context(), "mcptool: HTTP request refused", "status", rw.code, "reason", reason,
			"remote", r.RemoteAddr, "method", r.Method, "path", r.URL.Path)
	}
	l.next.ServeHTTP(rw, r)
}

func refusedStatus(code int) bool {
	switch code {
	case http.StatusForbidden, http.StatusRequestTimeout, http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable:
		return true
	}
	return false
}

// refusalWriter is the response writer of refusalLog: a statusWriter with
// the reason of a refusal, when the handler gave one.
type refusalWriter struct {
	statusWriter
	reason string
}

// refuse answers r with code and text; reason (text when empty) goes to the
// log of refusals.
func refuse(w http.ResponseWriter, code int, text, reason string) {
	if rw, ok := w.(*refusalWriter); ok {
		if reason == "" {
			reason = text
		}
		rw.reason = reason
	}
	http.Error(w, text, code)
}

// refuseParse answers a body that is not one JSON value — invalid JSON, or
// a message followed by anything but white space — with 400 and a JSON-RPC
// parse error (id null), as StdioTransport answers such a line. Nothing
// else reads it: go-sdk's decoder stops after the first value, so a body
// with bytes after its message would be served as that message, though
// the scan that routes and authorizes it found none.
func refuseParse(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(errorMessage(nil, jsonrpc.CodeParseError, "parse error: "+err.Error()))
}

// statusWriter records the status code of a response, and calls before
// (when set) once, just before the header is sent.
type statusWriter struct {
	http.ResponseWriter
	before func()
	once   sync.Once
	code   int
}

func (w *statusWriter) header(code int) {
	w.once.Do(func() {
		w.code = code
		if w.before != nil {
			w.before()
		}
	})
}

func (w *statusWriter) WriteHeader(code int) {
	w.header(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	w.header(http.StatusOK)
	return w.ResponseWriter.Write(p)
}

// Flush sends the header too: http.ResponseController would otherwise
// flush the writer underneath, past before.
func (w *statusWriter) Flush() {
	w.header(http.StatusOK)
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// refuseBusy refuses a body that found no room in MaxBodyBytesInFlight in time.
func refuseBusy(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	w.Header().Set("Retry-After", "1")
	refuse(w, http.StatusServiceUnavailable, "server busy: too many request bodies in flight", "MaxBodyBytesInFlight reached")
}
