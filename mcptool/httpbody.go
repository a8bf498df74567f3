package mcptool

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
	syncsem "golang.org/x/sync/semaphore"
)

// uncountedBody is the largest body (with a Content-Length) that
// MaxBodyBytesInFlight does not count as it arrives.
const uncountedBody = 64 << 10

// uncountedCharge is the largest decoding charge (wire.Cost.Charge) that
// MaxBodyBytesInFlight does not count: a small call never waits for room.
const uncountedCharge = 2 << 20

// bodyStall bounds how long a body waits for room in MaxBodyBytesInFlight
// for its next bytes before it gets 503. Bodies hold what they have
// received while they wait: without a bound, large bodies that arrived in
// part together could each wait for the others until BodyReadTimeout.
const bodyStall = time.Second

// bodyChunk is the most read, and counted against MaxBodyBytesInFlight, at
// once.
const bodyChunk = 32 << 10

// bodyGate is what reads a handler's POST bodies: the options that bound
// them, and MaxBodyBytesInFlight's budget.
type bodyGate struct {
	o      *httpConfig
	reg    *Registry   // whose tools a batch's calls may list; nil: none
	budget *bodyBudget // nil: MaxBodyBytesInFlight off
}

// read reads r's body once, within BodyReadTimeout and
// MaxRequestBodyBytes, counting it against MaxBodyBytesInFlight; scans it
// (wire.Scan: a body beyond MaxBodyValues or MaxBodyDepth gets 413), and
// accounts for what decoding it will cost before anything decodes it. The
// budget has two parts (bodyBudget): while it arrives, a body holds what
// it has sent in the first (a sixteenth), never what it declared, so
// clients that trickle large bodies cannot starve the others; once whole,
// it also takes what decoding it costs, counted by its structure
// (wire.Cost.Charge), from the second (the rest), until its request is
// answered; received bodies wait for that room in the order they were
// received, within the body's deadline. Each charge is at most its whole
// part, so that any body fits alone. Reading waits for room up to
// bodyStall at a time, and within the body's deadline (then 503). A body
// that is not one JSON value (invalid, or with anything but white space
// after it) gets 400 with a JSON-RPC parse error (refuseParse), a batch of
// more than maxBatch messages 413; each call of a batch is charged for its
// answer too (batchCharge). msg is what the scan found. hold.release gives
// the body's share back once its request is served. It answers r itself
// when ok is false.
func (g *bodyGate) read(w http.ResponseWriter, r *http.Request) (body []byte, msg wire.Body, hold bodyHold, ok bool) {
	bound := g.o.maxRequestBodyBytes
	if r.ContentLength > bound && bound > 0 {
		refuse(w, http.StatusRequestEntityTooLarge, "request body too large", "declared body larger than MaxRequestBodyBytes")
		return nil, wire.Body{}, bodyHold{}, false
	}
	var clear func()
	var deadline time.Time
	if g.o.bodyReadTimeout > 0 {
		deadline = time.Now().Add(g.o.bodyReadTimeout)
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(deadline) == nil {
			clear = func() { _ = rc.SetReadDeadline(time.Time{}) }
		}
	}
	// waitCtx is r's context within the body's deadline, for a wait for
	// room in the budget: made only when a body waits.
	waitCtx := func() (context.Context, context.CancelFunc) {
		if deadline.IsZero() {
			return r.Context(), func() {}
		}
		return context.WithDeadline(r.Context(), deadline)
	}
	rd := io.Reader(r.Body)
	if bound > 0 && r.ContentLength < 0 {
		// A declared length (at most bound) already ends the body.
		rd = http.MaxBytesReader(w, r.Body, bound)
	}
	hold.budget = g.budget
	counted := g.budget != nil && (r.ContentLength < 0 || r.ContentLength > uncountedBody)
	// What a body may be: its declared length, else the bound (negative:
	// none).
	limit := r.ContentLength
	if limit < 0 {
		limit = bound
	}
	chunk := bodyChunk
	if counted {
		declared := limit
		if declared < 0 {
			declared = g.budget.arrivingMax
		}
		var err error
		ctx, cancel := waitCtx()
		hold.entered, err = g.budget.enter(ctx, declared)
		cancel()
		if err != nil {
			if r.Context().Err() == nil {
				refuseBusy(w)
			}
			return nil, wire.Body{}, bodyHold{}, false
		}
		chunk = int(min(int64(bodyChunk), g.budget.arrivingMax))
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
			grow := max(2*cap(body), uncountedBody) // at most twice what was received and counted
			if limit >= 0 {
				grow = min(grow, int(limit))
			}
			nb := make([]byte, len(body), grow)
			copy(nb, body)
			body = nb
		}
		var n int
		n, err = rd.Read(body[len(body):min(cap(body), len(body)+chunk)])
		if charge := min(int64(n), g.budget.arrivingMax-hold.held); n > 0 && counted && charge > 0 {
			if !g.budget.arriving.TryAcquire(charge) {
				waited = true
				ctx, cancel := waitCtx()
				err := acquireBody(ctx, g.budget.arriving, charge)
				cancel()
				if err != nil {
					hold.release()
					if r.Context().Err() == nil {
						refuseBusy(w)
					}
					return nil, wire.Body{}, bodyHold{}, false
				}
			}
			hold.held += charge
		}
		if n > 0 && counted {
			g.budget.received(hold.entered, int64(n))
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
		hold.release()
		// The connection is not reused, and the deadline stays: net/http
		// would otherwise read the rest of the body first.
		w.Header().Set("Connection", "close")
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			refuse(w, http.StatusRequestEntityTooLarge, "request body too large", "body larger than MaxRequestBodyBytes")
		case errors.Is(err, os.ErrDeadlineExceeded) && waited:
			refuseBusy(w)
		case errors.Is(err, os.ErrDeadlineExceeded):
			refuse(w, http.StatusRequestTimeout, "request body not received in time", "body not received within BodyReadTimeout")
		default:
			http.Error(w, "reading the request body failed", http.StatusBadRequest)
		}
		return nil, wire.Body{}, bodyHold{}, false
	}
	if clear != nil {
		clear() // before waiting below: net/http would cancel r past it
	}
	lim := g.o.bodyLimits
	lim.MaxBatch = maxBatch
	msg, err = wire.Scan(body, lim)
	if err != nil {
		hold.release()
		// le only here: errors.As moves it to the heap, on every request
		// were it declared outside.
		var le *wire.LimitError
		if errors.As(err, &le) {
			refuse(w, http.StatusRequestEntityTooLarge, le.Error(), "")
		} else {
			refuseParse(w, err)
		}
		return nil, wire.Body{}, bodyHold{}, false
	}
	if charge := msg.Cost.Charge() + batchCharge(g.tools(), &msg); g.budget != nil && charge > uncountedCharge {
		// What decoding the body, and answering a batch's calls
		// (httpbatch.go), will cost, before anything decodes it: the
		// received bodies wait their turn, in order, within the body's
		// deadline; the room they held while arriving is then free for
		// others to arrive (the charge covers the body itself).
		charge = min(charge, g.budget.decodingMax)
		ctx, cancel := waitCtx()
		err := g.budget.decoding.Acquire(ctx, charge)
		cancel()
		if err != nil {
			hold.release()
			if r.Context().Err() == nil {
				refuseBusy(w)
			}
			return nil, wire.Body{}, bodyHold{}, false
		}
		hold.decoding = charge
	}
	if hold.entered != nil {
		g.budget.leave(hold.entered)
		hold.entered = nil
	}
	if hold.held > 0 {
		g.budget.arriving.Release(hold.held)
		hold.held = 0
	}
	return body, msg, hold, true
}

