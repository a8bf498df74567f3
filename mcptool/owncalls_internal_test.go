package mcptool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
)

// One table of a session's own calls: a second call of an id in flight is
// refused; notifications/cancelled's requestId is read as go-sdk reads an
// id (7.0 is 7, "7" is not); a call answered can no longer be cancelled,
// and its id is free again.
func TestOwnCalls(t *testing.T) {
	var calls ownCalls
	id, _ := jsonrpc.MakeID(float64(7))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	assert.True(t, calls.start(id, cancel))
	assert.False(t, calls.start(id, func() { t.Error("a duplicate's cancel was recorded") }))

	calls.cancel(json.RawMessage(`"7"`))
	calls.cancel(json.RawMessage(`{}`))
	assert.NoError(t, ctx.Err(), "another id's cancel")
	calls.cancel(json.RawMessage(`7.0`))
	assert.Error(t, ctx.Err())

	calls.done(id)
	assert.True(t, calls.start(id, func() { t.Error("cancelled after done") }))
	calls.done(id)
	calls.cancel(json.RawMessage(`7`))
}
