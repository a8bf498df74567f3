package mcptool

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"time"
)

// uncountedBody is the largest body (with a Content-Length) that
// MaxBodyBytesInFlight does not count.
const uncountedBody = 64 << 10

// bodyStall bounds how long a body waits for room in MaxBodyBytesInFlight
// for its next bytes before it gets 503. Bodies hold what they have
// received while they wait: without a bound, large bodies that arrived in
// part together could each wait for the others until BodyReadTimeout.
const bodyStall = time.Second

// bodyChunk is the most read, and counted against MaxBodyBytesInFlight, at
// once.
const bodyChunk = 32 << 10

// readBody reads r's body once, within BodyReadTimeout and
// MaxRequestBodyBytes, counting it against MaxBodyBytesInFlight as its
// bytes arrive: a body holds the budget it has sent, never what it declared,
// so clients that trickle large bodies cannot starve the others. Reading
// waits for room in the budget up to bodyStall at a time, and within the
// body's deadline (then 503). release
// gives the body's share back once its request is served. It answers r
// itself when ok is false.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	bound := h.o.maxRequestBodyBytes
	if r.ContentLength > bound && bound > 0 {
		refuse(w, http.StatusRequestEntityTooLarge, "request body too large", "declared body larger than MaxRequestBodyBytes")
		return nil, nil, false
	}
	ctx := r.Context()
	var clear func()
	if h.o.bodyReadTimeout > 0 {
		deadline := time.Now().Add(h.o.bodyReadTimeout)
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(deadline) == nil {
			clear = func() { _ = rc.SetReadDeadline(time.Time{}) }
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	rd := io.Reader(r.Body)
	if bound > 0 {
		rd = http.MaxBytesReader(w, r.Body, bound)
	}
	var held int64
	release = func() {
		if held > 0 {
			h.bodies.Release(held)
			held = 0
		}
	}
	counted := h.bodies != nil && (r.ContentLength < 0 || r.ContentLength > uncountedBody)
	// What a body may be: its declared length, else the bound (negative:
	// none).
	limit := r.ContentLength
	if limit < 0 {
		limit = bound
	}
	chunk := bodyChunk
	if counted {
		chunk = int(min(int64(bodyChunk), h.o.maxBodyBytesInFlight))
		first := int64(uncountedBody)
		if limit >= 0 {
			first = min(limit, first)
		}
		body = make([]byte, 0, first) // grown as bytes arrive
	} else if r.ContentLength >= 0 {
		body = make([]byte, 0, r.ContentLength) // small: one allocation
	}
	var err error
	waited := false // for room in the budget: a deadline missed then is ours
	for {
		if len(body) == cap(body) {
			if limit >= 0 && int64(len(body)) >= limit {
				// All that was declared: one more read finds the end (or
				// MaxBytesReader's error).
				var one [1]byte
				var n int
				n, err = rd.Read(one[:])
				if n > 0 {
					err = errors.New("body longer than declared")
				}
				break
			}
			grow := max(4*cap(body), uncountedBody)
			if limit >= 0 {
				grow = min(grow, int(limit))
			}
			nb := make([]byte, len(body), grow)
			copy(nb, body)
			body = nb
		}
		var n int
		n, err = rd.Read(body[len(body):min(cap(body), len(body)+chunk)])
		if n > 0 && counted {
			if !h.bodies.TryAcquire(int64(n)) {
				waited = true
				if err := h.acquireBody(ctx, int64(n)); err != nil {
					release()
					if r.Context().Err() == nil {
						busy(w)
					}
					return nil, nil, false
				}
			}
			held += int64(n)
		}
		body = body[:len(body)+n]
		if err != nil {
			break
		}
	}
	if errors.Is(err, io.EOF) {
		err = nil
		if r.ContentLength >= 0 && int64(len(body)) != r.ContentLength {
			err = io.ErrUnexpectedEOF
		}
	}
	if err != nil {
		release()
		// The connection is not reused, and the deadline stays: net/http
		// would otherwise read the rest of the body first.
		w.Header().Set("Connection", "close")
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			refuse(w, http.StatusRequestEntityTooLarge, "request body too large", "body larger than MaxRequestBodyBytes")
		case errors.Is(err, os.ErrDeadlineExceeded) && waited:
			busy(w)
		case errors.Is(err, os.ErrDeadlineExceeded):
			refuse(w, http.StatusRequestTimeout, "request body not received in time", "body not received within BodyReadTimeout")
		default:
			http.Error(w, "reading the request body failed", http.StatusBadRequest)
		}
		return nil, nil, false
	}
	if clear != nil {
		clear()
	}
	if h.bodies == nil {
		release = func() {}
	}
	return body, release, true
}

// acquireBody waits up to bodyStall (and ctx) for n bytes of room.
func (h *httpHandler) acquireBody(ctx context.Context, n int64) error {
	ctx, cancel := context.WithTimeout(ctx, bodyStall)
	defer cancel()
	return h.bodies.Acquire(ctx, n)
}

// busy refuses a body that found no room in MaxBodyBytesInFlight in time.
func busy(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	w.Header().Set("Retry-After", "1")
	refuse(w, http.StatusServiceUnavailable, "server busy: too many request bodies in flight", "MaxBodyBytesInFlight reached")
}