// tools is the set a batch's calls may list, nil without a registry.
func (g *bodyGate) tools() *toolSet {
	if g.reg == nil {
		return nil
	}
	return g.reg.snapshot()
}

// bodyHold is what a body holds of the budget until its request is served.
type bodyHold struct {
	budget   *bodyBudget
	held     int64     // of the room for bodies arriving
	decoding int64     // of the room for bodies being decoded
	entered  *entering // among the bodies arriving
}

// release gives the body's share back.
func (b *bodyHold) release() {
	if b.entered != nil {
		b.budget.leave(b.entered)
		b.entered = nil
	}
	if b.held > 0 {
		b.budget.arriving.Release(b.held)
		b.held = 0
	}
	if b.decoding > 0 {
		b.budget.releaseDecoding(b.decoding)
		b.decoding = 0
	}
}

// bodyBudget is MaxBodyBytesInFlight: a sixteenth for the bodies arriving
// (counted as their bytes arrive), the rest for the bodies being decoded
// and served (each counted at what decoding it costs, wire.Cost.Charge).
type bodyBudget struct {
	arriving, decoding       *syncsem.Weighted
	arrivingMax, decodingMax int64

	// Which bodies may start arriving (enter). Without it, large bodies
	// that arrive together each take a part of the room and wait for
	// more, and none completes before their waits run out.
	mu      sync.Mutex
	in      map[*entering]struct{} // arriving, until decoding starts
	waiting map[*entering]struct{} // waiting to start
}

// entering is a body in bodyBudget's admission.
type entering struct {
	declared, got int64 // its size (at most arrivingMax), what has arrived
	since         time.Time
}

// admitYoung is how long a body entering counts at its declared size;
// after that it counts what it has sent: a body that trickles stops
// holding others back.
const admitYoung = bodyStall / 2

