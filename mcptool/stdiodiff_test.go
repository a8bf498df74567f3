package mcptool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The differential test of the stdio wire: a whole session, line by line,
// is sent to a server built by Registry.Server and served on mcpgen's
// StdioTransport (own), and to an identical server (a second registry with
// the same tools, the same options: no cross-talk of tasks or log levels)
// served on go-sdk's own newline transport, mcp.IOTransport (ref), where
// go-sdk's session serves every request through the registry's middleware,
// each line given the lift StdioTransport gives the lines it hands go-sdk
// (liftedLines: the 2025-11-25 task param, which go-sdk would drop).
// Only the wire differs. Every line each writes is compared in order, byte
// for byte once what is random by design is masked (diffMasks: task IDs,
// times, error references; the id of a request the server sends the
// client, which the sender picks and the client only echoes, JSON-RPC 2.0
// section 4; and the order of a batch's answers, which "MAY be returned in
// any order", section 6). One request is in flight at a time, or the step
// waits for a notification before it goes on, so the order is
// deterministic. Sessions are played at 2025-11-25 (with the tasks
// extension, and without: the core tasks, a task's whole life), 2025-06-18,
// 2025-03-26 and 2024-11-05 (the last two with batches); each has
// subscriptions/listen and notifications/cancelled of running calls.
//
// Intended differences, each a case of TestStdioDifferentialDiffers with
// the clause that allows it, asserting mcpgen's exact answer and pinning
// go-sdk v1.8.0's:
//
//   - A line that is not JSON, has data after its value, holds two
//     values, nests deeper than 1000 levels or is longer than
//     mcp.DefaultMaxLineLength: -32700 with id null, and the session goes
//     on (JSON-RPC 2.0 section 5.1, "Parse error"; section 5, the id is
//     Null when it could not be detected; MCP 2025-11-25 basic/transports,
//     stdio: messages are delimited by newlines). go-sdk ends the session.
//   - Valid JSON that is no JSON-RPC 2.0 message (jsonrpc "1.0" or
//     missing, an id that is an object, a method that is no string, a
//     response without id): -32600, with the line's id when usable
//     (JSON-RPC 2.0 sections 4 and 5.1, "Invalid Request"). go-sdk ends
//     the session.
//   - A request before initialize: -32600 (MCP 2025-11-25 basic/lifecycle,
//     "Initialization": no requests but pings before initialize; JSON-RPC
//     2.0 section 5.1). go-sdk's error has code 0, which is no JSON-RPC
//     code; any other such error (initialize sent twice) gets -32603.
//   - A call whose id is already in flight: -32600 naming the id (MCP
//     2025-11-25 basic, "Requests": the id MUST NOT have been used before
//     by the requestor in the same session). go-sdk drops it unanswered.
//   - A batch in a session at 2025-06-18 or later, or one whose requests
//     carry per-request protocol metadata: -32600, the session goes on
//     (MCP 2025-06-18 changelog: JSON-RPC batching removed). go-sdk ends
//     the session, or serves the metadata batch.
//   - Batches before 2025-06-18 (JSON-RPC 2.0 section 6): an empty batch
//     gets -32600 with id null; a member that is no message gets its own
//     -32600 inside the answer array; a repeated id or initialize in a
//     batch is refused (MCP 2025-03-26 basic/lifecycle: initialize MUST
//     NOT be part of a batch); more than 16 members get one -32600 (the
//     bound of httpbatch.go's maxBatch). go-sdk ends the session at the
//     first three, answers initialize with code 0, and serves the 17.
//   - A batch holding a notification: mcpgen answers its calls (section 6:
//     no Response object for a notification). go-sdk counts the
//     notification as a call that is never answered, and never writes the
//     batch's answer.
//   - A -32601 error keeps its message: a client's answer to a request
//     the server sent mid-call becomes the call's error as the client
//     wrote it, and tasks/result on a session of the tasks extension says
//     why it is not there (JSON-RPC 2.0 section 5.1: -32601 is for a
//     method that does not exist). go-sdk's jsonrpc2 rewrites every
//     -32601 a handler returns into "method not found" naming the request
//     being served (tools/call, which exists); so do tasks/list (with
//     params or without) on such a session. TestSessionDifferential-
//     Differs lists the same for the session wire.
//   - A subscriptions/listen naming notifications.taskIds (the tasks
//     extension, SEP-2663): mcpgen serves the named tasks' notifications
//     (or, to a client without the extension, -32021); go-sdk drops
//     taskIds and acknowledges an empty listen.
//   - End of input with a call in flight (MCP 2025-11-25 basic/lifecycle,
//     "Shutdown", stdio: the client closes the server's input, then waits
//     for it to exit): mcpgen still answers the call, failing the server's
//     own request that can no longer be answered; go-sdk writes nothing
//     more.

// stdioRunner serves one session over a transport: the server
// Registry.Server returns.
type stdioRunner interface {
	Run(ctx context.Context, t mcp.Transport) error
}

// stdioEnd is the client side of one server served on one wire over pipes.
type stdioEnd struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string   // what the server writes, line by line; closed at its end
	task  string        // the task ID of its last answer that had one
	stop  func()        // cancels Run's context
	done  chan struct{} // closed when Run has returned
}

// startStdioEnd serves srv over pipes, on StdioTransport when own, on
// go-sdk's IOTransport otherwise, until the test ends.
func startStdioEnd(t *testing.T, srv stdioRunner, own bool) *stdioEnd {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	e := &stdioEnd{t: t, in: inW, lines: make(chan string, 64), stop: cancel, done: done}
	var tr mcp.Transport
	if own {
		tr = &StdioTransport{Reader: inR, Writer: outW, Logger: slog.New(slog.DiscardHandler)}
	} else {
		tr = &mcp.IOTransport{Reader: liftedLines(t, inR), Writer: outW}
	}
	go func() {
		defer close(done)
		_ = srv.Run(ctx, tr)
		_ = outW.Close()
	}()
	stop := make(chan struct{})
	go func() {
		defer close(e.lines)
		br := bufio.NewReader(outR)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				select {
				case e.lines <- strings.TrimSuffix(line, "\n"):
				case <-stop:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		cancel()
		_ = inW.Close()
		_ = outR.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop within 10s")
		}
	})
	return e
}

