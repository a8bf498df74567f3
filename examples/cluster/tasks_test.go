package cluster_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tasks methods' wire types (go-sdk v1.8.0 has no Tasks API; its custom
// methods carry them, as docs/tasks.md shows).
type taskParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

type taskState struct {
	mcp.ResultBase
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	StatusMessage string                     `json:"statusMessage,omitempty"`
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result        *mcp.CallToolResult        `json:"result,omitempty"`
	Error         json.RawMessage            `json:"error,omitempty"`
}

type taskAck struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

// taskClient connects a 2026-07-28 client that declares the tasks
// extension, through the load balancer.
func taskClient(t *testing.T, c *cluster, sb *servedBy) *mcp.ClientSession {
	t.Helper()
	copts := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}},
		// Declares elicitation; the answers go through tasks/update.
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "tasks", Version: "1"}, copts)
	if err := mcp.AddSendingCustomMethod[*taskParams, *taskState](client, "tasks/get"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"tasks/update", "tasks/cancel"} {
		if err := mcp.AddSendingCustomMethod[*taskParams, *taskAck](client, m); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.url(), HTTPClient: c.httpClient(sb)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func startTask(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	related, _ := res.Meta["io.modelcontextprotocol/related-task"].(map[string]any)
	id, _ := related["taskId"].(string)
	if id == "" {
		t.Fatalf("%s did not become a task: %+v", name, res)
	}
	return id
}

// waitStatus polls tasks/get until the task has the status, and returns
// the replicas that answered.
func waitStatus(t *testing.T, cs *mcp.ClientSession, sb *servedBy, id, status string, within time.Duration) (*taskState, map[string]bool) {
	t.Helper()
	by := map[string]bool{}
	deadline := time.Now().Add(within)
	for {
		st, err := mcp.CallCustomMethod[*taskParams, *taskState](context.Background(), cs, "tasks/get", &taskParams{TaskID: id})
		if err != nil {
			t.Fatalf("tasks/get: %v", err)
		}
		by[sb.lastServer()] = true
		if st.Status == status {
			return st, by
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is %s (%s) after %v; want %s", id, st.Status, st.StatusMessage, within, status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// afterCreator polls tasks/get until a poll was answered by the replica
// that created the task: under HAProxy's round robin the next request then
// goes to another replica, whatever the number of polls before.
func afterCreator(t *testing.T, cs *mcp.ClientSession, sb *servedBy, id, createdOn string) {
	t.Helper()
	for range 6 {
		if sb.lastServer() == createdOn {
			return
		}
		if _, err := mcp.CallCustomMethod[*taskParams, *taskState](context.Background(), cs, "tasks/get", &taskParams{TaskID: id}); err != nil {
			t.Fatalf("tasks/get: %v", err)
		}
	}
	t.Fatalf("six polls and none answered by %s, the creator", createdOn)
}

// d. A task created through one replica is polled, answered and cancelled
// through the others: the task lives in Redis, and the answer and the
// cancel reach the replica running it.
func TestTaskAcrossReplicas(t *testing.T) {
	c := startCluster(t, "conformance")
	sb := &servedBy{}
	cs := taskClient(t, c, sb)
	ctx := context.Background()

	// A task that asks for input: created on one replica, it waits there.
	id := startTask(t, cs, "confirm_delete", map[string]any{"filename": "report.csv"})
	createdOn := sb.lastServer()
	st, by := waitStatus(t, cs, sb, id, "input_required", 10*time.Second)
	var key string
	for k := range st.InputRequests {
		key = k
	}
	if key == "" {
		t.Fatalf("input_required without input requests: %+v", st)
	}
	answer := json.RawMessage(`{"action":"accept","content":{"confirm":true}}`)
	afterCreator(t, cs, sb, id, createdOn)
	if _, err := mcp.CallCustomMethod[*taskParams, *taskAck](ctx, cs, "tasks/update", &taskParams{TaskID: id, InputResponses: map[string]json.RawMessage{key: answer}}); err != nil {
		t.Fatalf("tasks/update: %v", err)
	}
	updatedOn := sb.lastServer()
	st, by2 := waitStatus(t, cs, sb, id, "completed", 10*time.Second)
	if st.Result == nil || !strings.Contains(text(st.Result), "Deleted report.csv") {
		t.Fatalf("completed with %+v", st.Result)
	}
	for k := range by2 {
		by[k] = true
	}
	delete(by, createdOn)
	if updatedOn == createdOn || len(by) == 0 {
		t.Fatalf("created on %s, updated on %s, polled on %v: the test wants other replicas than the creator's", createdOn, updatedOn, by)
	}

	// A long task, cancelled through another replica.
	id = startTask(t, cs, "slow_compute", map[string]any{"seconds": 60, "label": "long"})
	createdOn = sb.lastServer()
	waitStatus(t, cs, sb, id, "working", 5*time.Second)
	afterCreator(t, cs, sb, id, createdOn)
	if _, err := mcp.CallCustomMethod[*taskParams, *taskAck](ctx, cs, "tasks/cancel", &taskParams{TaskID: id}); err != nil {
		t.Fatalf("tasks/cancel: %v", err)
	}
	if cancelledOn := sb.lastServer(); cancelledOn == createdOn {
		t.Fatalf("created and cancelled on %s: the test wants another replica", createdOn)
	}
	waitStatus(t, cs, sb, id, "cancelled", 5*time.Second)
}

// e (tasks). A task whose replica is SIGKILLed reads failed once its
// worker lease has run out (the replicas run with -task-lease 3s), never
// stuck in working.
func TestTaskOfKilledReplicaFails(t *testing.T) {
	const lease = 3 * time.Second
	c := startCluster(t, "conformance", "-task-lease", lease.String())
	sb := &servedBy{}
	cs := taskClient(t, c, sb)
	id := startTask(t, cs, "slow_compute", map[string]any{"seconds": 120, "label": "doomed"})
	worker := map[string]int{"r1": 0, "r2": 1, "r3": 2}[sb.lastServer()]
	waitStatus(t, cs, sb, id, "working", 5*time.Second)
	killed := time.Now()
	c.kill(worker)
	st, _ := waitStatus(t, cs, sb, id, "failed", 5*lease)
	took := time.Since(killed)
	t.Logf("the task read failed %v after its replica was killed: %s %s", took.Round(100*time.Millisecond), st.StatusMessage, st.Error)
	if took > lease+2*time.Second {
		t.Errorf("failed %v after the kill: want within the lease (%v) and a poll", took, lease)
	}
}
