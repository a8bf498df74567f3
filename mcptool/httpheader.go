package mcptool

import (
	"mime"
	"net/http"
	"strings"
)

// The headers of HTTP responses and requests both HTTP wires read and
// write: content types, Accept, the SSE stream's headers.

// sdkMaxDepth is the nesting go-sdk v1.8.0 refuses a body beyond, as
// malformed (its internal/json's defaultMaxDepth).
const sdkMaxDepth = 1000

// jsonContent reports whether a request's Content-Type is JSON, as
// go-sdk's handler requires of a POST.
func jsonContent(hd http.Header) bool {
	ct := hd.Get("Content-Type")
	if ct == "application/json" {
		return true // the common case, without parsing
	}
	ct, _, err := mime.ParseMediaType(ct)
	return err == nil && ct == "application/json"
}

// acceptsBoth reports whether an Accept header takes both JSON and SSE, as
// go-sdk's handler requires.
func acceptsBoth(values []string) bool {
	jsonOK, streamOK := false, false
	for _, value := range values {
		for more := true; more; {
			var raw string
			raw, value, more = strings.Cut(value, ",")
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// The headers of go-sdk's event streams, shared by every response (net/http
// only reads them).
var (
	noCache     = []string{"no-cache, no-transform"}
	eventStream = []string{"text/event-stream"}
	keepAlive   = []string{"keep-alive"}
)
