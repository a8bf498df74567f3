//lint:file-ignore SA1019 sampling and roots are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol; a 2025-11-25 task forwards them.

package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// The experimental core tasks of 2025-11-25 (basic/utilities/tasks): a
// client asks for a task with a "task" param on tools/call, polls tasks/get,
// blocks on tasks/result (through which the server sends the task's
// elicitation and sampling requests), lists with tasks/list and cancels with
// tasks/cancel. They run on the same task store, leases and workers as the
// tasks extension; what differs is the wire, served here:
//
//   - a session negotiated at 2025-11-25 that did not declare the extension
//     is served the core tasks; one that declared it, the extension;
//   - the server declares capabilities.tasks and each task tool's
//     execution.taskSupport on such sessions;
//   - a core task is the session's (or the authenticated user's): no other
//     session can read, list or cancel it;
//   - a tool result with isError makes the task failed (the extension makes
//     it completed), and tasks/result returns that result;
//   - tasks/cancel makes a task cancelled before it answers and refuses a
//     task already terminal with -32602.
const (
	// coreListPage is how many tasks one tasks/list answer holds.
	coreListPage = 100
)

// coreEra reports whether req comes from a session served the core tasks.
func coreEra(req interface {
	GetSession() mcp.Session
	ClientCapabilities() *mcp.ClientCapabilities
}) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	return ip != nil && ip.ProtocolVersion == coreTasksVersion && !clientHasTasks(req)
}

// takeTaskParam removes the lifted task param from call and reports whether
// it was there, with the TTL it asks for (0: none asked).
func takeTaskParam(call *mcp.CallToolRequest) (ttl time.Duration, asked bool, err error) {
	v, ok := call.Params.Meta[taskParamKey]
	if !ok {
		return 0, false, nil
	}
	delete(call.Params.Meta, taskParamKey)
	obj, ok := v.(map[string]any)
	if !ok {
		return 0, true, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.task must be an object"}
	}
	switch ms := obj["ttl"].(type) {
	case nil:
	case float64:
		if ms < 0 || ms > float64(1<<53) {
			return 0, true, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.task.ttl must be a number of milliseconds ≥ 0"}
		}
		ttl = time.Duration(ms) * time.Millisecond
	default:
		return 0, true, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.task.ttl must be a number of milliseconds"}
	}
	return ttl, true, nil
}

// coreInit adds capabilities.tasks to res, a 2025-11-25 initialize result
// (sdkpatch.WithCapability: go-sdk's ServerCapabilities has no field for
// it); list is whether the store can list tasks.
func coreInit(res *mcp.InitializeResult, list bool) mcp.Result {
	tasks := `{"cancel":{},"requests":{"tools":{"call":{}}}}`
	if list {
		tasks = `{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`
	}
	return sdkpatch.WithCapability(res, "tasks", json.RawMessage(tasks))
}

// coreToolsList adds execution.taskSupport to the task tools of res, a
// tools/list result (sdkpatch.WithToolField: go-sdk's Tool has no field
// for it).
func (r *Registry) coreToolsList(res mcp.Result) mcp.Result {
	lr, ok := res.(*mcp.ListToolsResult)
	if !ok || lr == nil {
		return res
	}
	execution := map[string]json.RawMessage{}
	for _, t := range lr.Tools {
		if rt, ok := r.lookup(t.Name); ok {
			switch rt.task.mode {
			case taskOptional:
				execution[t.Name] = json.RawMessage(`{"taskSupport":"optional"}`)
			case taskRequired:
				execution[t.Name] = json.RawMessage(`{"taskSupport":"required"}`)
			}
		}
	}
	return sdkpatch.WithToolField(lr, "execution", execution)
}

// serveCore answers tasks/get, tasks/result, tasks/list and tasks/cancel for
// a core session, for caller.
func (r *Registry) serveCore(ctx context.Context, method, caller string, ss *mcp.ServerSession, p *taskParams) (mcp.Result, error) {
	switch method {
	case methodTasksGet:
		t, err := r.loadTask(ctx, caller, p.TaskID)
		if err != nil {
			return nil, err
		}
		return &coreTaskResult{coreTask: coreTaskOf(&t)}, nil
	case methodTasksCancel:
		return r.coreCancel(ctx, caller, p.TaskID)
	case methodTasksResult:
		return r.coreResult(ctx, caller, ss, p.TaskID)
	case methodTasksList:
		return r.coreList(ctx, caller, p.Cursor)
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
}

func (r *Registry) coreCancel(ctx context.Context, caller, id string) (mcp.Result, error) {
	if _, err := r.loadTask(ctx, caller, id); err != nil {
		return nil, err
	}
	var terminal taskstore.Status
	var out taskstore.Task
	err := r.updateTask(ctx, id, func(t *taskstore.Task) bool {
		terminal, out = "", *t
		if t.Status.Terminal() {
			terminal = t.Status
			return false
		}
		t.CancelRequested = true
		t.Status, t.StatusMessage = taskstore.Cancelled, "The task was cancelled by request."
		t.InputRequests, t.Answers = nil, nil
		out = *t
		return true
	})
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable"}
	}
	if terminal != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Cannot cancel task: already in terminal status '%s'", terminal)}
	}
	out.UpdatedAt = r.tasks.now().UTC()
	return &coreTaskResult{coreTask: coreTaskOf(&out)}, nil
}

