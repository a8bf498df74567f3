package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// The tasks methods as a go-sdk client sends them (go-sdk has no Tasks API:
// its custom methods carry them).
type taskGetParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type taskState struct {
	mcp.ResultBase
	TaskID        string              `json:"taskId"`
	Status        string              `json:"status"`
	StatusMessage string              `json:"statusMessage,omitempty"`
	Result        *mcp.CallToolResult `json:"result,omitempty"`
	Error         json.RawMessage     `json:"error,omitempty"`
}

// A tool that runs as a task, driven by a go-sdk client that declares the
// extension: tools/call answers with a task (go-sdk decodes it into an empty
// CallToolResult whose _meta names the task), then tasks/get is polled until
// the result is there. Wait -1 makes every call a task at once; by default
// a call that ends within a second is answered directly, so a client
// handles both.
func ExampleTask() {
	reg := mcptool.NewRegistry()
	err := reg.Add("report", func(ctx context.Context) (string, error) {
		mcptool.Progress(ctx, 1, 2, "collecting figures")
		time.Sleep(20 * time.Millisecond)
		return "report ready", nil
	}, mcptool.Description("Builds the report."), mcptool.Task(mcptool.TaskSettings{Wait: -1}))
	if err != nil {
		log.Fatal(err)
	}
	srv := reg.Server(&mcp.Implementation{Name: "example", Version: "1"}, nil)

	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{mcptool.TasksExtension: map[string]any{}}},
	})
	if err := mcp.AddSendingCustomMethod[*taskGetParams, *taskState](client, "tasks/get"); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "report"})
	if err != nil {
		log.Fatal(err)
	}
	related, _ := res.Meta["io.modelcontextprotocol/related-task"].(map[string]any)
	id, _ := related["taskId"].(string)
	if id == "" { // answered directly
		fmt.Println("completed", res.Content[0].(*mcp.TextContent).Text)
		return
	}
	for {
		task, err := mcp.CallCustomMethod[*taskGetParams, *taskState](ctx, cs, "tasks/get", &taskGetParams{TaskID: id})
		if err != nil {
			log.Fatal(err)
		}
		if task.Status == "completed" {
			fmt.Println(task.Status, task.Result.Content[0].(*mcp.TextContent).Text)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Output: completed report ready
}
