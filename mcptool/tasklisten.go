package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// notifications/tasks through subscriptions/listen (the tasks extension on
// the 2026-07-28 revision). go-sdk v1.8.0 serves subscriptions/listen but
// decodes its filter into a fixed struct without taskIds, and can send only
// the notifications it knows. So [Server.Handler], which reads every body
// once anyway, hands the taskIds of a listen request and a writer on its
// event stream to the receiving middleware through the request's context,
// and [StdioTransport] hands over the taskIds in the request's _meta
// (takeListen), its notifications coming back to it wrapped
// (sdkpatch.Notify); the middleware then serves the listen instead of go-sdk: the
// acknowledgement, a notifications/tasks for each change of a watched task
// (read through the store's Watch, so from any replica), and the graceful
// result once every watched task is terminal or gone.

const (
	notificationSubsAck = "notifications/subscriptions/acknowledged"
	notificationTasks   = "notifications/tasks"
	// maxListenTasks bounds the task IDs of one listen request.
	maxListenTasks = 100
	// listenRetry is how soon a listen reads a task again after the store
	// failed to answer.
	listenRetry = time.Second
)

// listenStream is the part of a subscriptions/listen request that go-sdk
// does not keep: its JSON-RPC id, its notifications.taskIds, and where its
// notifications go (the HTTP response it streams on, or the stdio
// connection it came on).
type listenStream struct {
	id      json.RawMessage
	taskIDs json.RawMessage
	write   func(msg []byte) error // one JSON-RPC notification

	mu   sync.Mutex
	done bool          // the stream is no longer ours to write
	gone chan struct{} // closed with done
}

func newListenStream(id, taskIDs json.RawMessage, write func([]byte) error) *listenStream {
	return &listenStream{id: id, taskIDs: taskIDs, write: write, gone: make(chan struct{})}
}

type listenKey struct{}

// listenMetaKey is the _meta key under which StdioTransport hands the task
// middleware what go-sdk would drop of a subscriptions/listen naming
// taskIds (stdioListen): stdio has no request context to carry it.
const listenMetaKey = "io.mcpgen/listen"

// stdioListen is what StdioTransport hands over of a listen.
type stdioListen struct {
	Token   string          `json:"token"` // under which its notifications go back (sdkpatch.Notify)
	ID      json.RawMessage `json:"id"`
	TaskIDs json.RawMessage `json:"taskIds"`
}

// takeListen returns the listen stream StdioTransport handed over in lr's
// _meta, if any: its notifications go through lr's session, wrapped for
// the transport (sdkpatch.Notify). Only a stdio session has one.
func takeListen(ctx context.Context, lr *mcp.SubscriptionsListenRequest) (*listenStream, bool) {
	raw, ok := lr.Params.Meta[listenMetaKey]
	if !ok {
		return nil, false
	}
	delete(lr.Params.Meta, listenMetaKey)
	if lr.Session == nil || !strings.HasPrefix(lr.Session.ID(), stdioSessionPrefix) {
		return nil, false
	}
	b, err := json.Marshal(raw)
	var h stdioListen
	if err != nil || json.Unmarshal(b, &h) != nil || h.Token == "" || len(h.ID) == 0 {
		return nil, false
	}
	ss := lr.Session
	return newListenStream(h.ID, h.TaskIDs, func(msg []byte) error {
		return sdkpatch.Notify(ctx, ss, h.Token, msg)
	}), true
}