// admitPoll is how often a body waiting to enter looks again.
const admitPoll = 5 * time.Millisecond

// enter waits, up to bodyStall (and ctx), until a body of the declared
// size may start arriving: when the bodies arriving leave room for it
// (counting each young one at its declared size, the others at what they
// sent), or none arrives. Of the bodies waiting, the smallest goes first.
func (b *bodyBudget) enter(ctx context.Context, declared int64) (*entering, error) {
	e := &entering{declared: min(declared, b.arrivingMax), since: time.Now()}
	ctx, cancel := context.WithTimeout(ctx, bodyStall)
	defer cancel()
	b.mu.Lock()
	b.waiting[e] = struct{}{}
	b.mu.Unlock()
	for {
		b.mu.Lock()
		if b.admits(e) {
			delete(b.waiting, e)
			e.since = time.Now()
			b.in[e] = struct{}{}
			b.mu.Unlock()
			return e, nil
		}
		b.mu.Unlock()
		select {
		case <-ctx.Done():
			b.mu.Lock()
			delete(b.waiting, e)
			b.mu.Unlock()
			return nil, ctx.Err()
		case <-time.After(admitPoll):
		}
	}
}

// admits reports whether e may enter now; b.mu is held.
func (b *bodyBudget) admits(e *entering) bool {
	for o := range b.waiting {
		if o != e && (o.declared < e.declared || o.declared == e.declared && o.since.Before(e.since)) {
			return false // a smaller (or earlier) body first
		}
	}
	if len(b.in) == 0 {
		return true
	}
	now := time.Now()
	var sum int64
	for o := range b.in {
		if now.Sub(o.since) < admitYoung {
			sum += max(o.declared, o.got)
		} else {
			sum += o.got
		}
	}
	return sum+e.declared <= b.arrivingMax
}

// received notes n more bytes of e.
func (b *bodyBudget) received(e *entering, n int64) {
	b.mu.Lock()
	e.got += n
	b.mu.Unlock()
}

// leave takes e out of the admission.
func (b *bodyBudget) leave(e *entering) {
	b.mu.Lock()
	delete(b.in, e)
	b.mu.Unlock()
}

func newBodyBudget(n int64) *bodyBudget {
	a := max(n/16, 1)
	d := max(n-a, 1)
	return &bodyBudget{
		arriving: syncsem.NewWeighted(a), decoding: syncsem.NewWeighted(d), arrivingMax: a, decodingMax: d,
		in: map[*entering]struct{}{}, waiting: map[*entering]struct{}{},
	}
}

// releaseDecoding gives back n bytes of decoding room.
func (b *bodyBudget) releaseDecoding(n int64) { b.decoding.Release(n) }

// acquireBody waits up to bodyStall (and ctx) for n bytes of room in sem.
func acquireBody(ctx context.Context, sem *syncsem.Weighted, n int64) error {
	ctx, cancel := context.WithTimeout(ctx, bodyStall)
	defer cancel()
	return sem.Acquire(ctx, n)
}

// bodyReader hands a body already read to go-sdk, and lets it go once read.
type bodyReader struct{ b []byte }

func (r *bodyReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		r.b = nil
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func (r *bodyReader) Close() error { r.b = nil; return nil }

// envelope is what the handler needs of a POST body to route it to go-sdk:
// whether it carries calls, and whether it belongs to the 2026-07-28 wire.
type envelope struct {
	method string // of a single message
	name   string // the tool a single tools/call names: Mcp-Name, else params.name
	args   []byte // its arguments as in the body (a discovery proxy's name its tool)
	meta   bool   // a single message with per-request protocol metadata
	task   bool   // a single tools/call with the 2025-11-25 task param
	calls  bool   // requests (with an id), whose client may go away before their answer
}

// envelopeOf is what b carries. A message that is not JSON-RPC 2.0
// carries nothing: go-sdk refuses it whole.
func envelopeOf(r *http.Request, b *wire.Body) envelope {
	var env envelope
	if len(b.Messages) == 1 && !b.Batch && b.Messages[0].Version2() {
		m := &b.Messages[0]
		env.method = m.Method
		env.meta = m.MetaValue(mcp.MetaKeyProtocolVersion) != nil
		if m.Method == "tools/call" {
			env.task = m.Param("task") != nil
			if env.name = r.Header.Get("Mcp-Name"); env.name == "" {
				// A variable of this branch: taking env's address would
				// move every request's envelope to the heap.
				var name string
				_ = unmarshalString(m.Param("name"), &name)
				env.name = name
			}
			env.args = m.Param("arguments")
		}
	}
	for _, m := range b.Messages {
		if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			env.calls = true
			break
		}
	}
	return env
}