// liftedLines is r with the 2025-11-25 task param of each tools/call line
// lifted into _meta (liftTaskParam), as StdioTransport hands go-sdk the
// lines it does not answer itself: go-sdk v1.8.0 would drop the param
// (pinned by sdkpatch's TestGoSDKDropsWhatTransportsCarry), and the core
// tasks could not be compared.
func liftedLines(t *testing.T, r io.ReadCloser) io.ReadCloser {
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pr.Close() })
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				body, nl := bytes.CutSuffix(line, []byte("\n"))
				out := liftTaskParam(body)
				if nl {
					out = append(out[:len(out):len(out)], '\n')
				}
				if _, werr := pw.Write(out); werr != nil {
					_ = r.Close() // go-sdk closed its reader: so is the client's end
					return
				}
			}
			if err != nil {
				_ = pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// write sends one line; a server that no longer reads fails it.
func (e *stdioEnd) write(line string) {
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(e.in, line+"\n")
		done <- err
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a 16 MiB line under -race on a busy machine
		e.t.Error("a line was not read within 30s")
	}
}

// next is the next line the server wrote: "<end>" once its output ended,
// "<timeout>" if nothing came within d.
func (e *stdioEnd) next(d time.Duration) string {
	select {
	case line, ok := <-e.lines:
		if !ok {
			return "<end>"
		}
		return line
	case <-time.After(d):
		return "<timeout>"
	}
}

// stdioStep is one exchange of a scripted session.
type stdioStep struct {
	name string
	// send are the lines written, in order; {{task}} is replaced with the
	// task ID of the end's last answer that had one.
	send []string
	// until is the id (as JSON) of the response that ends the step; ""
	// reads until the output ends.
	until string
	// wait bounds the wait for each line; 0 means 5s.
	wait time.Duration
	// then is written when the server's first notification arrives (the
	// tool has started).
	then string
	// reply answers a request the server sends the client, given its id.
	reply func(id string) string
	// closeInput closes the server's input once send is written;
	// closeOnRequest closes it instead of answering a request of the
	// server.
	closeInput, closeOnRequest bool
	// batch ends the step at the first answer that is an array (a batch's
	// answer) instead of at until.
	batch bool
	// again, when set, sends the step again (up to 100 times, 20ms apart)
	// while its answer contains it: a task still working. Only the last
	// answer is kept.
	again string
}

// stdioServerRequestID masks the id of a request the server sends.
var stdioServerRequestID = regexp.MustCompile(`^\{"jsonrpc":"2.0","id":(-?[0-9]+|"[^"]*"),"method"`)

func stdioMask(line string) string {
	line = stdioServerRequestID.ReplaceAllString(line, `{"jsonrpc":"2.0","id":"<sid>","method"`)
	for _, m := range diffMasks {
		line = m.re.ReplaceAllString(line, m.with)
	}
	return line
}

var stdioTaskIDField = regexp.MustCompile(`"taskId":"([^"]*)"`)

// run plays step on e and returns the lines the server wrote, masked.
func (e *stdioEnd) run(step stdioStep) []string {
	for attempt := 0; ; attempt++ {
		for _, l := range step.send {
			e.write(strings.ReplaceAll(l, "{{task}}", e.task))
		}
		if step.closeInput {
			_ = e.in.Close()
		}
		var out []string
		for {
			wait := step.wait
			if wait == 0 {
				wait = 5 * time.Second
			}
			line := e.next(wait)
			out = append(out, line)
			if line == "<end>" || line == "<timeout>" {
				break
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method *string         `json:"method"`
			}
			if strings.HasPrefix(line, "[") {
				out[len(out)-1] = sortedBatch(line)
				if step.batch {
					break
				}
				continue
			}
			if json.Unmarshal([]byte(line), &msg) != nil {
				continue
			}
			if msg.Method != nil {
				switch {
				case msg.ID == nil:
					if step.then != "" {
						e.write(step.then)
						step.then = ""
					}
				case step.closeOnRequest:
					_ = e.in.Close()
				case step.reply != nil:
					e.write(step.reply(string(msg.ID)))
				}
				continue
			}
			if step.until != "" && sameID(msg.ID, step.until) {
				break
			}
		}
		last := out[len(out)-1]
		if step.again != "" && strings.Contains(last, step.again) && attempt < 100 {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		for _, l := range out {
			if m := stdioTaskIDField.FindStringSubmatch(l); m != nil {
				e.task = m[1]
			}
		}
		for i := range out {
			out[i] = sortedTasks(stdioMask(out[i]))
		}
		return out
	}
}

// sortedBatch orders the members of a batch's answer by their text: a
// server may answer the calls of a batch in any order (JSON-RPC 2.0
// section 6).
func sortedBatch(line string) string {
	var members []json.RawMessage
	if json.Unmarshal([]byte(line), &members) != nil {
		return line
	}
	texts := make([]string, len(members))
	for i, m := range members {
		texts[i] = string(m) // as written, not re-encoded
	}
	slices.Sort(texts)
	return "[" + strings.Join(texts, ",") + "]"
}

// sortedTasks orders the tasks of a masked tasks/list answer by their
// text: the store lists them by ID, which is random by design.
func sortedTasks(line string) string {
	head, rest, ok := strings.Cut(line, `"tasks":[{`)
	if !ok {
		return line
	}
	list, tail, ok := strings.Cut(rest, `}]`)
	if !ok {
		return line
	}
	tasks := strings.Split(list, `},{`)
	slices.Sort(tasks)
	return head + `"tasks":[{` + strings.Join(tasks, `},{`) + `}]` + tail
}

// sameID reports whether the id of a response is the JSON text want, as
// JSON values: the server may escape a string id or round a number its own
// way.
func sameID(id json.RawMessage, want string) bool {
	var a, b any
	return id != nil && json.Unmarshal(id, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && a == b
}

// stdioDiffServer is the server of each end: diffRegistry's tools and
// block, which runs until it is cancelled.
func stdioDiffServer(t *testing.T) stdioRunner {
	t.Helper()
	reg := diffRegistry(t)
	require.NoError(t, reg.Add("block", func(ctx context.Context) (string, error) {
		Progress(ctx, 0, 1, "started")
		<-ctx.Done()
		return "", ctx.Err()
	}, Description("Blocks until cancelled.")))
	require.NoError(t, reg.Add("wait", func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, Description("Waits, as a task, until cancelled."), Task()))
	return reg.Server(&mcp.Implementation{Name: "diff", Version: "1"}, nil)
}

func stdioInit(version, capabilities string) string {
	return `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + capabilities + `,"clientInfo":{"name":"c","version":"1"}}}`
}

func stdioCallLine(id, name, args string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
}

// blockCall calls block with a progress token: its first progress
// notification says it runs.
func blockCall(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"block","arguments":{},"_meta":{"progressToken":"run"}}}`
}