// withListen returns r carrying the listen stream of body when body is a
// subscriptions/listen request naming taskIds, and a func to call once the
// request has been served. Otherwise it returns r as it is.
func withListen(r *http.Request, w http.ResponseWriter, body []byte) (*http.Request, func()) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Params struct {
			Notifications struct {
				TaskIDs json.RawMessage `json:"taskIds"`
			} `json:"notifications"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || len(msg.Params.Notifications.TaskIDs) == 0 || len(msg.ID) == 0 {
		return r, func() {}
	}
	// Each notification is a server-sent event on the response.
	ls := newListenStream(msg.ID, msg.Params.Notifications.TaskIDs, func(data []byte) error {
		var b bytes.Buffer
		b.Grow(len(data) + 8)
		b.WriteString("data: ")
		b.Write(data)
		b.WriteString("\n\n")
		if _, err := w.Write(b.Bytes()); err != nil {
			return err
		}
		_ = http.NewResponseController(w).Flush()
		return nil
	})
	return r.WithContext(context.WithValue(r.Context(), listenKey{}, ls)), ls.close
}

// close ends the stream: no more writes, and a listen serving it returns.
func (ls *listenStream) close() {
	ls.mu.Lock()
	if !ls.done {
		ls.done = true
		close(ls.gone)
	}
	ls.mu.Unlock()
}

var errListenClosed = errors.New("mcptool: the listen stream is closed")

// send writes one JSON-RPC notification.
func (ls *listenStream) send(method string, params any) error {
	data, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	if err != nil {
		return err
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.done {
		return errListenClosed
	}
	return ls.write(data)
}

// taskNotification is the params of notifications/tasks: the task as
// tasks/get shows it, with the subscription's id in _meta.
type taskNotification struct {
	Meta map[string]any `json:"_meta"`
	taskState
}

// listenTasks serves a subscriptions/listen that names taskIds: it agrees
// to the tasks the caller may see, then notifies each change of their
// status, status message or input requests until every one is terminal (or
// expired), or the client goes away.
func (r *Registry) listenTasks(ctx context.Context, req *mcp.SubscriptionsListenRequest, ls *listenStream) (mcp.Result, error) {
	if !clientHasTasks(req) {
		return nil, missingTasksCapability()
	}
	var ids []string
	if err := json.Unmarshal(ls.taskIDs, &ids); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "notifications.taskIds must be an array of task IDs"}
	}
	if len(ids) > maxListenTasks {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("notifications.taskIds names more than %d tasks", maxListenTasks)}
	}
	caller := ownerOf(ctx, req.Extra)
	subID := mcp.Meta{mcp.MetaKeySubscriptionID: ls.id}

	agreed := []string{}
	for _, id := range ids {
		if slices.Contains(agreed, id) {
			continue
		}
		_, err := r.loadTask(ctx, caller, id)
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams {
			continue // not a task the caller may see: not agreed
		}
		if err != nil {
			return nil, err
		}
		agreed = append(agreed, id)
	}
	ack := struct {
		Meta          mcp.Meta `json:"_meta"`
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	}{Meta: subID}
	ack.Notifications.TaskIDs = agreed
	if err := ls.send(notificationSubsAck, ack); err != nil {
		return nil, err
	}

	// Watch every agreed task; a change marks it dirty and wakes the loop.
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	var mu sync.Mutex
	dirty := map[string]bool{}
	wake := make(chan struct{}, 1)
	mark := func(id string) {
		mu.Lock()
		dirty[id] = true
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	for _, id := range agreed {
		events, err := r.taskStore().Watch(wctx, id)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable"}
		}
		dirty[id] = true // its current state goes first
		wg.Go(func() {
			for range events {
				mark(id)
			}
		})
	}
	live := map[string]string{} // agreed tasks not yet terminal: their last notified state
	for _, id := range agreed {
		live[id] = ""
	}
	// due is when each live task must be read even without an update: when
	// its lease runs out (a dead worker's task is then failed and notified)
	// or it expires.
	due := map[string]time.Time{}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		mu.Lock()
		todo := dirty
		dirty = map[string]bool{}
		mu.Unlock()
		retry := false
		for id := range todo {
			last, ok := live[id]
			if !ok {
				continue
			}
			t, err := r.loadTask(ctx, caller, id)
			var je *jsonrpc.Error
			switch {
			case errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams:
				delete(live, id) // expired: nothing more to tell
				delete(due, id)
				continue
			case err != nil:
				if ctx.Err() != nil {
					return &mcp.SubscriptionsListenResult{Meta: subID}, nil
				}
				mu.Lock()
				dirty[id] = true // the store is down: read it again later
				mu.Unlock()
				retry = true
				continue
			}
			if state := notifiedState(&t); state != last {
				if err := ls.send(notificationTasks, notifyTask(&t, subID)); err != nil {
					return &mcp.SubscriptionsListenResult{Meta: subID}, nil
				}
				live[id] = state
			}
			if t.Status.Terminal() {
				delete(live, id)
				delete(due, id)
				continue
			}
			due[id] = time.Time{}
			for _, at := range []time.Time{t.LeaseUntil, t.ExpiresAt} {
				if !at.IsZero() && (due[id].IsZero() || at.Before(due[id])) {
					due[id] = at
				}
			}
		}
		if len(live) == 0 {
			return &mcp.SubscriptionsListenResult{Meta: subID}, nil
		}
		wait := time.Hour
		if retry {
			wait = listenRetry
		}
		now := r.tasks.now()
		for _, at := range due {
			if !at.IsZero() {
				wait = min(wait, max(at.Sub(now)+time.Millisecond, time.Millisecond))
			}
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return &mcp.SubscriptionsListenResult{Meta: subID}, nil
		case <-ls.gone:
			return &mcp.SubscriptionsListenResult{Meta: subID}, nil
		case <-wake:
		case <-timer.C:
			for id := range live {
				mark(id)
			}
		}
	}
}

// notifiedState is what a notification tells of t beyond its timestamps:
// a listener hears of a task again only when this changes.
func notifiedState(t *taskstore.Task) string {
	keys := slices.Sorted(maps.Keys(t.InputRequests))
	return string(t.Status) + "\x00" + t.StatusMessage + "\x00" + strings.Join(keys, "\x00")
}

func notifyTask(t *taskstore.Task, meta mcp.Meta) *taskNotification {
	return &taskNotification{Meta: meta, taskState: stateOf(t)}
}

// stdioSessionPrefix begins the session ID of a stdio connection.
const stdioSessionPrefix = "stdio-"
