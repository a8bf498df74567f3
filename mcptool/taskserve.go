package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// The tasks extension's methods (2026-07-28, SEP-2663).
const (
	methodTasksGet     = "tasks/get"
	methodTasksUpdate  = "tasks/update"
	methodTasksCancel  = "tasks/cancel"
	codeHeaderMismatch = -32020
)

// serveTasks adds the tasks extension to s: tools/call of task tools may
// answer with a task, and tasks/get, tasks/update and tasks/cancel are served
// from the registry's task store.
func (r *Registry) serveTasks(s *mcp.Server) {
	must := func(err error) {
		if err != nil {
			panic("mcptool: " + err.Error()) // only for a standard method name
		}
	}
	// mcpgen's own tasks/* layer, not a patch: registered through go-sdk's
	// public AddReceivingCustomMethod so that go-sdk routes the methods and
	// decodes their params; taskMiddleware answers them (serveExtension,
	// serveCore), for the request's caller, before these handlers.
	for _, m := range []string{methodTasksGet, methodTasksUpdate, methodTasksCancel} {
		must(mcp.AddReceivingCustomMethod(s, m, func(context.Context, *mcp.ServerSession, *taskParams) (*taskAck, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: m + " reached no task middleware"}
		}))
	}
	// The 2025-11-25 core tasks' own methods: taskMiddleware serves them
	// on core sessions; any other session does not have them.
	for _, m := range []string{methodTasksResult, methodTasksList} {
		must(mcp.AddReceivingCustomMethod(s, m, func(context.Context, *mcp.ServerSession, *taskParams) (*taskAck, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: m + " belongs to the 2025-11-25 tasks; this session uses the tasks extension"}
		}))
	}
	s.AddReceivingMiddleware(r.taskMiddleware)
}

// withTasksCapability declares the extension in the server's capabilities.
func withTasksCapability(c *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	cp := *c
	cp.Extensions = map[string]any{}
	for k, v := range c.Extensions {
		cp.Extensions[k] = v
	}
	cp.AddExtension(TasksExtension, map[string]any{})
	return &cp
}

// taskMiddleware routes tools/call of task tools to callAsTask, serves a
// subscriptions/listen that names taskIds (listenTasks), and guards the
// tasks/* methods: the client must declare the extension, the Mcp-Name
// header must match the task ID; it answers them for the request's caller.
func (r *Registry) taskMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			res, err := next(ctx, method, req)
			if ir, ok := res.(*mcp.InitializeResult); ok && err == nil && ir.ProtocolVersion == coreTasksVersion {
				_, list := r.taskStore().(taskstore.Lister)
				return coreInit(ir, list), nil
			}
			return res, err
		case "tools/list":
			res, err := next(ctx, method, req)
			if lr, ok := req.(*mcp.ListToolsRequest); ok && err == nil && coreEra(lr) {
				return r.coreToolsList(res), nil
			}
			return res, err
		case "tools/call":
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				break
			}
			t, ok := r.callTarget(call)
			if res, handled, err := r.taskCall(ctx, t, ok, call); handled { // toolcall.go
				return res, err
			}
		case methodSubscriptionsListen:
			// A listen naming taskIds, handed over by Server.Handler or
			// StdioTransport.
			ls, ok := ctx.Value(listenKey{}).(*listenStream)
			lr, isListen := req.(*mcp.SubscriptionsListenRequest)
			if !ok && isListen && lr.Params != nil {
				ls, ok = takeListen(ctx, lr) // handed over by StdioTransport
			}
			if ok && isListen && lr.Params != nil {
				defer ls.close()
				return r.listenTasks(ctx, lr, ls)
			}
		case methodTasksGet, methodTasksUpdate, methodTasksCancel, methodTasksResult, methodTasksList:
			sr, ok := req.(*mcp.ServerRequest[*taskParams])
			if !ok {
				break
			}
			if sr.Params == nil {
				sr.Params = &taskParams{} // tasks/list may come without params
			}
			if method != methodTasksUpdate && coreEra(sr) {
				return r.serveCore(ctx, method, sessionCaller(ctx, sr.Session, sr.Extra), sr.Session, sr.Params)
			}
			if !clientHasTasks(sr) {
				return nil, missingTasksCapability()
			}
			if sr.Extra != nil && sr.Extra.Header != nil {
				if name := sr.Extra.Header.Get("Mcp-Name"); name != "" && name != sr.Params.TaskID {
					return nil, &jsonrpc.Error{Code: codeHeaderMismatch, Message: "Mcp-Name header does not match params.taskId"}
				}
			}
			if method == methodTasksResult || method == methodTasksList {
				break // the core tasks' own: not on this session
			}
			return r.serveExtension(ctx, method, ownerOf(ctx, sr.Extra), sr.Params)
		}
		return next(ctx, method, req)
	}
}

