package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// The fixtures of the suite's tasks-* scenarios (the Tasks extension,
// SEP-2663). greet runs synchronously; the others run as tasks for clients
// that declare the extension, created at once (Wait -1: the scenarios
// check the task, however quick the call).
func registerTaskFixtures(reg *mcptool.Registry) error {
	ro := mcptool.ReadOnly(true)
	atOnce := mcptool.TaskSettings{Wait: -1}
	return joinErrs(
		reg.Add("greet", greet, mcptool.Description("Greets name: Hello, {name}! (never a task)."), ro),
		reg.Add("slow_compute", slowCompute, mcptool.Description("Sleeps the given seconds, reporting progress, then returns its label; a task for clients that support tasks."), ro, mcptool.Task(atOnce)),
		reg.Add("failing_job", failingJob, mcptool.Description("Works for about a second, then fails with a tool error. Runs only as a task."), ro, mcptool.TaskRequired(atOnce)),
		reg.Add("protocol_error_job", protocolErrorJob, mcptool.Description("Fails with a JSON-RPC internal error (a failed task)."), ro, mcptool.Task(atOnce)),
		reg.Add("confirm_delete", confirmDelete, mcptool.Description("Asks the user to confirm deleting filename (an input request of the task), then reports the decision. Deletes nothing."), ro, mcptool.Task(atOnce)),
		reg.Add("multi_input", multiInput, mcptool.Description("Asks two questions at once (two input requests of the task), then reports both answers."), ro, mcptool.Task(atOnce)),
		// Input gathered synchronously (input-required results) before the
		// call becomes a task: within Wait, an Ask is a multi round trip;
		// Progress then turns the call into a task.
		reg.Add("test_tool_with_task", nameThenTask, mcptool.Description("Asks for the caller's name (user_name), then greets them from a task."), ro,
			mcptool.TaskRequired(mcptool.TaskSettings{Wait: time.Minute})),
	)
}

func joinErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

type greetArgs struct {
	Name string `json:"name" jsonschema:"description=Who to greet"`
}

func greet(_ context.Context, in greetArgs) (string, error) {
	return fmt.Sprintf("Hello, %s!", in.Name), nil
}

type computeArgs struct {
	Seconds float64 `json:"seconds" jsonschema:"description=How long to work" validate:"min=0,max=600"`
	Label   string  `json:"label,omitempty" jsonschema:"description=A label echoed in the result"`
}

func slowCompute(ctx context.Context, in computeArgs) (string, error) {
	end := time.Now().Add(time.Duration(in.Seconds * float64(time.Second)))
	steps := 0
	for time.Now().Before(end) {
		steps++
		mcptool.Progress(ctx, float64(steps), 0, fmt.Sprintf("computing %s: step %d", in.Label, steps))
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(min(100*time.Millisecond, time.Until(end))):
		}
	}
	return fmt.Sprintf("Computed %s in %gs.", in.Label, in.Seconds), nil
}

func failingJob(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Second):
	}
	return mcptool.Errorf("the job failed: the input batch is corrupt")
}

func protocolErrorJob(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(100 * time.Millisecond):
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the job crashed"}
}

type deleteArgs struct {
	Filename string `json:"filename" jsonschema:"description=The file to delete"`
}

var deleteRequest = json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean","description":"Delete it?"}},"required":["confirm"]}`)

func confirmDelete(ctx context.Context, in deleteArgs) (string, error) {
	res, err := mcptool.Elicit(ctx, "confirm", &mcp.ElicitParams{
		Message: fmt.Sprintf("Delete %s?", in.Filename), RequestedSchema: deleteRequest,
	})
	if err != nil {
		return "", err
	}
	if res.Action == "accept" && res.Content["confirm"] == true {
		return fmt.Sprintf("Deleted %s.", in.Filename), nil
	}
	return fmt.Sprintf("Kept %s (%s).", in.Filename, res.Action), nil
}

var answerSchema = json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"confirm":{"type":"boolean"}}}`)

func multiInput(ctx context.Context) (string, error) {
	out, err := mcptool.Ask(ctx, mcp.InputRequestMap{
		"first":  &mcp.ElicitParams{Message: "First question: your name?", RequestedSchema: answerSchema},
		"second": &mcp.ElicitParams{Message: "Second question: your name again?", RequestedSchema: answerSchema},
	})
	if err != nil {
		return "", err
	}
	a, _ := accepted(out["first"].(*mcp.ElicitResult), "name")
	b, _ := accepted(out["second"].(*mcp.ElicitResult), "name")
	return fmt.Sprintf("Answers: %q and %q.", a, b), nil
}

func nameThenTask(ctx context.Context) (string, error) {
	res, err := mcptool.Elicit(ctx, "user_name", nameRequest)
	if err != nil {
		return "", err
	}
	name, ok := accepted(res, "name")
	if !ok {
		return "No name given (" + string(res.Action) + ").", nil
	}
	mcptool.Progress(ctx, 1, 2, "greeting "+name)
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(200 * time.Millisecond):
	}
	return fmt.Sprintf("Hello, %s!", name), nil
}
