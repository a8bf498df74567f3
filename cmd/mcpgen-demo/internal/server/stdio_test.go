package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const initializeLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

func sumCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"calculate_sum","arguments":{"a":%d,"b":1}}}`+"\n", id, id)
}

// pipeDemo runs the built demo on stdio, writes input to its stdin and
// closes it, and returns every line of its stdout and its exit error.
func pipeDemo(t *testing.T, bin, dataDir, input string) ([]map[string]any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-data", dataDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go func() {
		_, _ = io.WriteString(stdin, input)
		_ = stdin.Close()
	}()
	var msgs []map[string]any
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "%s", sc.Bytes())
		msgs = append(msgs, m)
	}
	err = cmd.Wait()
	require.NoError(t, ctx.Err(), "the demo did not exit within 30s; stderr:\n%s", stderr.String())
	return msgs, err
}

// TestStdioEOFDeliversAllResponses: a client that writes initialize and
// three calls and closes stdin at once gets all four responses before the
// demo exits, run after run.
func TestStdioEOFDeliversAllResponses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	bin := buildDemo(t)
	dataDir := filepath.Join(t.TempDir(), "data")
	const runs, calls = 20, 3
	input := initializeLine
	for i := 1; i <= calls; i++ {
		input += sumCall(i)
	}
	lost := 0
	for run := range runs {
		msgs, err := pipeDemo(t, bin, dataDir, input)
		require.NoError(t, err, "run %d", run)
		ids := map[float64]bool{}
		for _, m := range msgs {
			if id, ok := m["id"].(float64); ok {
				require.NotContains(t, m, "error")
				ids[id] = true
				if id > 0 {
					assert.Equal(t, map[string]any{"sum": id + 1}, m["result"].(map[string]any)["structuredContent"])
				}
			}
		}
		lost += 1 + calls - len(ids)
	}
	assert.Zero(t, lost, "responses lost over %d runs of initialize + %d calls", runs, calls)
}

// TestStdioMalformedLines: malformed lines mid-stream are answered with
// parse errors and the demo keeps serving.
func TestStdioMalformedLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	bin := buildDemo(t)
	input := initializeLine +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call",` + "\n" + // cut short
		sumCall(2) +
		strings.Repeat("[", 100000) + "\n" + // nested too deep for any JSON decoder
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":` + strings.Repeat("[", 1500) + strings.Repeat("]", 1500) + "}}\n" + // too deep for go-sdk
		sumCall(4)
	msgs, err := pipeDemo(t, bin, filepath.Join(t.TempDir(), "data"), input)
	require.NoError(t, err)
	require.Len(t, msgs, 6, "%v", msgs) // initialize, 3 parse errors, 2 sums
	// Parse errors are written as lines are read, responses as calls end:
	// the order may differ.
	parseErrors, sums := 0, map[float64]bool{}
	for _, m := range msgs {
		require.Contains(t, m, "id", "%v", m)
		switch id := m["id"].(type) {
		case nil:
			assert.Equal(t, -32700.0, m["error"].(map[string]any)["code"], "%v", m)
			parseErrors++
		case float64:
			require.NotContains(t, m, "error")
			if id > 0 {
				assert.Equal(t, map[string]any{"sum": id + 1}, m["result"].(map[string]any)["structuredContent"])
				sums[id] = true
			}
		}
	}
	assert.Equal(t, 3, parseErrors)
	assert.Equal(t, map[float64]bool{2: true, 4: true}, sums)
}