// serveExtension answers tasks/get, tasks/update and tasks/cancel of the
// tasks extension for caller.
func (r *Registry) serveExtension(ctx context.Context, method, caller string, p *taskParams) (mcp.Result, error) {
	switch method {
	case methodTasksGet:
		return r.getTask(ctx, caller, p.TaskID)
	case methodTasksUpdate:
		return r.updateTaskInput(ctx, caller, p.TaskID, p.InputResponses)
	}
	return r.cancelTask(ctx, caller, p.TaskID)
}

// taskParams are the params of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	Cursor         string                     `json:"cursor,omitempty"` // tasks/list (2025-11-25)
}

// taskWire is the Task of the protocol.
type taskWire struct {
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	CreatedAt      string `json:"createdAt"`
	LastUpdatedAt  string `json:"lastUpdatedAt"`
	TTLMs          *int64 `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
}

// createTaskResult answers a tools/call with a task handle.
type createdTask struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	taskWire
}

// detailedTask answers tasks/get: the task with what its status carries.
type detailedTask struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	taskState
}

// taskState is a task as tasks/get and notifications/tasks show it: its
// wire fields, and what its status carries (the input requests, the result
// or the error).
type taskState struct {
	taskWire
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result        json.RawMessage            `json:"result,omitempty"`
	Error         json.RawMessage            `json:"error,omitempty"`
}

func stateOf(t *taskstore.Task) taskState {
	s := taskState{taskWire: wireTask(t)}
	switch t.Status {
	case taskstore.InputRequired:
		s.InputRequests = t.InputRequests
	case taskstore.Completed:
		s.Result = t.Result
	case taskstore.Failed:
		s.Error = t.Error
	}
	return s
}

// taskAck answers tasks/update and tasks/cancel.
type taskAck struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

func wireTask(t *taskstore.Task) taskWire {
	const iso = "2006-01-02T15:04:05.000Z07:00"
	w := taskWire{
		TaskID:         t.ID,
		Status:         string(t.Status),
		StatusMessage:  t.StatusMessage,
		CreatedAt:      t.CreatedAt.UTC().Format(iso),
		LastUpdatedAt:  t.UpdatedAt.UTC().Format(iso),
		PollIntervalMs: t.PollInterval.Milliseconds(),
	}
	if !t.ExpiresAt.IsZero() {
		ms := t.ExpiresAt.Sub(t.CreatedAt).Milliseconds()
		w.TTLMs = &ms
	}
	return w
}

// relatedTaskKey names the task in the _meta of a CreateTaskResult, for
// clients that decode tools/call into a fixed CallToolResult (go-sdk's):
// they find the task ID there.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

func createTaskResult(t *taskstore.Task) *createdTask {
	c := &createdTask{ResultType: "task", taskWire: wireTask(t)}
	c.Meta = mcp.Meta{relatedTaskKey: map[string]any{"taskId": t.ID}}
	return c
}

func errTaskNotFound() error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Failed to retrieve task: Task not found"}
}

// loadTask reads a task caller (taskowner.go) may see, failing it first
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

// failTask makes t failed with an internal error: what a task that lost its
// worker reads.
func failTask(t *taskstore.Task, msg string) {
	t.Status, t.StatusMessage = taskstore.Failed, msg
	t.Error, _ = json.Marshal(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg})
	t.InputRequests, t.Answers, t.Worker, t.LeaseUntil = nil, nil, "", time.Time{}
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
