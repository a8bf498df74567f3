package mcptool

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ownCalls is the table of the calls one client's session has running on
// a wire of mcpgen's own (stdioConn.own, sessionOwn.calls), by their
// JSON-RPC id: what a notifications/cancelled names, and what a call of
// the same id finds in flight. The zero value is empty and ready.
type ownCalls struct {
	mu    sync.Mutex
	calls map[jsonrpc.ID]context.CancelFunc
}

// start records the call id, which cancel ends; it reports false, and
// records nothing, when a call of that id is in flight already.
func (o *ownCalls) start(id jsonrpc.ID, cancel context.CancelFunc) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, dup := o.calls[id]; dup {
		return false
	}
	if o.calls == nil {
		o.calls = map[jsonrpc.ID]context.CancelFunc{}
	}
	o.calls[id] = cancel
	return true
}

// done forgets the call id once it is answered: a cancel naming it from
// then on finds nothing, and its id may be used again.
func (o *ownCalls) done(id jsonrpc.ID) {
	o.mu.Lock()
	delete(o.calls, id)
	o.mu.Unlock()
}

// cancel cancels the call whose id is requestID (the param of
// notifications/cancelled, as go-sdk decodes an id), if one is in flight.
func (o *ownCalls) cancel(requestID json.RawMessage) {
	id, ok := messageID(requestID)
	if !ok {
		return
	}
	o.mu.Lock()
	cancel := o.calls[id]
	o.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}
