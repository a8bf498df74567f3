//lint:file-ignore SA1019 roots is deprecated by the 2026-07-28 revision (SEP-2577) but remains in the protocol: the client keeps declaring it.

package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// The tasks extension (io.modelcontextprotocol/tasks) as a go-sdk client
// sends it: go-sdk has no Tasks API, its custom methods carry tasks/get.

type taskGetParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type taskState struct {
	mcp.ResultBase
	TaskID        string              `json:"taskId"`
	Status        string              `json:"status"`
	StatusMessage string              `json:"statusMessage,omitempty"`
	PollInterval  int                 `json:"pollIntervalMs,omitempty"`
	InputRequests mcp.InputRequestMap `json:"inputRequests,omitempty"`
	Result        *mcp.CallToolResult `json:"result,omitempty"`
	Error         json.RawMessage     `json:"error,omitempty"`
}

type taskUpdateParams struct {
	mcp.ParamsBase
	TaskID         string               `json:"taskId"`
	InputResponses mcp.InputResponseMap `json:"inputResponses"`
}

type taskAck struct {
	mcp.ResultBase
}

// relatedTaskKey is the _meta key of the task a tools/call answer stands for.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// Tasks makes the client declare the tasks extension: a tool that runs as a
// task (mcptool.Task, mcptool.TaskRequired) answers tools/call with a task,
// and [Conn.Call] polls tasks/get until the task ends and returns its
// result. A task that asks for input is answered through tasks/update by
// the functions of [Elicit], [Sample] and [Roots].
func Tasks() Option { return func(c *config) { c.tasks = true } }

// declareTasks adds the extension to the client's capabilities, keeping the
// roots capability go-sdk declares when none are given.
func declareTasks(o *mcp.ClientOptions) {
	caps := &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}}
	if o.Capabilities != nil {
		cp := *o.Capabilities
		caps = &cp
	}
	ext := map[string]any{}
	for k, v := range caps.Extensions {
		ext[k] = v
	}
	ext[mcptool.TasksExtension] = map[string]any{}
	caps.Extensions = ext
	o.Capabilities = caps
}

// taskID returns the ID of the task res stands for, "" when res is a result.
func taskID(res *mcp.CallToolResult) string {
	if res == nil || res.IsError || len(res.Content) > 0 || res.StructuredContent != nil {
		return ""
	}
	related, _ := res.Meta[relatedTaskKey].(map[string]any)
	id, _ := related["taskId"].(string)
	return id
}

// await polls tasks/get until the task ends, and returns its result.
func (c *Conn) await(ctx context.Context, id string) (*mcp.CallToolResult, error) {
	for {
		task, err := mcp.CallCustomMethod[*taskGetParams, *taskState](ctx, c.Session, "tasks/get", &taskGetParams{TaskID: id})
		if err != nil {
			return nil, fmt.Errorf("tasks/get %s: %w", id, err)
		}
		switch task.Status {
		case "completed":
			if task.Result == nil {
				return nil, fmt.Errorf("task %s completed without a result", id)
			}
			return task.Result, nil
		case "failed":
			return nil, fmt.Errorf("task %s failed: %s", id, task.Error)
		case "cancelled":
			return nil, fmt.Errorf("task %s was cancelled: %s", id, task.StatusMessage)
		case "input_required":
			if len(task.InputRequests) > 0 {
				if err := c.answer(ctx, id, task.InputRequests); err != nil {
					return nil, err
				}
				continue
			}
		}
		wait := 20 * time.Millisecond
		if task.PollInterval > 0 {
			wait = min(wait, time.Duration(task.PollInterval)*time.Millisecond)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("task %s: %w", id, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// answer answers a task's input requests with the test's functions and
// sends the answers with tasks/update.
func (c *Conn) answer(ctx context.Context, id string, requests mcp.InputRequestMap) error {
	answers := mcp.InputResponseMap{}
	for key, req := range requests {
		var (
			resp mcp.InputResponse
			err  error
		)
		switch p := req.(type) {
		case *mcp.ElicitParams:
			elicit := c.cfg.elicit
			if elicit == nil {
				elicit = c.cfg.copts.ElicitationHandler
			}
			if elicit == nil {
				return fmt.Errorf("task %s asks for elicitation (%q): give the client Elicit", id, p.Message)
			}
			resp, err = elicit(ctx, &mcp.ElicitRequest{Session: c.Session, Params: p})
		case *mcp.CreateMessageWithToolsParams:
			resp, err = c.sampleTask(ctx, p)
		case *mcp.ListRootsParams:
			resp = &mcp.ListRootsResult{Roots: c.cfg.roots}
		default:
			err = fmt.Errorf("an input request of type %T", req)
		}
		if err != nil {
			return fmt.Errorf("task %s: answering %s: %w", id, key, err)
		}
		answers[key] = resp
	}
	_, err := mcp.CallCustomMethod[*taskUpdateParams, *taskAck](ctx, c.Session, "tasks/update",
		&taskUpdateParams{TaskID: id, InputResponses: answers})
	if err != nil {
		return fmt.Errorf("tasks/update %s: %w", id, err)
	}
	return nil
}

// sampleTask answers a task's sampling request with the function of Sample,
// which takes the request without tools.
func (c *Conn) sampleTask(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (mcp.InputResponse, error) {
	sample := c.cfg.sample
	if sample == nil {
		sample = c.cfg.copts.CreateMessageHandler
	}
	if sample == nil {
		return nil, fmt.Errorf("the task asks for sampling: give the client Sample")
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var base mcp.CreateMessageParams
	if err := json.Unmarshal(raw, &base); err != nil {
		return nil, fmt.Errorf("a sampling request Sample cannot take: %w", err)
	}
	return sample(ctx, &mcp.CreateMessageRequest{Session: c.Session, Params: &base})
}
