package mcptool

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tasks extension's methods (2026-07-28, SEP-2663).
const (
	codeHeaderMismatch = -32020
)

// serveTasks adds the tasks extension to s: tools/call of task tools may
// answer with a task, and tasks/get, tasks/update and tasks/cancel are served
// from the registry's task store.
func (tr *taskRuntime) serveTasks(s *mcp.Server) {
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
	s.AddReceivingMiddleware(tr.taskMiddleware)
}

// taskMiddleware routes tools/call of task tools to callAsTask, serves a
// subscriptions/listen that names taskIds (listenTasks), and guards the
// tasks/* methods: the client must declare the extension, the Mcp-Name
// header must match the task ID; it answers them for the request's caller.
func (tr *taskRuntime) taskMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	r := tr.reg
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
			if res, handled, err := tr.taskCall(ctx, t, ok, call); handled { // toolcall.go
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

// coreCall serves a tools/call of a core session: a task when the client
// asked for one and the tool allows it, the spec's -32601 when the two
// disagree; handled is false when the call goes on as usual.
func (r *Registry) coreCall(ctx context.Context, t *tool, known bool, call *mcp.CallToolRequest) (res mcp.Result, handled bool, err error) {
	ttl, asked, err := takeTaskParam(call)
	switch {
	case err != nil:
		return nil, true, err
	case !known:
		return nil, false, nil // unknown tool: go-sdk's own error
	case asked && t.task.mode == taskNever:
		return nil, true, sdkpatch.MethodNotFound(fmt.Sprintf("tool %q does not support task-augmented calls (execution.taskSupport is forbidden)", t.name))
	case !asked && t.task.mode == taskRequired:
		return nil, true, sdkpatch.MethodNotFound(fmt.Sprintf("Task augmentation required for tools/call requests: tool %q runs only as a task (execution.taskSupport is required): call it with params.task", t.name))
	case !asked:
		return nil, false, nil
	}
	res, err = r.callAsTask(ctx, t, call, &coreCall{ttl: ttl, caller: sessionCaller(ctx, call.Session, call.Extra)})
	return res, true, err
}

// taskCall answers a tools/call of t (known: the registry has it) that
// runs as a task: on a core session (coreCall), or a task tool's on a
// client that declared the tasks extension (callAsTask); handled is false
// when the call runs as any call.
func (tr *taskRuntime) taskCall(ctx context.Context, t *tool, known bool, call *mcp.CallToolRequest) (res mcp.Result, handled bool, err error) {
	r := tr.reg
	if coreEra(call) {
		return r.coreCall(ctx, t, known, call)
	}
	if !known || t.task.mode == taskNever {
		return nil, false, nil
	}
	if !clientHasTasks(call) {
		if t.task.mode == taskRequired {
			return nil, true, missingTasksCapability()
		}
		return nil, false, nil
	}
	res, err = r.callAsTask(ctx, t, call, nil)
	return res, true, err
}
