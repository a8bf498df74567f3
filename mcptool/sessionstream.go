//lint:file-ignore SA1019 sampling and roots are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the 2025-era sessions this wire serves.

package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// sessionOwn is what the session wire keeps of one session (in
// sessionUse, guarded by its mu but for calls): the go-sdk session, the
// calls of this wire in flight by id (owncalls.go), and the requests sent
// on its streams waiting for the client's answer, by id.
type sessionOwn struct {
	mu    sync.Mutex
	ss    *mcp.ServerSession
	calls ownCalls
	asks  map[string]chan *jsonrpc.Response
	next  int64 // the last id given to a request of this wire
	ended bool  // the session is being closed: its streams end unanswered
}

// end marks the session as being closed (DELETE, eviction, idle): as on
// go-sdk's streams, nothing more is written on its streams, the responses
// of the calls it cancels included.
func (o *sessionOwn) end() {
	o.mu.Lock()
	o.ended = true
	o.mu.Unlock()
}

// answer delivers msg, the client's answer to a request sent on a stream
// of this wire, and answers its POST with 202 as go-sdk does; a response
// to anything else is go-sdk's.
func (o *sessionOwn) answer(w http.ResponseWriter, msg *wire.Message) bool {
	var key string
	if unmarshalString(msg.ID, &key) != nil {
		return false
	}
	o.mu.Lock()
	ch := o.asks[key]
	delete(o.asks, key)
	o.mu.Unlock()
	if ch == nil {
		return false
	}
	resp, err := jsonrpc.DecodeMessage(msg.Raw)
	r, ok := resp.(*jsonrpc.Response)
	if err != nil || !ok {
		r = &jsonrpc.Response{Error: &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "the client's answer does not decode"}}
	}
	ch <- r // buffered
	w.WriteHeader(http.StatusAccepted)
	return true
}

// streamKey is the context key of the stream a call of this wire writes
// on, for onStream.
type streamKey struct{}

// sessionStream is the stream one POST of this wire is answered on, as
// go-sdk writes one: SSE events, each stored in the EventStore first (a
// client that lost the stream reads the rest with Last-Event-ID, served by
// go-sdk from the store), the priming event first from 2025-11-25 on.
// Nothing is written to the response once it is answered (a task's work
// outlives it); the events still go to the store.
type sessionStream struct {
	mu       sync.Mutex
	w        http.ResponseWriter
	own      *sessionOwn
	store    mcp.EventStore
	session  string
	id       string
	idx      int
	done     bool
	encoders *sync.Pool  // of *encoder
	prime    *time.Timer // flushes the priming event unless an event does first
}

// primeDelay is how long the priming event may wait to be flushed with the
// stream's first message: a call answered sooner costs one write to the
// connection, not two.
const primeDelay = 20 * time.Millisecond

// open writes go-sdk's headers and, from 2025-11-25 on, the priming event.
func (s *sessionStream) open(ctx context.Context, version string) error {
	if err := s.store.Open(ctx, s.session, s.id); err != nil {
		return err
	}
	h := s.w.Header()
	h["Cache-Control"], h["Content-Type"], h["Connection"] = noCache, eventStream, keepAlive
	if version >= "2025-11-25" {
		if err := s.store.Append(ctx, s.session, s.id, nil); err != nil {
			return err
		}
		s.idx++
		s.event("prime", nil)
		s.prime = time.AfterFunc(primeDelay, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if !s.done {
				flushStream(s.w)
			}
		})
	}
	return nil
}

// write writes one event and flushes the stream; s.mu is held.
func (s *sessionStream) write(name string, data []byte) {
	s.stopPrime()
	s.event(name, data)
	flushStream(s.w)
}

// stopPrime stops the timer that flushes the priming event; s.mu is held.
func (s *sessionStream) stopPrime() {
	if s.prime != nil {
		s.prime.Stop()
		s.prime = nil
	}
}

// flushStream sends what w holds to the client.
func flushStream(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
		return
	}
	_ = http.NewResponseController(w).Flush()
}

// event writes one event, unflushed; s.mu is held or s not yet shared.
func (s *sessionStream) event(name string, data []byte) {
	e := s.encoders.Get().(*encoder)
	defer e.put(s.encoders)
	e.buf.WriteString("event: ")
	e.buf.WriteString(name)
	e.buf.WriteString("\nid: ")
	e.buf.WriteString(s.id)
	e.buf.WriteByte('_')
	e.buf.Write(strconv.AppendInt(e.buf.AvailableBuffer(), int64(s.idx), 10))
	e.buf.WriteString("\ndata: ")
	e.buf.Write(data)
	e.buf.WriteString("\n\n")
	_, _ = s.w.Write(e.buf.Bytes())
}

