package mcptool

import (
	"log/slog"
	"net/http"
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
