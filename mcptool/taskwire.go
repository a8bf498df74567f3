package mcptool

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tasks protocol of both eras on the wire: method names, params,
// the tasks and results as sent, and a call's task param.

const (
	methodTasksGet    = "tasks/get"
	methodTasksUpdate = "tasks/update"
	methodTasksCancel = "tasks/cancel"
)

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

// failTask makes t failed with an internal error: what a task that lost its
// worker reads.
func failTask(t *taskstore.Task, msg string) {
	t.Status, t.StatusMessage = taskstore.Failed, msg
	t.Error, _ = json.Marshal(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg})
	t.InputRequests, t.Answers, t.Worker, t.LeaseUntil = nil, nil, "", time.Time{}
}

const (
	coreTasksVersion  = "2025-11-25"
	methodTasksResult = "tasks/result"
	methodTasksList   = "tasks/list"
)

// taskParamKey is where mcptool's transports put the "task" param of a
// tools/call (liftTaskParam): go-sdk decodes params into a fixed struct
// and would drop it, but it keeps _meta.
const taskParamKey = "io.mcpgen/task-param"

// liftTaskParam moves params.task of a tools/call message into
// params._meta[taskParamKey] (sdkpatch.LiftParam); any other message is
// returned as it is.
func liftTaskParam(msg []byte) []byte {
	return sdkpatch.LiftParam(msg, "tools/call", "task", taskParamKey)
}

// coreCall marks a run created by a core session.
type coreCall struct {
	ttl    time.Duration // asked for; 0: the tool's
	caller string        // the task's owner
}

// coreTask is the Task of the 2025-11-25 wire.
type coreTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           *int64 `json:"ttl"`
	PollInterval  int64  `json:"pollInterval,omitempty"`
}

func coreTaskOf(t *taskstore.Task) coreTask {
	w := wireTask(t)
	return coreTask{
		TaskID: w.TaskID, Status: w.Status, StatusMessage: w.StatusMessage,
		CreatedAt: w.CreatedAt, LastUpdatedAt: w.LastUpdatedAt,
		TTL: w.TTLMs, PollInterval: w.PollIntervalMs,
	}
}

// coreCreated answers a task-augmented tools/call (CreateTaskResult).
type coreCreated struct {
	mcp.ResultBase
	Task coreTask `json:"task"`
}

// coreTaskResult answers tasks/get and tasks/cancel (a Task).
type coreTaskResult struct {
	mcp.ResultBase
	coreTask
}

// coreTaskList answers tasks/list.
type coreTaskList struct {
	mcp.ResultBase
	Tasks      []coreTask `json:"tasks"`
	NextCursor string     `json:"nextCursor,omitempty"`
}

// rawResult is a stored result answered as it is, with its _meta naming
// the task.
type rawResult struct {
	mcp.ResultBase
	raw    json.RawMessage
	taskID string
}

func (r *rawResult) MarshalJSON() ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("mcptool: stored task result is not an object")
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := m["_meta"]; ok {
		_ = json.Unmarshal(raw, &meta)
		if meta == nil {
			meta = map[string]json.RawMessage{}
		}
	}
	meta[relatedTaskKey], _ = json.Marshal(map[string]string{"taskId": r.taskID})
	m["_meta"], _ = json.Marshal(meta)
	return json.Marshal(m)
}

// coreOutcome is what tasks/result answers for a terminal task.
func coreOutcome(t *taskstore.Task) (mcp.Result, error) {
	switch {
	case t.Status == taskstore.Cancelled:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "The task was cancelled."}
	case len(t.Result) > 0:
		return &rawResult{raw: t.Result, taskID: t.ID}, nil
	case len(t.Error) > 0:
		var je jsonrpc.Error
		if json.Unmarshal(t.Error, &je) == nil && je.Code != 0 {
			return nil, &je
		}
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task ended without a result"}
}

// isTaskID reports whether s has the form of the task IDs mcptool makes
// (crypto/rand.Text: 26 characters of base32).
func isTaskID(s string) bool {
	if len(s) != 26 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

const (
	methodSubscriptionsListen = "subscriptions/listen"
)
