package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A caller's access to the registry's tasks: reading a task the caller
// may see (loadTask), the tasks extension's get, update and cancel of it,
// and who owns a task and may use it (ownerOf, sessionCaller, mayUse).

// loadTask reads a task caller (mayUse, below) may see, failing it first
// when the process running it stopped renewing its lease.
func (r *Registry) loadTask(ctx context.Context, caller, id string) (taskstore.Task, error) {
	store := r.taskStore()
	if id == "" {
		return taskstore.Task{}, errTaskNotFound()
	}
	t, err := store.Get(ctx, id)
	if errors.Is(err, taskstore.ErrNotFound) {
		return t, errTaskNotFound()
	}
	if err != nil {
		r.cfg.logger.ErrorContext(ctx, "mcptool: task store", "task", id, "err", err)
		return t, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable"}
	}
	if !mayUse(t.Owner, caller) {
		return taskstore.Task{}, errTaskNotFound()
	}
	now := r.tasks.now()
	if _, ok := r.lapsed(ctx, &t, now); ok {
		err := r.updateTask(ctx, id, func(t *taskstore.Task) bool {
			msg, ok := r.lapsed(ctx, t, now)
			if ok {
				failTask(t, msg)
			}
			return ok
		})
		if err != nil {
			return t, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable"}
		}
		return r.loadTask(ctx, caller, id)
	}
	return t, nil
}

func (r *Registry) getTask(ctx context.Context, caller, id string) (*detailedTask, error) {
	t, err := r.loadTask(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	return &detailedTask{ResultType: "complete", taskState: stateOf(&t)}, nil
}

func (r *Registry) updateTaskInput(ctx context.Context, caller, id string, responses map[string]json.RawMessage) (*taskAck, error) {
	if _, err := r.loadTask(ctx, caller, id); err != nil {
		return nil, err
	}
	err := r.updateTask(ctx, id, func(t *taskstore.Task) bool {
		if t.Status.Terminal() {
			return false
		}
		changed := false
		for k, v := range responses {
			if _, ok := t.InputRequests[k]; !ok || len(v) == 0 || string(v) == "null" {
				continue // not outstanding: ignored, as the spec says
			}
			delete(t.InputRequests, k)
			if t.Answers == nil {
				t.Answers = map[string]json.RawMessage{}
			}
			t.Answers[k] = v
			changed = true
		}
		if changed && len(t.InputRequests) == 0 && t.Status == taskstore.InputRequired {
			t.Status, t.StatusMessage = taskstore.Working, "Resuming with the input received."
		}
		return changed
	})
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable"}
	}
	return &taskAck{ResultType: "complete"}, nil
}

func (r *Registry) cancelTask(ctx context.Context, caller, id string) (*taskAck, error) {
	if _, err := r.loadTask(ctx, caller, id); err != nil {
		return nil, err
	}
	err := r.updateTask(ctx, id, func(t *taskstore.Task) bool {
		if t.Status.Terminal() || t.CancelRequested {
			return false
		}
		t.CancelRequested = true
		if t.Worker == "" {
			// Nobody runs it: cancelled at once.
			t.Status, t.StatusMessage = taskstore.Cancelled, "The task was cancelled."
			t.InputRequests, t.Answers = nil, nil
		}
		return true
	})
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable"}
	}
	return &taskAck{ResultType: "complete"}, nil
}

// ownerOf is who a request comes from, as the owner of the tasks it
// creates and the caller of the tasks it reads: the verified principal
// (tokenInfoOf: the request's token, else the context's [Authenticated]),
// or "" when it has none. It is the one place that says so; every task
// path (tools/call, tasks/*, the poll shortcut, listen) asks it, or
// sessionCaller, which builds on it.
//
// A session is no authorization context (MCP's security practices: servers
// must not use sessions for authentication), and nothing of an
// unauthenticated client survives its session: a 2025-era client evicted by
// MaxSessions, or whose session timed out, initializes a new one. Its tasks
// are therefore reachable by their IDs, which are unguessable (130 random
// bits), as the tasks specification prescribes when context binding is
// unavailable; see docs/tasks.md.
func ownerOf(ctx context.Context, extra *mcp.RequestExtra) string {
	return subjectOf(tokenInfoOf(ctx, extra))
}

// sessionCaller is who uses a core task: the verified principal (ownerOf),
// else the session, which scopes tasks/list (mayUse says who may use the
// task).
func sessionCaller(ctx context.Context, ss *mcp.ServerSession, extra *mcp.RequestExtra) string {
	if owner := ownerOf(ctx, extra); owner != "" {
		return owner
	}
	if name := sessionName(ss, extra); name != "" {
		return sessionScope + name
	}
	return "" // no session: anyone holding the ID, as with the extension
}

// sessionScope is the prefix of a task owner that names a session, not a
// principal: the task of an unauthenticated 2025-era session. The session
// scopes tasks/list, not access.
const sessionScope = "session:"

// mayUse reports whether caller may read, answer or cancel a task owned by
// owner: a principal's task only that principal; a task without one
// (unowned, or created by an unauthenticated session) whoever holds its ID.
func mayUse(owner, caller string) bool {
	return owner == "" || owner == caller || strings.HasPrefix(owner, sessionScope)
}
