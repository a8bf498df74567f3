package mcptool

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A registry's tasks: the runtime, its store, updating a task, and
// leases (a caller's access to them: taskaccess.go).

// taskRuntime is a registry's task machinery, which all its servers
// share, and the tasks extension each of them plugs in (taskHook).
type taskRuntime struct {
	reg    *Registry // whose tasks these are
	once   sync.Once
	store  taskstore.Store
	worker string // this process, as the holder of task leases
	// forwarding marks the input requests this process is sending to a
	// client through tasks/result (task ID + NUL + key).
	forwarding sync.Map
	now        func() time.Time
}

func (r *Registry) taskStore() taskstore.Store {
	tr := &r.tasks
	tr.once.Do(func() {
		tr.store = r.cfg.tasks.Store
		if tr.store == nil {
			tr.store = taskstore.NewMemory()
		}
		tr.worker = rand.Text()
		if tr.now == nil {
			tr.now = time.Now
		}
	})
	return tr.store
}

// taskHook is the one point where the tasks extension plugs into a server
// (taskserve.go): its methods and middleware on go-sdk's server
// (serveTasks), its middleware on the dispatcher's chain
// (taskMiddleware), and a tools/call that runs as a task (taskCall).
type taskHook interface {
	serveTasks(s *mcp.Server)
	taskMiddleware(next mcp.MethodHandler) mcp.MethodHandler
	taskCall(ctx context.Context, t *tool, known bool, call *mcp.CallToolRequest) (res mcp.Result, handled bool, err error)
}

// taskExtension is the registry's tasks, as a server plugs them in.
func (r *Registry) taskExtension() taskHook { return &r.tasks }

// clientHasTasks reports whether the request declares the tasks extension:
// in its _meta on a 2026-07-28 request, else in its session's initialize.
func clientHasTasks(req capabilityDeclarer) bool { return clientDeclares(req, TasksExtension) }

// missingTasksCapability is the spec's error for a client that must declare
// the extension and did not: data.requiredCapabilities names it as the
// spec says, and data.capability too, where mark3labs/mcp-go's client
// (v1.2.1) looks for the name.
func missingTasksCapability() error {
	return &jsonrpc.Error{
		Code:    -32021,
		Message: "Missing required client capability",
		Data:    json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + TasksExtension + `":{}}},"capability":"` + TasksExtension + `"}`),
	}
}

// updateTask applies change to the stored task with compare-and-set,
// retrying on conflicts. change returns false to leave the task as it is.
func (r *Registry) updateTask(ctx context.Context, id string, change func(*taskstore.Task) bool) error {
	store := r.taskStore()
	for {
		t, err := store.Get(ctx, id)
		if err != nil {
			return err
		}
		if !change(&t) {
			return nil
		}
		t.UpdatedAt = r.tasks.now().UTC()
		if _, err := store.Update(ctx, t); !errors.Is(err, taskstore.ErrConflict) {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// withTasksCapability declares the extension in the server's capabilities.
func withTasksCapability(c *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	return withExtension(c, TasksExtension, map[string]any{})
}

// Why a task whose lease ran out is failed: its worker stopped renewing it.
const (
	leaseWorkerGone   = "the server running the task stopped"
	leaseStoreRestart = "the task store restarted while the task ran, and the server running it has not renewed it since: its outcome is lost"
)

// lapsed reports whether t, not terminal, has lost its worker at now, and
// what to tell its client. A lease that ran out across a restart of the
// store (a taskstore.Restarter) lapsed because the renewals could not be
// stored: the worker gets a lease's time from the restart to renew it
// before the task is failed, and then the message says the store
// restarted.
func (r *Registry) lapsed(ctx context.Context, t *taskstore.Task, now time.Time) (msg string, ok bool) {
	if t.Status.Terminal() || t.LeaseUntil.IsZero() || !now.After(t.LeaseUntil) {
		return "", false
	}
	rs, isRestarter := r.taskStore().(taskstore.Restarter)
	if !isRestarter {
		return leaseWorkerGone, true
	}
	started, err := rs.StartedAt(ctx)
	if err != nil || !started.After(t.UpdatedAt) {
		return leaseWorkerGone, true
	}
	lease := t.LeaseUntil.Sub(t.UpdatedAt) // written together at each renewal
	if now.Before(started.Add(lease)) {
		return "", false // its worker may still renew it
	}
	return leaseStoreRestart, true
}