func stdioPing(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`
}

// stdioSession is the script of a whole session at version.
func stdioSession(version, capabilities string) []stdioStep {
	accept := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"action":"accept","content":{"name":"Ann"}}}`
	}
	decline := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"action":"decline"}}`
	}
	fail := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32000,"message":"the user went away"}}`
	}
	bad := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"action":"maybe"}}`
	}
	steps := []stdioStep{
		{name: "ping before initialize", send: []string{stdioPing(`"early"`)}, until: `"early"`},
		{name: "initialize", send: []string{stdioInit(version, capabilities)}, until: `"init"`},
		{name: "initialized", send: []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, stdioPing(`"sync"`)}, until: `"sync"`},
		{name: "ping numeric id", send: []string{stdioPing("1")}, until: "1"},
		{name: "ping params null", send: []string{`{"jsonrpc":"2.0","id":2,"method":"ping","params":null}`}, until: "2"},
		{name: "ping id 0", send: []string{stdioPing("0")}, until: "0"},
		{name: "ping negative id", send: []string{stdioPing("-7")}, until: "-7"},
		{name: "ping empty string id", send: []string{stdioPing(`""`)}, until: `""`},
		{name: "ping fractional id", send: []string{stdioPing("1.5")}, until: "1"},
		{name: "ping id null", send: []string{stdioPing("null"), stdioPing(`"sync"`)}, until: `"sync"`},
		{name: "tools/list", send: []string{`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`}, until: `"l"`},
		{name: "tools/list params empty", send: []string{`{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{}}`}, until: `"l"`},
		{name: "tools/list cursor", send: []string{`{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{"cursor":"YWRk"}}`}, until: `"l"`},
		{name: "tools/list query", send: []string{`{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{"query":"add"}}`}, until: `"l"`},
		{name: "tools/list bad cursor", send: []string{`{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{"cursor":"!!"}}`}, until: `"l"`},
		{name: "call", send: []string{stdioCallLine("3", "add", `{"a":1,"b":2}`)}, until: "3"},
		{name: "call string id", send: []string{stdioCallLine(`"x"`, "add", `{"a":1,"b":2}`)}, until: `"x"`},
		{name: "call escaped string id", send: []string{stdioCallLine(`"a\u003cb\"c"`, "add", `{"a":1,"b":2}`)}, until: `"a\u003cb\"c"`},
		{name: "call big id", send: []string{stdioCallLine("9007199254740993", "add", `{"a":1,"b":2}`)}, until: "9007199254740993"},
		{name: "invalid arguments", send: []string{stdioCallLine("4", "add", `{"a":-1,"b":"x"}`)}, until: "4"},
		{name: "malformed arguments", send: []string{stdioCallLine("4", "add", `[1]`)}, until: "4"},
		{name: "arguments null", send: []string{stdioCallLine("4", "add", `null`)}, until: "4"},
		{name: "arguments missing", send: []string{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"progress"}}`}, until: "4"},
		{name: "unknown argument", send: []string{stdioCallLine("4", "add", `{"a":1,"b":2,"c":3}`)}, until: "4"},
		{name: "params null", send: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":null}`}, until: "5"},
		{name: "params missing", send: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/call"}`}, until: "5"},
		{name: "params an array", send: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":[1]}`}, until: "5"},
		{name: "name not a string", send: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":5,"arguments":{}}}`}, until: "5"},
		{name: "name empty", send: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"","arguments":{}}}`}, until: "5"},
		{name: "tool error", send: []string{stdioCallLine("6", "fail", `{}`)}, until: "6"},
		{name: "unknown tool", send: []string{stdioCallLine("7", "nope", `{}`)}, until: "7"},
		{name: "scoped tool", send: []string{stdioCallLine("7", "scoped", `{}`)}, until: "7"},
		{name: "progress", send: []string{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"p1"}}}`}, until: "8"},
		{name: "progress numeric token", send: []string{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":42}}}`}, until: "8"},
		{name: "progress without token", send: []string{stdioCallLine("8", "progress", `{}`)}, until: "8"},
		{name: "log before setLevel", send: []string{stdioCallLine("9", "log", `{}`)}, until: "9"},
		{name: "logging/setLevel", send: []string{`{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"info"}}`}, until: "10"},
		{name: "log", send: []string{stdioCallLine("11", "log", `{}`)}, until: "11"},
		{name: "logging/setLevel error", send: []string{`{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"error"}}`}, until: "10"},
		{name: "log below level", send: []string{stdioCallLine("11", "log", `{}`)}, until: "11"},
		{name: "logging/setLevel bad level", send: []string{`{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"loud"}}`}, until: "10"},
		{name: "elicitation accepted", send: []string{stdioCallLine("12", "ask", `{}`)}, until: "12", reply: accept},
		{name: "elicitation declined", send: []string{stdioCallLine("12", "ask", `{}`)}, until: "12", reply: decline},
		{name: "elicitation failed", send: []string{stdioCallLine("12", "ask", `{}`)}, until: "12", reply: fail},
		{name: "elicitation answered badly", send: []string{stdioCallLine("12", "ask", `{}`)}, until: "12", reply: bad},
		{name: "task call", send: []string{stdioCallLine("13", "job", `{}`)}, until: "13"},
		{name: "tasks/get", send: []string{`{"jsonrpc":"2.0","id":14,"method":"tasks/get","params":{"taskId":"{{task}}"}}`}, until: "14", again: `"status":"working"`},
		{name: "tasks/cancel done", send: []string{`{"jsonrpc":"2.0","id":14,"method":"tasks/cancel","params":{"taskId":"{{task}}"}}`}, until: "14"},
		{name: "tasks/get unknown", send: []string{`{"jsonrpc":"2.0","id":15,"method":"tasks/get","params":{"taskId":"nope"}}`}, until: "15"},
		{name: "tasks/cancel unknown", send: []string{`{"jsonrpc":"2.0","id":15,"method":"tasks/cancel","params":{"taskId":"nope"}}`}, until: "15"},
		{name: "cancelled in flight", send: []string{blockCall("16")}, then: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":16,"reason":"enough"}}`, until: "16"},
		{name: "cancelled in flight, string id", send: []string{blockCall(`"b"`)}, then: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}`, until: `"b"`},
		{name: "cancelled unknown id", send: []string{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}`, stdioPing(`"sync"`)}, until: `"sync"`},
		{name: "unknown notification", send: []string{`{"jsonrpc":"2.0","method":"notifications/whatever"}`, stdioPing(`"sync"`)}, until: `"sync"`},
		{name: "roots list_changed", send: []string{`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, stdioPing(`"sync"`)}, until: `"sync"`},
		{name: "unexpected response", send: []string{`{"jsonrpc":"2.0","id":999,"result":{}}`, stdioPing(`"sync"`)}, until: `"sync"`},
		{name: "unknown method", send: []string{`{"jsonrpc":"2.0","id":17,"method":"foo/bar","params":{}}`}, until: "17"},
		{name: "method empty", send: []string{`{"jsonrpc":"2.0","id":17,"method":""}`}, until: "17"},
		{name: "resources/list", send: []string{`{"jsonrpc":"2.0","id":18,"method":"resources/list"}`}, until: "18"},
		{name: "prompts/list", send: []string{`{"jsonrpc":"2.0","id":18,"method":"prompts/list"}`}, until: "18"},
		{name: "completion/complete", send: []string{`{"jsonrpc":"2.0","id":18,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"x"},"argument":{"name":"a","value":"b"}}}`}, until: "18"},
		{name: "CRLF line", send: []string{stdioPing(`"crlf"`) + "\r"}, until: `"crlf"`},
		{name: "blank lines", send: []string{"", "   ", stdioPing(`"blank"`)}, until: `"blank"`},
		{name: "after all", send: []string{stdioCallLine("19", "add", `{"a":2,"b":2}`)}, until: "19"},
	}
	listen := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":` + params + `}`
	}
	cancelled := func(id string) string {
		return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`
	}
	steps = append(steps,
		stdioStep{name: "subscriptions/listen, cancelled", send: []string{listen(`"sub"`, `{"notifications":{"toolsListChanged":true}}`)}, then: cancelled(`"sub"`), until: `"sub"`},
		stdioStep{name: "subscriptions/listen of nothing", send: []string{listen(`"sub"`, `{"notifications":{}}`)}, until: `"sub"`},
		stdioStep{name: "subscriptions/listen without notifications", send: []string{listen(`"sub"`, `{}`)}, until: `"sub"`},
		stdioStep{name: "cancelled in flight, fractional id", send: []string{blockCall("21")}, then: cancelled("21.0"), until: "21"},
		stdioStep{name: "cancelled in flight twice", send: []string{blockCall("22")}, then: cancelled("22") + "\n" + cancelled("22"), until: "22"},
		stdioStep{name: "cancelled in flight, other id type first", send: []string{blockCall("23")}, then: cancelled(`"23"`) + "\n" + cancelled("23"), until: "23"},
	)
	if !strings.Contains(capabilities, TasksExtension) {
		// With the extension, tasks/result and tasks/list are
		// TestStdioDifferentialDiffers'.
		steps = append(steps,
			stdioStep{name: "tasks/result unknown", send: []string{`{"jsonrpc":"2.0","id":15,"method":"tasks/result","params":{"taskId":"nope"}}`}, until: "15"},
			stdioStep{name: "tasks/list", send: []string{`{"jsonrpc":"2.0","id":15,"method":"tasks/list"}`}, until: "15"},
			stdioStep{name: "tasks/list params empty", send: []string{`{"jsonrpc":"2.0","id":15,"method":"tasks/list","params":{}}`}, until: "15"},
			stdioStep{name: "tasks/list params null", send: []string{`{"jsonrpc":"2.0","id":15,"method":"tasks/list","params":null}`}, until: "15"},
		)
	}
	if version == "2025-11-25" && !strings.Contains(capabilities, TasksExtension) {
		// The core tasks of 2025-11-25 (basic/utilities/tasks).
		taskCall := func(id, name, task string) string {
			return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":{},"task":` + task + `}}`
		}
		req := func(id, method, params string) string {
			return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
		}
		steps = append(steps,
			stdioStep{name: "core: task", send: []string{taskCall("30", "job", `{"ttl":60000}`)}, until: "30"},
			stdioStep{name: "core: tasks/get", send: []string{req("31", "tasks/get", `{"taskId":"{{task}}"}`)}, until: "31", again: `"status":"working"`},
			stdioStep{name: "core: tasks/result", send: []string{req("32", "tasks/result", `{"taskId":"{{task}}"}`)}, until: "32"},
			stdioStep{name: "core: tasks/cancel done", send: []string{req("33", "tasks/cancel", `{"taskId":"{{task}}"}`)}, until: "33"},
			stdioStep{name: "core: task without ttl", send: []string{taskCall("34", "job", `{}`)}, until: "34"},
			stdioStep{name: "core: task of a tool without tasks", send: []string{taskCall("35", "add", `{}`)}, until: "35"},
			stdioStep{name: "core: task not an object", send: []string{taskCall("36", "job", `5`)}, until: "36"},
			stdioStep{name: "core: task ttl negative", send: []string{taskCall("36", "job", `{"ttl":-1}`)}, until: "36"},
			stdioStep{name: "core: waiting task", send: []string{taskCall("37", "wait", `{}`)}, until: "37"},
			stdioStep{name: "core: cancelled, a task's call", send: []string{cancelled("37"), stdioPing(`"sync"`)}, until: `"sync"`},
			stdioStep{name: "core: tasks/get working", send: []string{req("38", "tasks/get", `{"taskId":"{{task}}"}`)}, until: "38"},
			stdioStep{name: "core: tasks/cancel working", send: []string{req("39", "tasks/cancel", `{"taskId":"{{task}}"}`)}, until: "39"},
			stdioStep{name: "core: tasks/get cancelled", send: []string{req("40", "tasks/get", `{"taskId":"{{task}}"}`)}, until: "40"},
			stdioStep{name: "core: tasks/result cancelled", send: []string{req("41", "tasks/result", `{"taskId":"{{task}}"}`)}, until: "41"},
			stdioStep{name: "core: tasks/list", send: []string{`{"jsonrpc":"2.0","id":42,"method":"tasks/list"}`}, until: "42"},
			stdioStep{name: "core: tasks/list params empty", send: []string{req("42", "tasks/list", `{}`)}, until: "42"},
			stdioStep{name: "core: tasks/list bad cursor", send: []string{req("42", "tasks/list", `{"cursor":"!!"}`)}, until: "42"},
			stdioStep{name: "core: tasks/get without params", send: []string{`{"jsonrpc":"2.0","id":43,"method":"tasks/get"}`}, until: "43"},
			stdioStep{name: "core: tasks/get taskId not a string", send: []string{req("43", "tasks/get", `{"taskId":5}`)}, until: "43"},
		)
	}
	if version < "2025-06-18" {
		// Batches: JSON-RPC 2.0 section 6, before MCP removed them.
		steps = append(steps,
			stdioStep{name: "batch", batch: true, send: []string{`[` + stdioPing(`"b1"`) + `,` + stdioCallLine(`"b2"`, "add", `{"a":1,"b":2}`) + `,` + stdioCallLine("3", "fail", `{}`) + `,` + stdioCallLine("4", "nope", `{}`) + `]`}},
			stdioStep{name: "batch of one", batch: true, send: []string{`[` + stdioPing(`"b1"`) + `]`}},
			stdioStep{name: "batch with progress", batch: true, send: []string{`[{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"p1"}}}]`}},
			stdioStep{name: "after batches", send: []string{stdioPing(`"after"`)}, until: `"after"`},
		)
	}
	return append(steps, stdioStep{name: "end of input", closeInput: true})
}

