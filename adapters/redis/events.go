package mcpredis

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
)

// EventStore keeps the events of 2025-era SSE streams in Redis, so a client
// that lost its stream resumes it with Last-Event-ID. It implements go-sdk's
// mcp.EventStore; give it to mcptool.Server.Handler with
// mcptool.HTTPOptions.EventStore, or take [Cluster.HTTPOptions].
//
// Each stream is a Redis list plus the index of its first kept event. A
// stream keeps its last [Options.MaxEvents] events; resuming from before
// them fails with mcp.ErrEventsPurged, as the interface requires. Streams
// expire [Options.EventTTL] after their last event, and with
// SessionClosed.
type EventStore struct {
	rdb       redis.UniversalClient
	prefix    string
	ttl       time.Duration
	maxEvents int
}

func (s *EventStore) keys(sessionID, streamID string) (list, first, streams string) {
	// One hash tag per session: its keys share a Redis Cluster slot.
	base := s.prefix + "ev:{" + sessionID + "}"
	return base + ":" + streamID + ":data", base + ":" + streamID + ":first", base + ":streams"
}

// Open records the stream, so that After knows it.
func (s *EventStore) Open(ctx context.Context, sessionID, streamID string) error {
	_, first, streams := s.keys(sessionID, streamID)
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, first, 0, s.ttl)
		p.SAdd(ctx, streams, streamID)
		p.Expire(ctx, streams, s.ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("mcpredis: open stream: %w", err)
	}
	return nil
}

var appendEvent = redis.NewScript(`
redis.call("RPUSH", KEYS[1], ARGV[1])
local over = redis.call("LLEN", KEYS[1]) - tonumber(ARGV[2])
if over > 0 then
  redis.call("LTRIM", KEYS[1], over, -1)
  redis.call("INCRBY", KEYS[2], over)
else
  redis.call("SETNX", KEYS[2], 0)
end
redis.call("PEXPIRE", KEYS[1], ARGV[3])
redis.call("PEXPIRE", KEYS[2], ARGV[3])
redis.call("PEXPIRE", KEYS[3], ARGV[3])
return 1
`)

// Append adds one event to the stream.
func (s *EventStore) Append(ctx context.Context, sessionID, streamID string, data []byte) error {
	list, first, streams := s.keys(sessionID, streamID)
	if err := appendEvent.Run(ctx, s.rdb, []string{list, first, streams}, data, s.maxEvents, s.ttl.Milliseconds()).Err(); err != nil {
		return fmt.Errorf("mcpredis: append event: %w", err)
	}
	return nil
}

// after returns the first kept index (-1: unknown stream) and the events
// from index ARGV[1] on.
var afterEvents = redis.NewScript(`
local first = redis.call("GET", KEYS[2])
if not first then return {-1} end
first = tonumber(first)
local start = tonumber(ARGV[1]) - first
if start < 0 then return {first} end
local out = redis.call("LRANGE", KEYS[1], start, -1)
table.insert(out, 1, first)
return out
`)

// After yields the events of the stream after index.
func (s *EventStore) After(ctx context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		list, first, _ := s.keys(sessionID, streamID)
		res, err := afterEvents.Run(ctx, s.rdb, []string{list, first}, index+1).Slice()
		if err != nil {
			yield(nil, fmt.Errorf("mcpredis: read events: %w", err))
			return
		}
		f, _ := res[0].(int64)
		switch {
		case f < 0:
			yield(nil, fmt.Errorf("mcpredis: unknown stream %q of session %q", streamID, sessionID))
			return
		case len(res) == 1 && int64(index+1) < f:
			yield(nil, fmt.Errorf("mcpredis: index %d of stream %q: %w", index, streamID, mcp.ErrEventsPurged))
			return
		}
		for _, v := range res[1:] {
			d, ok := v.(string)
			if !ok {
				yield(nil, errors.New("mcpredis: malformed event"))
				return
			}
			if !yield([]byte(d), nil) {
				return
			}
		}
	}
}

// SessionClosed deletes the session's streams.
func (s *EventStore) SessionClosed(ctx context.Context, sessionID string) error {
	_, _, streams := s.keys(sessionID, "")
	ids, err := s.rdb.SMembers(ctx, streams).Result()
	if err != nil {
		return fmt.Errorf("mcpredis: close session: %w", err)
	}
	del := []string{streams}
	for _, id := range ids {
		list, first, _ := s.keys(sessionID, id)
		del = append(del, list, first)
	}
	if err := s.rdb.Del(ctx, del...).Err(); err != nil {
		return fmt.Errorf("mcpredis: close session: %w", err)
	}
	return nil
}

var _ mcp.EventStore = (*EventStore)(nil)