// coreResult blocks until the task is terminal and answers what its
// tools/call would have: the result, or the JSON-RPC error. While the task
// waits for input, it sends the task's input requests to the client on this
// request and stores the answers.
func (r *Registry) coreResult(ctx context.Context, caller string, ss *mcp.ServerSession, id string) (mcp.Result, error) {
	t, err := r.loadTask(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	wctx, stop := context.WithCancel(ctx)
	var forwards sync.WaitGroup
	defer func() {
		stop()
		forwards.Wait()
	}()
	events, err := r.taskStore().Watch(wctx, id)
	if err != nil {
		events = nil // polled below
	}
	for {
		if t.Status.Terminal() {
			return coreOutcome(&t)
		}
		if t.Status == taskstore.InputRequired && ss != nil {
			r.forwardInput(wctx, caller, ss, &t, &forwards)
		}
		// Wake on a change, or when the worker's lease runs out (loadTask
		// then fails the task), or every few seconds without a watch.
		wait := 5 * time.Second
		if !t.LeaseUntil.IsZero() {
			wait = min(wait, max(time.Until(t.LeaseUntil)+10*time.Millisecond, time.Millisecond))
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case _, ok := <-events:
			if !ok {
				events = nil
			}
		case <-timer.C:
		}
		timer.Stop()
		if t, err = r.loadTask(ctx, caller, id); err != nil {
			return nil, err
		}
	}
}

// forwardInput sends each input request of t that this process is not
// already sending to the client of ss, each in its own goroutine, and
// stores the answer for the worker.
func (r *Registry) forwardInput(ctx context.Context, caller string, ss *mcp.ServerSession, t *taskstore.Task, wg *sync.WaitGroup) {
	for key, raw := range t.InputRequests {
		mark := t.ID + "\x00" + key
		if _, busy := r.tasks.forwarding.LoadOrStore(mark, true); busy {
			continue
		}
		var reqs mcp.InputRequestMap
		if json.Unmarshal([]byte(`{"k":`+string(raw)+`}`), &reqs) != nil || reqs["k"] == nil {
			r.tasks.forwarding.Delete(mark)
			continue
		}
		req := withRelatedTask(reqs["k"], t.ID)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer r.tasks.forwarding.Delete(mark)
			res, err := askLegacy(ctx, ss, req)
			if err != nil {
				if ctx.Err() == nil {
					r.cfg.logger.WarnContext(ctx, "mcptool: task input request failed", "task", t.ID, "key", key, "err", err)
				}
				return
			}
			answer, err := json.Marshal(res)
			if err != nil {
				return
			}
			if _, err := r.updateTaskInput(ctx, caller, t.ID, map[string]json.RawMessage{key: answer}); err != nil && ctx.Err() == nil {
				r.cfg.logger.WarnContext(ctx, "mcptool: task input not stored", "task", t.ID, "key", key, "err", err)
			}
		}()
	}
}

// withRelatedTask names the task in the _meta of an input request.
func withRelatedTask(req mcp.InputRequest, id string) mcp.InputRequest {
	related := map[string]any{"taskId": id}
	set := func(m mcp.Meta) mcp.Meta {
		if m == nil {
			m = mcp.Meta{}
		}
		m[relatedTaskKey] = related
		return m
	}
	switch p := req.(type) {
	case *mcp.ElicitParams:
		p.Meta = set(p.Meta)
	case *mcp.CreateMessageParams:
		p.Meta = set(p.Meta)
	case *mcp.CreateMessageWithToolsParams:
		p.Meta = set(p.Meta)
	case *mcp.ListRootsParams:
		p.Meta = set(p.Meta)
	}
	return req
}

// coreList answers tasks/list from a store that can list; cursor is the
// last task ID of the previous page.
func (r *Registry) coreList(ctx context.Context, caller, cursor string) (mcp.Result, error) {
	lister, ok := r.taskStore().(taskstore.Lister)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tasks/list is not supported by this server's task store"}
	}
	if caller == "" {
		return &coreTaskList{Tasks: []coreTask{}}, nil // tasks nobody owns are nobody's to list
	}
	if cursor != "" && !isTaskID(cursor) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Failed to list tasks: invalid cursor"}
	}
	tasks, err := lister.List(ctx, caller, cursor, coreListPage+1)
	if err != nil {
		r.cfg.logger.ErrorContext(ctx, "mcptool: task store", "err", err)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable"}
	}
	now := r.tasks.now()
	out := &coreTaskList{Tasks: make([]coreTask, 0, min(len(tasks), coreListPage))}
	for i := range tasks {
		if i == coreListPage {
			out.NextCursor = tasks[i-1].ID
			break
		}
		t := tasks[i]
		if msg, ok := r.lapsed(ctx, &t, now); ok {
			failTask(&t, msg) // as tasks/get will store it
		}
		out.Tasks = append(out.Tasks, coreTaskOf(&t))
	}
	return out, nil
}