// TestStdioDifferential plays whole sessions, at each protocol revision, to
// both wires and compares every line.
func TestStdioDifferential(t *testing.T) {
	sessions := []struct {
		name, version, capabilities string
	}{
		{"2025-11-25", "2025-11-25", `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`},
		{"2025-11-25 core tasks", "2025-11-25", `{"elicitation":{}}`},
		{"2025-06-18", "2025-06-18", `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`},
		{"2025-03-26", "2025-03-26", `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`},
		{"2024-11-05", "2024-11-05", `{}`},
	}
	for _, s := range sessions {
		t.Run(s.name, func(t *testing.T) {
			own := startStdioEnd(t, stdioDiffServer(t), true)
			ref := startStdioEnd(t, stdioDiffServer(t), false)
			for _, step := range stdioSession(s.version, s.capabilities) {
				t.Run(step.name, func(t *testing.T) {
					o, r := own.run(step), ref.run(step)
					assert.Equal(t, r, o)
					t.Logf("%s", strings.Join(o, "\n"))
					for _, l := range o {
						assert.NotEqual(t, "<timeout>", l)
					}
				})
			}
		})
	}
}

// TestStdioDifferentialDiffers: each intended difference of the stdio wire,
// with the clause that allows it (the list at the top of this file):
// mcpgen's exact answer, and go-sdk's as observed with v1.8.0 ("<end>": it
// ended the session; "<timeout>": it wrote nothing).
func TestStdioDifferentialDiffers(t *testing.T) {
	const after = `{"jsonrpc":"2.0","id":"after","result":{}}`
	ping := stdioPing(`"after"`)
	const elicit = `{"jsonrpc":"2.0","id":"<sid>","method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"properties":{"name":{"type":"string"}},"type":"object"}}}`
	deep := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`
	long := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", mcp.DefaultMaxLineLength) + `"}}`
	batchOf := func(n int) string {
		calls := make([]string, n)
		for i := range calls {
			calls[i] = stdioPing(strconv.Itoa(i))
		}
		return "[" + strings.Join(calls, ",") + "]"
	}
	pongs := func(n int) string { // go-sdk's answer to batchOf(n), sorted
		ids := make([]string, n)
		for i := range ids {
			ids[i] = strconv.Itoa(i)
		}
		slices.Sort(ids)
		for i, id := range ids {
			ids[i] = `{"jsonrpc":"2.0","id":` + id + `,"result":{}}`
		}
		return "[" + strings.Join(ids, ",") + "]"
	}
	cases := []struct {
		name, clause string
		version      string // the session's, "" for none
		capabilities string
		step         stdioStep
		own, ref     []string
		cleanup      *stdioStep // played on both after step, not compared
		refMay       string     // a line of go-sdk's holding this may or may not be written (a race of its own)
	}{
		{name: "invalid JSON", clause: "JSON-RPC 2.0 section 5.1 (-32700 Parse error), section 5 (id Null when undetectable)",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":1,"method":"ping"`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid JSON"}}`, after},
			ref:  []string{"<end>"}},
		{name: "not JSON", clause: "JSON-RPC 2.0 section 5.1 (-32700 Parse error)",
			step: stdioStep{send: []string{`hello`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid JSON"}}`, after},
			ref:  []string{"<end>"}},
		{name: "trailing data", clause: "JSON-RPC 2.0 section 5.1 (-32700 Parse error); MCP 2025-11-25 basic/transports, stdio (messages are delimited by newlines)",
			step: stdioStep{send: []string{stdioPing("1") + ` x`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid JSON"}}`, after},
			ref:  []string{"<end>"}},
		{name: "two messages on one line", clause: "MCP 2025-11-25 basic/transports, stdio (messages are delimited by newlines); JSON-RPC 2.0 section 5.1",
			step: stdioStep{send: []string{stdioPing(`"a"`) + stdioPing(`"b"`), ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid JSON"}}`, after},
			ref:  []string{"<end>"}},
		{name: "nested deeper than 1000", clause: "JSON-RPC 2.0 section 5.1 (-32700 Parse error)",
			step: stdioStep{send: []string{deep, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: JSON nested deeper than 1000 levels"}}`, after},
			ref:  []string{"<end>"}},
		{name: "line too long", clause: "JSON-RPC 2.0 section 5.1 (-32700 Parse error)",
			step: stdioStep{send: []string{long, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: line longer than 16777216 bytes"}}`, after},
			ref:  []string{"<end>"}},
		{name: "jsonrpc 1.0", clause: "JSON-RPC 2.0 section 4 (jsonrpc MUST be exactly \"2.0\"), section 5.1 (-32600 Invalid Request)",
			step: stdioStep{send: []string{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: invalid message version tag \"1.0\"; expected \"2.0\""}}`, after},
			ref:  []string{"<end>"}},
		{name: "jsonrpc missing", clause: "JSON-RPC 2.0 section 4, section 5.1 (-32600 Invalid Request)",
			step: stdioStep{send: []string{`{"id":"x","method":"ping"}`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"invalid request: invalid message version tag \"\"; expected \"2.0\""}}`, after},
			ref:  []string{"<end>"}},
		{name: "id an object", clause: "JSON-RPC 2.0 section 4 (id: String, Number or Null), section 5 (id Null when undetectable)",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: parse error: invalid ID type map[string]interface {}"}}`, after},
			ref:  []string{"<end>"}},
		{name: "method not a string", clause: "JSON-RPC 2.0 section 4 (method: a String), section 5.1 (-32600 Invalid Request)",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":1,"method":5}`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: unmarshaling jsonrpc message: json: cannot unmarshal \"5\" into Go value of type string"}}`, after},
			ref:  []string{"<end>"}},
		{name: "response without id", clause: "JSON-RPC 2.0 section 5 (a response has an id), section 5.1 (-32600 Invalid Request)",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","result":{}}`, ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: invalid request"}}`, after},
			ref:  []string{"<end>"}},
		{name: "request before initialize", clause: "MCP 2025-11-25 basic/lifecycle, Initialization (no requests but ping before initialize); JSON-RPC 2.0 section 5.1 (code 0 is no JSON-RPC code; -32600 Invalid Request)",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}, until: "1"},
			own:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: method \"tools/list\" is invalid during session initialization (send initialize first)"}}`},
			ref:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"method \"tools/list\" is invalid during session initialization"}}`}},
		{name: "initialize again", version: "2025-11-25", capabilities: `{}`, clause: "JSON-RPC 2.0 section 5.1 (code 0 is no JSON-RPC code: -32603 Internal error); MCP 2025-11-25 basic/lifecycle (initialize is the first interaction, once)",
			step: stdioStep{send: []string{stdioInit("2025-11-25", `{}`)}, until: `"init"`},
			own:  []string{`{"jsonrpc":"2.0","id":"init","error":{"code":-32603,"message":"duplicate \"initialize\" received"}}`},
			ref:  []string{`{"jsonrpc":"2.0","id":"init","error":{"code":0,"message":"duplicate \"initialize\" received"}}`}},
		{name: "id already in flight", version: "2025-11-25", capabilities: `{}`, clause: "MCP 2025-11-25 basic, Requests (the request ID MUST NOT have been previously used by the requestor within the same session); JSON-RPC 2.0 section 5.1",
			step:    stdioStep{send: []string{stdioCallLine("7", "block", `{}`), stdioCallLine("7", "add", `{"a":1,"b":2}`), ping}, until: `"after"`},
			cleanup: &stdioStep{send: []string{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`}, until: "7"},
			own:     []string{`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: id 7 is already in use by a request in flight"}}`, after},
			ref:     []string{after}},
		{name: "batch at 2025-06-18", version: "2025-06-18", capabilities: `{}`, clause: "MCP 2025-06-18 changelog (JSON-RPC batching removed); MCP 2025-11-25 basic/transports, stdio (a line is one request, notification or response)",
			step: stdioStep{send: []string{"[" + stdioPing("1") + "]", ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are not supported in 2025-06-18 and later"}}`, after},
			ref:  []string{"<end>"}},
		{name: "batch at 2025-11-25", version: "2025-11-25", capabilities: `{}`, clause: "MCP 2025-11-25 basic/transports, stdio (a line is one request, notification or response)",
			step: stdioStep{send: []string{"[" + stdioPing("1") + "]", ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are not supported in 2025-06-18 and later"}}`, after},
			ref:  []string{"<end>"}},
		{name: "empty batch", version: "2024-11-05", capabilities: `{}`, clause: "JSON-RPC 2.0 section 6 (an empty Array: -32600 Invalid Request, id Null)",
			step: stdioStep{send: []string{"[]", ping}, until: `"after"`},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}`, after},
			ref:  []string{"<end>"}},
		{name: "batch member not a message", version: "2024-11-05", capabilities: `{}`, clause: "JSON-RPC 2.0 section 6 (an invalid member gets its own -32600 in the answer array)",
			step: stdioStep{send: []string{"[" + stdioPing("1") + `,{"jsonrpc":"1.0","id":2,"method":"ping"},1]`}, batch: true},
			own:  []string{`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: invalid message version tag \"1.0\"; expected \"2.0\""}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: unmarshaling jsonrpc message: json: cannot unmarshal \"1\" into Go value of type jsonrpc2.wireDecode"}}]`},
			ref:  []string{"<end>"}},
		{name: "batch with a notification", version: "2024-11-05", capabilities: `{}`, clause: "JSON-RPC 2.0 section 6 (no response for a notification; the array once all calls are answered)",
			step: stdioStep{send: []string{"[" + stdioPing("1") + `,{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`}, batch: true, wait: 500 * time.Millisecond},
			own:  []string{`[{"jsonrpc":"2.0","id":1,"result":{}}]`},
			ref:  []string{"<timeout>"}},
		{name: "batch repeating an id", version: "2024-11-05", capabilities: `{}`, clause: "MCP 2025-11-25 basic, Requests (an id is not reused in a session); JSON-RPC 2.0 section 6",
			step: stdioStep{send: []string{"[" + stdioPing("1") + "," + stdioPing("1") + "]"}, batch: true},
			own:  []string{`[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: an id already in use, or initialize, in a batch"}},{"jsonrpc":"2.0","id":1,"result":{}}]`},
			ref:  []string{"<end>"}},
		{name: "batch with initialize", version: "2024-11-05", capabilities: `{}`, clause: "MCP 2025-03-26 basic/lifecycle (the initialization request MUST NOT be part of a JSON-RPC batch)",
			step: stdioStep{send: []string{"[" + stdioPing("1") + "," + stdioInit("2024-11-05", `{}`) + "]"}, batch: true},
			own:  []string{`[{"jsonrpc":"2.0","id":"init","error":{"code":-32600,"message":"invalid request: an id already in use, or initialize, in a batch"}},{"jsonrpc":"2.0","id":1,"result":{}}]`},
			ref:  []string{`[{"jsonrpc":"2.0","id":"init","error":{"code":0,"message":"duplicate \"initialize\" received"}},{"jsonrpc":"2.0","id":1,"result":{}}]`}},
		{name: "batch of 17", version: "2024-11-05", capabilities: `{}`, clause: "JSON-RPC 2.0 section 6 (a batch not taken as a whole gets one Response object) and 5.1 (-32600 Invalid Request); the bound is httpbatch.go's maxBatch",
			step: stdioStep{send: []string{batchOf(17)}, until: "null", batch: true},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a batch holds at most 16 messages"}}`},
			ref:  []string{pongs(17)}},
		{name: "batch with per-request protocol metadata", version: "2024-11-05", capabilities: `{}`, clause: "MCP 2025-06-18 changelog (batching removed): a request with per-request io.modelcontextprotocol/protocolVersion belongs to a later revision",
			step: stdioStep{send: []string{`[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}]`}, until: "null", batch: true},
			own:  []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are not supported in 2025-06-18 and later"}}`},
			ref:  []string{`[{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"missing or invalid _meta field \"io.modelcontextprotocol/clientCapabilities\""}}]`}},
		{name: "client's -32601 to a request mid-call", version: "2025-11-25", capabilities: `{"elicitation":{}}`, clause: "JSON-RPC 2.0 section 5.1 (-32601 is for a method that does not exist; tools/call does): the call's error keeps the client's message",
			step: stdioStep{send: []string{stdioCallLine("1", "ask", `{}`)}, until: "1", reply: func(id string) string {
				return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32601,"message":"no elicitation here"}}`
			}},
			own: []string{elicit, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no elicitation here"}}`},
			ref: []string{elicit, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: \"tools/call\""}}`}},
		{name: "tasks-result on an extension session", version: "2025-11-25", capabilities: `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, clause: "JSON-RPC 2.0 section 5.1 (-32601: the method is not available); MCP 2025-11-25 basic/utilities/tasks (tasks/result is the core tasks'): the -32601 keeps mcpgen's message",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"nope"}}`}, until: "1"},
			own:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"tasks/result belongs to the 2025-11-25 tasks; this session uses the tasks extension"}}`},
			ref:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: \"tasks/result\""}}`}},
		{name: "tasks-list on an extension session", version: "2025-11-25", capabilities: `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, clause: "JSON-RPC 2.0 section 5.1 (-32601: the method is not available); MCP 2025-11-25 basic/utilities/tasks (tasks/list is the core tasks'): the -32601 keeps mcpgen's message",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":1,"method":"tasks/list"}`}, until: "1"},
			own:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"tasks/list belongs to the 2025-11-25 tasks; this session uses the tasks extension"}}`},
			ref:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: \"tasks/list\""}}`}},
		{name: "tasks-list with params on an extension session", version: "2025-11-25", capabilities: `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, clause: "JSON-RPC 2.0 section 5.1 (-32601: the method is not available); MCP 2025-11-25 basic/utilities/tasks (tasks/list is the core tasks'): the -32601 keeps mcpgen's message",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{}}`}, until: "1"},
			own:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"tasks/list belongs to the 2025-11-25 tasks; this session uses the tasks extension"}}`},
			ref:  []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: \"tasks/list\""}}`}},
		{name: "subscriptions-listen naming taskIds", version: "2025-11-25", capabilities: `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, clause: "tasks extension (SEP-2663), subscriptions/listen: notifications.taskIds names the tasks whose notifications/tasks the client receives; the acknowledgement lists those it will (none of unknown ones)",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{"notifications":{"taskIds":["nope"]}}}`}, until: `"sub"`},
			own: []string{`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub"},"notifications":{"taskIds":[]}}}`,
				`{"jsonrpc":"2.0","id":"sub","result":{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub"}}}`},
			ref: []string{`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub"},"notifications":{}}}`,
				`{"jsonrpc":"2.0","id":"sub","result":{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub"}}}`}},
		{name: "subscriptions-listen naming taskIds without the extension", version: "2025-11-25", capabilities: `{}`, clause: "tasks extension (SEP-2663): a request using the extension from a client that did not declare it gets -32021 naming the capability",
			step: stdioStep{send: []string{`{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{"notifications":{"taskIds":["nope"]}}}`}, until: `"sub"`},
			own:  []string{`{"jsonrpc":"2.0","id":"sub","error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},"capability":"io.modelcontextprotocol/tasks"}}}`},
			ref: []string{`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub"},"notifications":{}}}`,
				`{"jsonrpc":"2.0","id":"sub","result":{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub"}}}`}},
		{name: "end of input with a call in flight", version: "2025-11-25", capabilities: `{"elicitation":{}}`, clause: "MCP 2025-11-25 basic/lifecycle, Shutdown, stdio (the client closes the server's input and waits for it to exit)",
			step:   stdioStep{send: []string{stdioCallLine("1", "ask", `{}`)}, closeOnRequest: true},
			refMay: `"method":"notifications/cancelled"`, // go-sdk cancelling its elicitation, if it gets to write it before the end
			own:    []string{`{"jsonrpc":"2.0","id":"<sid>","method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"properties":{"name":{"type":"string"}},"type":"object"}}}`, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"internal error (ref <ref>)"}],"isError":true}}`, "<end>"},
			ref:    []string{`{"jsonrpc":"2.0","id":"<sid>","method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"properties":{"name":{"type":"string"}},"type":"object"}}}`, "<end>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			own := startStdioEnd(t, stdioDiffServer(t), true)
			ref := startStdioEnd(t, stdioDiffServer(t), false)
			for _, e := range []*stdioEnd{own, ref} {
				if c.version != "" {
					e.run(stdioStep{send: []string{stdioInit(c.version, c.capabilities), `{"jsonrpc":"2.0","method":"notifications/initialized"}`}, until: `"init"`})
				}
			}
			o, r := own.run(c.step), ref.run(c.step)
			t.Logf("%s\nown: %q\nref: %q", c.clause, o, r)
			assert.Equal(t, c.own, o, "mcpgen's answer")
			if c.refMay != "" {
				r = slices.DeleteFunc(r, func(l string) bool { return strings.Contains(l, c.refMay) })
			}
			assert.Equal(t, c.ref, r, "go-sdk's answer")
			if c.cleanup != nil {
				own.run(*c.cleanup)
				ref.run(*c.cleanup)
			}
		})
	}
}