// send stores data, a message, and writes it as the stream's next event.
func (s *sessionStream) send(ctx context.Context, data []byte, last bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return errors.New("the request was answered")
	}
	s.own.mu.Lock()
	ended := s.own.ended
	s.own.mu.Unlock()
	if ended {
		s.done = true
		return errors.New("session is closed")
	}
	s.done = last
	if err := s.store.Append(ctx, s.session, s.id, data); err != nil {
		return err
	}
	s.idx++
	if last {
		// The answer ends the response: net/http sends it with whatever
		// is still buffered when the handler returns, in one write
		// (with a Content-Length when it is small) instead of a flush
		// and then the closing chunk.
		s.stopPrime()
		s.event("message", data)
		return nil
	}
	s.write("message", data)
	return nil
}

// close ends the stream when its HTTP response ends: nothing is written
// on it any more, the priming event's timer included.
func (s *sessionStream) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	s.stopPrime()
}

// reply writes the response to id.
func (s *sessionStream) reply(ctx context.Context, id jsonrpc.ID, res mcp.Result, err error) {
	e := s.encoders.Get().(*encoder)
	defer e.put(s.encoders)
	if encodeResponse(e, id, res, err, false) != nil {
		e.buf.Reset()
		_ = encodeResponse(e, id, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot encode the response"}, false)
	}
	_ = s.send(ctx, e.buf.Bytes(), true)
}

// onStream is sending middleware of a server built by Registry.Server,
// the innermost: what the session sends while a call of the session wire
// runs goes on that call's stream, after go-sdk and every middleware of
// the user's decided to send it. A request (elicitation, sampling, roots)
// gets an id of this wire's own and waits for the client's answer, which
// the client posts to the session (sessionOwn.answer).
func onStream(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		st, ok := ctx.Value(streamKey{}).(*sessionStream)
		if !ok {
			return next(ctx, method, req)
		}
		params, err := marshalWire(req.GetParams())
		if err != nil {
			return nil, err
		}
		result := answerTypes[method]
		if result == nil {
			if !strings.HasPrefix(method, "notifications/") {
				return next(ctx, method, req) // a request this wire does not know
			}
			data, err := jsonrpc.EncodeMessage(&jsonrpc.Request{Method: method, Params: params})
			if err != nil {
				return nil, err
			}
			return nil, st.send(ctx, data, false)
		}
		return st.ask(ctx, method, params, result())
	}
}

// answerTypes are the requests a server sends its client, and the result
// each decodes into, as go-sdk's session decodes them.
var answerTypes = map[string]func() mcp.Result{
	"elicitation/create":     func() mcp.Result { return new(mcp.ElicitResult) },
	"sampling/createMessage": func() mcp.Result { return new(mcp.CreateMessageWithToolsResult) },
	"roots/list":             func() mcp.Result { return new(mcp.ListRootsResult) },
}

// ask sends a request on the stream and waits for the client's answer.
func (s *sessionStream) ask(ctx context.Context, method string, params json.RawMessage, into mcp.Result) (mcp.Result, error) {
	o := s.own
	o.mu.Lock()
	o.next++
	key := "mcpgen-" + strconv.FormatInt(o.next, 10)
	ch := make(chan *jsonrpc.Response, 1)
	if o.asks == nil {
		o.asks = map[string]chan *jsonrpc.Response{}
	}
	o.asks[key] = ch
	o.mu.Unlock()
	forget := func() {
		o.mu.Lock()
		delete(o.asks, key)
		o.mu.Unlock()
	}
	id, _ := jsonrpc.MakeID(key)
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Request{ID: id, Method: method, Params: params})
	if err != nil {
		forget()
		return nil, err
	}
	if err := s.send(ctx, data, false); err != nil {
		forget()
		return nil, fmt.Errorf("%w: %v", errRejected, err)
	}
	select {
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	case resp := <-ch:
		if resp.Error != nil {
			return nil, resp.Error
		}
		if err := json.Unmarshal(resp.Result, into); err != nil {
			return nil, fmt.Errorf("decoding the client's answer to %s: %w", method, err)
		}
		return into, nil
	}
}

// errRejected is the error of a request that could not be sent.
var errRejected = errors.New("rejected")