// TestStdioDifferentialRunCancelled: Run's context ends while a call runs
// whose tool returns only when its context is done (or when the test lets
// it go). On StdioTransport the call is cancelled and Run returns, as
// Server.Run's doc says ("until the client ends it or ctx is done"). On
// go-sdk's IOTransport the session is closed but the call's context is
// not cancelled (go-sdk v1.8.0's own mcp.Server.Run does the same with a
// plain go-sdk tool): Run returns only once the tool does, and the call
// is never answered. An intended
// difference of no protocol clause: the contract of Run's context.
func TestStdioDifferentialRunCancelled(t *testing.T) {
	for _, own := range []bool{true, false} {
		t.Run(map[bool]string{true: "own", false: "go-sdk"}[own], func(t *testing.T) {
			release := make(chan struct{})
			reg := diffRegistry(t)
			require.NoError(t, reg.Add("hold", func(ctx context.Context) (string, error) {
				Progress(ctx, 0, 1, "started")
				select {
				case <-ctx.Done():
					return "", ctx.Err()
				case <-release:
					return "released", nil
				}
			}, Description("Holds until cancelled or released.")))
			var srv stdioRunner = reg.Server(&mcp.Implementation{Name: "diff", Version: "1"}, nil)
			e := startStdioEnd(t, srv, own)
			e.run(stdioStep{send: []string{stdioInit("2025-11-25", `{}`), `{"jsonrpc":"2.0","method":"notifications/initialized"}`}, until: `"init"`})
			e.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{},"_meta":{"progressToken":"run"}}}`)
			require.Contains(t, e.next(5*time.Second), `"started"`)
			e.stop()
			var returned bool
			select {
			case <-e.done:
				returned = true
			case <-time.After(time.Second):
			}
			close(release)
			select {
			case <-e.done:
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return once the tool did")
			}
			var rest []string
			for line := ""; line != "<end>" && line != "<timeout>"; {
				line = e.next(5 * time.Second)
				rest = append(rest, stdioMask(line))
			}
			t.Logf("returned within 1s: %v; then: %q", returned, rest)
			assert.Equal(t, own, returned, "Run returned within 1s of its context's end")
			if own && len(rest) == 2 { // the call's answer may beat the end
				assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"the call was cancelled before the tool finished"}],"isError":true}}`, rest[0])
				rest = rest[1:]
			}
			assert.Equal(t, []string{"<end>"}, rest)
		})
	}
}
