//lint:file-ignore SA1019 sampling and roots are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the 2025-era sessions this test serves.

package mcptool

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The differential test of the 2025-era sessions over streamable HTTP:
// the same requests go to NewHTTPHandler as built (own) and to the same
// handler with mcpgen's own paths off (ref, newHTTPHandler's own false),
// where go-sdk's streamable sessions answer. Each side opens its own
// sessions, one side after the other; each case is a script of requests
// (initialize, the calls, the server's requests mid-call and the client's
// answers, cancellation, DELETE, the standalone GET stream) whose answers
// are compared: the HTTP status, the headers that matter and the body,
// byte for byte once what is random or the server's choice by design is
// masked (session IDs, SSE event IDs, the IDs of the server's own
// requests, task IDs and times). The handler's default EventStore is on:
// the 2025-11-25 streams open with a priming event, and every event has
// an ID.
//
// Intended differences are the cases of TestSessionDifferentialDiffers,
// each with the clause that allows it and mcpgen's exact answer asserted.

// sessionTimeout bounds every request of these tests: a stream that does
// not end is a failure, not a hang.
const sessionTimeout = 10 * time.Second

// sessionMasks are what differs between two sessions by design, beyond
// diffMasks.
var sessionMasks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(?m)^id: .*$`), `id: <event>`},
	// The ID of a request the server sends (one with an id and a method):
	// the requestor's choice (MCP 2025-11-25 basic, "Requests": a string
	// or integer ID, not used before by the requestor in the session).
	// The client's answer carries each side's own.
	{regexp.MustCompile(`"id":(-?[0-9]+|"(?:[^"\\]|\\.)*"),"method":`), `"id":"<server request>","method":`},
}

// sessionTools are what the tools of sessionRegistry signal.
type sessionTools struct {
	reg       *Registry
	started   chan string // the blocking tool started, with its argument
	cancelled chan string // the blocking tool saw its context end
}

// sessionRegistry is diffRegistry with a tool that blocks until its call
// is cancelled.
func sessionRegistry(t *testing.T) (*Registry, *sessionTools) {
	t.Helper()
	reg := diffRegistry(t)
	st := &sessionTools{reg: reg, started: make(chan string, 16), cancelled: make(chan string, 16)}
	type blockIn struct {
		Tag string `json:"tag"`
	}
	require.NoError(t, Add(reg, "block", func(ctx context.Context, in blockIn) (string, error) {
		st.started <- in.Tag
		select {
		case <-ctx.Done():
			st.cancelled <- in.Tag
			return "", ctx.Err()
		case <-time.After(sessionTimeout):
			return "not cancelled", nil
		}
	}, Description("Blocks until cancelled.")))
	require.NoError(t, reg.Add("wait", func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, Description("Waits, as a task, until cancelled."), Task()))
	require.NoError(t, reg.Add("sample", func(ctx context.Context) (string, error) {
		res, err := Sample(ctx, "s", &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello?"}}}})
		if err != nil {
			return "", err
		}
		text, _ := res.Content[0].(*mcp.TextContent)
		if text == nil {
			return "", fmt.Errorf("not text: %T", res.Content[0])
		}
		return res.Model + " said " + text.Text, nil
	}, Description("Samples.")))
	require.NoError(t, reg.Add("roots", func(ctx context.Context) (string, error) {
		res, err := ListRoots(ctx, "r")
		if err != nil {
			return "", err
		}
		return fmt.Sprint(len(res.Roots), " roots: ", res.Roots[0].URI), nil
	}, Description("Lists roots.")))
	return reg, st
}

// sessionSide is one side's client: its server, and the session it opened.
type sessionSide struct {
	t       *testing.T
	url     string
	client  *http.Client
	id      string // Mcp-Session-Id of the session opened
	version string // its protocol version, sent as Mcp-Protocol-Version
	token   string // sent as a bearer token when set
	ref     bool   // the side served by go-sdk (sessionServers' ref)
}

// sessionHeaders are the headers of a well-formed request of s's session;
// hdr overrides them ("" removes one).
func (s *sessionSide) headers(hdr map[string]string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		h.Set("Mcp-Session-Id", s.id)
	}
	if s.version != "" {
		h.Set("Mcp-Protocol-Version", s.version)
	}
	if s.token != "" {
		h.Set("Authorization", "Bearer "+s.token)
	}
	for k, v := range hdr {
		if v == "" {
			h.Del(k)
		} else {
			h.Set(k, v)
		}
	}
	return h
}

// answerOf is what is compared of resp, its body raw.
func (s *sessionSide) answerOf(resp *http.Response, raw string) diffAnswer {
	a := diffAnswer{Status: resp.StatusCode, Headers: map[string]string{}}
	for _, k := range diffHeaders {
		if v := resp.Header.Get(k); v != "" {
			a.Headers[k] = v
		}
	}
	if resp.Header.Get("Mcp-Session-Id") != "" {
		a.Headers["Mcp-Session-Id"] = "<session>"
	}
	a.Body = sortedTasks(s.mask(raw))
	return a
}

func (s *sessionSide) mask(raw string) string {
	for _, m := range diffMasks {
		raw = m.re.ReplaceAllString(raw, m.with)
	}
	for _, m := range sessionMasks {
		raw = m.re.ReplaceAllString(raw, m.with)
	}
	if s.id != "" {
		raw = strings.ReplaceAll(raw, s.id, "<session>")
	}
	return raw
}

// do sends one request and reads its whole answer.
func (s *sessionSide) do(method string, hdr map[string]string, body string) (diffAnswer, string) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.url, rd)
	require.NoError(s.t, err)
	req.Header = s.headers(hdr)
	resp, err := s.client.Do(req)
	if err != nil {
		return diffAnswer{Body: "<no answer>"}, ""
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		raw = append(raw, "<cut>"...)
	}
	return s.answerOf(resp, string(raw)), string(raw)
}

// post sends a POST of the session.
func (s *sessionSide) post(body string) diffAnswer {
	s.t.Helper()
	a, _ := s.do(http.MethodPost, nil, body)
	return a
}

// open initializes a session at version with the client capabilities
// caps, and sends notifications/initialized: both answers.
func (s *sessionSide) open(version, caps string) []diffAnswer {
	s.t.Helper()
	s.id, s.version = "", ""
	body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + caps + `,"clientInfo":{"name":"diff","version":"1"}}}`
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(body))
	require.NoError(s.t, err)
	req.Header = s.headers(nil)
	resp, err := s.client.Do(req)
	require.NoError(s.t, err)
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	require.NoError(s.t, err)
	s.id = resp.Header.Get("Mcp-Session-Id")
	init := s.answerOf(resp, string(raw))
	require.NotEmpty(s.t, s.id, "no session: %d %s", resp.StatusCode, raw)
	var res struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &res) == nil {
			break
		}
	}
	require.NotEmpty(s.t, res.Result.ProtocolVersion, "%s", raw)
	s.version = res.Result.ProtocolVersion
	return []diffAnswer{init, s.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)}
}

// sseStream is a request whose answer is read event by event as it
// arrives.
type sseStream struct {
	header chan struct{}   // closed once the answer's header arrived
	events chan string     // each event, as sent
	done   chan diffAnswer // the whole answer, once it ended
	cancel context.CancelFunc
}

// stream starts a POST of the session in a goroutine.
func (s *sessionSide) stream(body string) *sseStream {
	return s.streamReq(http.MethodPost, nil, body)
}

// streamReq starts a request of the session in a goroutine. A stream the
// client cancels ends in "<cut>".
func (s *sessionSide) streamReq(method string, hdr map[string]string, body string) *sseStream {
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	st := &sseStream{header: make(chan struct{}), events: make(chan string, 64), done: make(chan diffAnswer, 1), cancel: cancel}
	h := s.headers(hdr)
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.url, rd)
	require.NoError(s.t, err)
	req.Header = h
	go func() {
		defer cancel()
		defer func() {
			select {
			case <-st.header:
			default:
				close(st.header)
			}
		}()
		resp, err := s.client.Do(req)
		if err != nil {
			st.done <- diffAnswer{Body: "<no answer>"}
			return
		}
		close(st.header)
		defer resp.Body.Close()
		var all, ev strings.Builder
		rd := bufio.NewReader(resp.Body)
		for {
			line, err := rd.ReadString('\n')
			all.WriteString(line)
			ev.WriteString(line)
			if line == "\n" {
				st.events <- ev.String()
				ev.Reset()
			}
			if err != nil {
				if err != io.EOF {
					all.WriteString("<cut>")
				}
				break
			}
		}
		st.done <- s.answerOf(resp, all.String())
	}()
	return st
}

// event waits for the stream's next event containing want.
func (s *sessionSide) event(st *sseStream, want string) string {
	s.t.Helper()
	deadline := time.After(sessionTimeout)
	for {
		select {
		case ev := <-st.events:
			if strings.Contains(ev, want) {
				return ev
			}
		case <-deadline:
			s.t.Fatalf("no event with %s within %s", want, sessionTimeout)
			return ""
		}
	}
}

// end waits for the stream's answer.
func (s *sessionSide) end(st *sseStream) diffAnswer {
	s.t.Helper()
	select {
	case a := <-st.done:
		return a
	case <-time.After(sessionTimeout + time.Second):
		s.t.Fatal("the stream did not end")
		return diffAnswer{}
	}
}

// waitTool waits for the blocking tool's signal on ch with tag.
func waitTool(t *testing.T, ch chan string, tag string) {
	t.Helper()
	select {
	case got := <-ch:
		require.Equal(t, tag, got)
	case <-time.After(sessionTimeout):
		t.Fatalf("the blocking tool %s gave no signal within %s", tag, sessionTimeout)
	}
}

// sessionCall is a 2025-era tools/call.
func sessionCall(id, name, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, args)
}

const (
	elicitCaps    = `{"elicitation":{}}`
	extensionCaps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
)

// sessionCase is a script run on each side in turn.
type sessionCase struct {
	name string
	run  func(s *sessionSide, tools *sessionTools) []diffAnswer
}

// opened runs requests on a session opened at version with caps.
func opened(version, caps string, bodies ...string) func(*sessionSide, *sessionTools) []diffAnswer {
	return func(s *sessionSide, _ *sessionTools) []diffAnswer {
		out := s.open(version, caps)
		for _, b := range bodies {
			out = append(out, s.post(b))
		}
		return out
	}
}

// withHeaders runs one request with hdr on a session opened at 2025-11-25.
func withHeaders(method string, hdr map[string]string, body string) func(*sessionSide, *sessionTools) []diffAnswer {
	return func(s *sessionSide, _ *sessionTools) []diffAnswer {
		out := s.open("2025-11-25", "{}")
		a, _ := s.do(method, hdr, body)
		return append(out, a)
	}
}

// anyOrder compares the events of each answer of run in any order: the
// answers to a batch's calls come as each call ends (JSON-RPC 2.0, "Batch":
// the Response objects MAY be returned in any order).
func anyOrder(run func(*sessionSide, *sessionTools) []diffAnswer) func(*sessionSide, *sessionTools) []diffAnswer {
	return func(s *sessionSide, tools *sessionTools) []diffAnswer {
		out := run(s, tools)
		for i := range out {
			events := strings.SplitAfter(out[i].Body, "\n\n")
			slices.Sort(events)
			out[i].Body = strings.Join(events, "")
		}
		return out
	}
}

// sessionTask calls the task tool job on a session opened with caps, then
// reads the task until it is completed.
func sessionTask(caps, call string, idOf func(raw string) string) func(*sessionSide, *sessionTools) []diffAnswer {
	return func(s *sessionSide, _ *sessionTools) []diffAnswer {
		out := s.open("2025-11-25", caps)
		created, raw := s.do(http.MethodPost, nil, call)
		out = append(out, created)
		id := idOf(raw)
		require.NotEmpty(s.t, id, raw)
		get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `"}}`
		var got diffAnswer
		for range 500 {
			if got, _ = s.do(http.MethodPost, nil, get); strings.Contains(got.Body, `"completed"`) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		out = append(out, got)
		unknown, _ := s.do(http.MethodPost, nil, `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"nope"}}`)
		return append(out, unknown)
	}
}

var taskIDRe = regexp.MustCompile(`"taskId":"([^"]*)"`)

func taskIDOf(raw string) string {
	if m := taskIDRe.FindStringSubmatch(raw); m != nil {
		return m[1]
	}
	return ""
}

func sessionCases() []sessionCase {
	const (
		list    = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
		add     = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`
		batch   = `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`
		v1125   = "2025-11-25"
		v0618   = "2025-06-18"
		v0326   = "2025-03-26"
		noCaps  = "{}"
		initMsg = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"diff","version":"1"}}}`
	)
	cases := []sessionCase{
		{"initialize 2025-11-25", opened(v1125, noCaps)},
		{"initialize 2025-06-18", opened(v0618, noCaps)},
		{"initialize 2025-03-26", opened(v0326, noCaps)},
		{"initialize with capabilities", opened(v1125, `{"elicitation":{},"sampling":{},"roots":{"listChanged":true}}`)},
		{"initialize unknown version", opened("2099-01-01", noCaps)},
		{"initialize again", opened(v1125, noCaps, initMsg)},
		{"ping", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)},
		{"tools/list", opened(v1125, noCaps, list)},
		{"tools/list 2025-03-26", opened(v0326, noCaps, list)},
		{"tools/list bad cursor", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"!!"}}`)},
		{"tools/list cursor", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"YWRk"}}`)},
		{"tools/list with capabilities", opened(v1125, extensionCaps, list)},
		{"call", opened(v1125, noCaps, add)},
		{"call string id", opened(v1125, noCaps, sessionCall(`"x"`, "add", `{"a":1,"b":2}`))},
		{"call 2025-06-18", opened(v0618, noCaps, add)},
		{"call 2025-03-26", opened(v0326, noCaps, add)},
		{"call no arguments", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress"}}`)},
		{"invalid arguments", opened(v1125, noCaps, sessionCall("2", "add", `{"a":-1,"b":"x"}`))},
		{"malformed arguments", opened(v1125, noCaps, sessionCall("2", "add", `[1]`))},
		{"arguments null", opened(v1125, noCaps, sessionCall("2", "add", `null`))},
		{"name not a string", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":{}}}`)},
		{"tool error", opened(v1125, noCaps, sessionCall("3", "fail", `{}`))},
		{"unknown tool", opened(v1125, noCaps, sessionCall("4", "nope", `{}`))},
		{"scoped tool without a verifier", opened(v1125, noCaps, sessionCall("4", "scoped", `{}`))},
		{"progress", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"p1"}}}`)},
		{"progress numeric token", opened(v0326, noCaps, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":7}}}`)},
		{"progress without token", opened(v1125, noCaps, sessionCall("5", "progress", `{}`))},
		{"log without level", opened(v1125, noCaps, sessionCall("6", "log", `{}`))},
		{"log after setLevel", opened(v1125, noCaps,
			`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}`, sessionCall("6", "log", `{}`))},
		{"log above level", opened(v1125, noCaps,
			`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"error"}}`, sessionCall("6", "log", `{}`))},
		{"elicitation without capability", opened(v1125, noCaps, sessionCall("7", "ask", `{}`))},
		{"elicitation accepted", askRound("ask", elicitCaps, "elicitation/create", `"result":{"action":"accept","content":{"name":"Ada"}}`)},
		{"elicitation declined", askRound("ask", elicitCaps, "elicitation/create", `"result":{"action":"decline"}`)},
		{"elicitation invalid content", askRound("ask", elicitCaps, "elicitation/create", `"result":{"action":"accept","content":{"name":5}}`)},
		{"elicitation error", askRound("ask", elicitCaps, "elicitation/create", `"error":{"code":-32603,"message":"no"}`)},
		{"sampling", askRound("sample", `{"sampling":{}}`, "sampling/createMessage", `"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}`)},
		{"sampling without capability", opened(v1125, noCaps, sessionCall("7", "sample", `{}`))},
		{"roots", askRound("roots", `{"roots":{}}`, "roots/list", `"result":{"roots":[{"uri":"file:///tmp","name":"tmp"}]}`)},
		{"task required without capability", opened(v1125, noCaps, sessionCall("8", "job", `{}`))},
		{"task extension", sessionTask(extensionCaps, sessionCall("8", "job", `{}`), taskIDOf)},
		{"task param", sessionTask(noCaps, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"job","arguments":{},"task":{"ttl":60000}}}`, taskIDOf)},
		{"tasks/list core", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":9,"method":"tasks/list"}`)},
		{"core tasks", coreTasks},
		{"tasks/get without capability", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"nope"}}`)},
		{"tasks/cancel unknown", opened(v1125, extensionCaps, `{"jsonrpc":"2.0","id":9,"method":"tasks/cancel","params":{"taskId":"nope"}}`)},
		{"unknown method", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":1,"method":"foo/bar","params":{}}`)},
		{"unknown notification", opened(v1125, noCaps, `{"jsonrpc":"2.0","method":"notifications/foo"}`)},
		{"stray response", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":99,"result":{}}`)},
		{"malformed JSON", opened(v1125, noCaps, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`)},
		{"empty body", opened(v1125, noCaps, ``)},
		{"not an object", opened(v1125, noCaps, `5`)},
		{"empty batch", opened(v0326, noCaps, `[]`)},
		{"jsonrpc missing", opened(v1125, noCaps, strings.Replace(add, `"jsonrpc":"2.0",`, "", 1))},
		{"jsonrpc 1.0", opened(v1125, noCaps, strings.Replace(add, `"2.0"`, `"1.0"`, 1))},
		{"tools/list jsonrpc 1.0", opened(v1125, noCaps, strings.Replace(list, `"2.0"`, `"1.0"`, 1))},
		{"jsonrpc escaped", opened(v1125, noCaps, strings.Replace(add, `"2.0"`, `"2\u002e0"`, 1))},
		{"trailing byte", opened(v1125, noCaps, add+"x")},
		{"trailing space", opened(v1125, noCaps, add+" \r\n\t")},
		{"batch 2025-03-26", anyOrder(opened(v0326, noCaps, batch))},
		{"batch of notifications 2025-03-26", opened(v0326, noCaps, `[{"jsonrpc":"2.0","method":"notifications/foo"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}]`)},
		{"batch 2025-06-18", opened(v0618, noCaps, batch)},
		{"batch 2025-11-25", opened(v1125, noCaps, batch)},
		{"2026-07-28 _meta on a session", opened(v1125, noCaps, callBody("1", "add", `{"a":1,"b":2}`, ""))},
		{"call before initialize", func(s *sessionSide, _ *sessionTools) []diffAnswer {
			a, _ := s.do(http.MethodPost, nil, add)
			return []diffAnswer{a}
		}},
		{"tools/list before initialize", func(s *sessionSide, _ *sessionTools) []diffAnswer {
			a, _ := s.do(http.MethodPost, map[string]string{"Mcp-Protocol-Version": v1125}, list)
			return []diffAnswer{a}
		}},
		{"call before notifications/initialized", func(s *sessionSide, _ *sessionTools) []diffAnswer {
			s.id, s.version = "", ""
			ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(initMsg))
			require.NoError(s.t, err)
			req.Header = s.headers(nil)
			resp, err := s.client.Do(req)
			require.NoError(s.t, err)
			raw, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			s.id, s.version = resp.Header.Get("Mcp-Session-Id"), v1125
			out := []diffAnswer{s.answerOf(resp, string(raw))}
			return append(out, s.post(add), s.post(list))
		}},
		{"missing Mcp-Session-Id", withHeaders(http.MethodPost, map[string]string{"Mcp-Session-Id": ""}, add)},
		{"unknown Mcp-Session-Id", withHeaders(http.MethodPost, map[string]string{"Mcp-Session-Id": "nope"}, add)},
		{"Mcp-Protocol-Version missing", withHeaders(http.MethodPost, map[string]string{"Mcp-Protocol-Version": ""}, add)},
		{"Mcp-Protocol-Version other known", withHeaders(http.MethodPost, map[string]string{"Mcp-Protocol-Version": v0326}, add)},
		{"Mcp-Protocol-Version other known, batch", anyOrder(withHeaders(http.MethodPost, map[string]string{"Mcp-Protocol-Version": v0326}, batch))},
		{"Mcp-Protocol-Version unsupported", withHeaders(http.MethodPost, map[string]string{"Mcp-Protocol-Version": "2024-01-01"}, add)},
		{"Mcp-Protocol-Version 2026-07-28", withHeaders(http.MethodPost, map[string]string{"Mcp-Protocol-Version": "2026-07-28"}, add)},
		{"Mcp-Protocol-Version future", withHeaders(http.MethodPost, map[string]string{"Mcp-Protocol-Version": "2099-01-01"}, add)},
		{"Mcp-Method mismatch", withHeaders(http.MethodPost, map[string]string{"Mcp-Method": "tools/list"}, add)},
		{"Mcp-Name mismatch", withHeaders(http.MethodPost, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "other"}, add)},
		{"Accept json only", withHeaders(http.MethodPost, map[string]string{"Accept": "application/json"}, add)},
		{"Accept stream only", withHeaders(http.MethodPost, map[string]string{"Accept": "text/event-stream"}, add)},
		{"Accept missing", withHeaders(http.MethodPost, map[string]string{"Accept": ""}, add)},
		{"Accept any", withHeaders(http.MethodPost, map[string]string{"Accept": "*/*"}, add)},
		{"Accept in parts", withHeaders(http.MethodPost, map[string]string{"Accept": "text/event-stream;q=0.9 , application/json,"}, add)},
		{"Content-Type wrong", withHeaders(http.MethodPost, map[string]string{"Content-Type": "text/plain"}, add)},
		{"Content-Type missing", withHeaders(http.MethodPost, map[string]string{"Content-Type": ""}, add)},
		{"Content-Type with parameters", withHeaders(http.MethodPost, map[string]string{"Content-Type": "Application/JSON; charset=utf-8"}, add)},
		{"Last-Event-ID on POST", withHeaders(http.MethodPost, map[string]string{"Last-Event-ID": "x_1"}, add)},
		{"oversize", opened(v1125, noCaps, sessionCall("1", "add", `{"a":1,"b":2,"pad":"`+strings.Repeat("x", 1<<16)+`"}`))},
		{"PUT", withHeaders(http.MethodPut, nil, add)},
		{"GET without session", withHeaders(http.MethodGet, map[string]string{"Mcp-Session-Id": ""}, "")},
		{"GET unknown session", withHeaders(http.MethodGet, map[string]string{"Mcp-Session-Id": "nope"}, "")},
		{"GET without SSE", withHeaders(http.MethodGet, map[string]string{"Accept": "application/json"}, "")},
		{"GET malformed Last-Event-ID", withHeaders(http.MethodGet, map[string]string{"Last-Event-ID": "x"}, "")},
		{"DELETE without session", withHeaders(http.MethodDelete, map[string]string{"Mcp-Session-Id": ""}, "")},
		{"DELETE unknown session", withHeaders(http.MethodDelete, map[string]string{"Mcp-Session-Id": "nope"}, "")},
		{"DELETE then a call", func(s *sessionSide, _ *sessionTools) []diffAnswer {
			out := s.open(v1125, noCaps)
			del, _ := s.do(http.MethodDelete, nil, "")
			again, _ := s.do(http.MethodDelete, nil, "")
			get, _ := s.do(http.MethodGet, nil, "")
			return append(out, del, s.post(add), s.post(`{"jsonrpc":"2.0","method":"notifications/foo"}`), again, get)
		}},
		{"GET standalone stream", standaloneGET},
		{"list_changed on the standalone stream", listChanged},
		{"GET replay", replay},
		{"cancelled in flight", cancelInFlight},
		{"cancelled in flight, fractional id", cancelWith(`11.0`)},
		{"cancelled in flight twice", cancelWith(`11`, `11`)},
		{"cancelled in flight, other id type first", cancelWith(`"11"`, `11`)},
		{"cancelled in flight 2025-03-26", func(s *sessionSide, tools *sessionTools) []diffAnswer {
			out := s.open(v0326, noCaps)
			st := s.stream(sessionCall("11", "block", `{"tag":"c"}`))
			waitTool(s.t, tools.started, "c")
			out = append(out, s.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11}}`))
			waitTool(s.t, tools.cancelled, "c")
			return append(out, s.end(st), s.post(add1))
		}},
		{"duplicate id in flight", duplicateInFlight},
		{"DELETE in flight", deleteInFlight},
	}
	return cases
}

// askRound calls tool on a session opened with caps: the server's request
// (method) arrives on the call's stream, the client POSTs reply to it (a
// "result" or "error" member; 202), and the call's result then ends that
// stream.
func askRound(tool, caps, method, reply string) func(*sessionSide, *sessionTools) []diffAnswer {
	return func(s *sessionSide, _ *sessionTools) []diffAnswer {
		out := s.open("2025-11-25", caps)
		st := s.stream(sessionCall("7", tool, `{}`))
		id := serverRequestID(s.t, s.event(st, `"method":"`+method+`"`))
		out = append(out, s.post(`{"jsonrpc":"2.0","id":`+id+`,`+reply+`}`))
		return append(out, s.end(st))
	}
}

// serverRequestID is the id of the server's request in the SSE event ev.
func serverRequestID(t *testing.T, ev string) string {
	t.Helper()
	for _, line := range strings.Split(ev, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			require.NoError(t, json.Unmarshal([]byte(data), &m), data)
			require.NotEmpty(t, m.ID, data)
			return string(m.ID)
		}
	}
	t.Fatalf("no data in %q", ev)
	return ""
}

// standaloneGET opens the session's standalone stream; a second one is
// refused while it is open; then the client closes it.
func standaloneGET(s *sessionSide, _ *sessionTools) []diffAnswer {
	out := s.open("2025-11-25", "{}")
	get := map[string]string{"Content-Type": ""}
	st := s.streamReq(http.MethodGet, get, "")
	s.event(st, ": ok")
	second, _ := s.do(http.MethodGet, get, "")
	st.cancel()
	return append(out, second, s.end(st))
}

// listChanged opens the standalone stream, adds a tool to the registry:
// tools/list_changed arrives on that stream.
func listChanged(s *sessionSide, tools *sessionTools) []diffAnswer {
	out := s.open("2025-11-25", "{}")
	st := s.streamReq(http.MethodGet, map[string]string{"Content-Type": ""}, "")
	s.event(st, ": ok")
	require.NoError(s.t, tools.reg.Add("extra", func(context.Context) (string, error) { return "", nil }, Description("Extra.")))
	s.event(st, "notifications/tools/list_changed")
	st.cancel()
	a := s.end(st)
	tools.reg.Remove("extra")
	// The notification of a change is sent to every session of the
	// server, when go-sdk's debounce ends: the other side's Remove may
	// reach this session too. One list_changed says all of them say.
	events := strings.SplitAfter(a.Body, "\n\n")
	a.Body = strings.Join(slices.Compact(events), "")
	return append(out, a)
}

// replay reads a finished call's stream again with Last-Event-ID: the
// events after it.
func replay(s *sessionSide, _ *sessionTools) []diffAnswer {
	out := s.open("2025-11-25", "{}")
	call, raw := s.do(http.MethodPost, nil, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"p1"}}}`)
	m := regexp.MustCompile(`(?m)^id: (.*)$`).FindStringSubmatch(raw)
	require.Len(s.t, m, 2, raw)
	get := map[string]string{"Content-Type": "", "Last-Event-ID": m[1]}
	again, _ := s.do(http.MethodGet, get, "")
	get["Last-Event-ID"] = "nope_0"
	unknown, _ := s.do(http.MethodGet, get, "")
	return append(out, call, again, unknown)
}

// cancelInFlight cancels a blocking call with notifications/cancelled:
// the notification's 202, then the call's stream as it ends.
func cancelInFlight(s *sessionSide, tools *sessionTools) []diffAnswer {
	out := s.open("2025-11-25", "{}")
	st := s.stream(sessionCall("11", "block", `{"tag":"c"}`))
	waitTool(s.t, tools.started, "c")
	out = append(out, s.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11,"reason":"enough"}}`))
	waitTool(s.t, tools.cancelled, "c")
	return append(out, s.end(st), s.post(add1))
}

// cancelWith cancels a blocking call with a notifications/cancelled for
// each requestId of ids, in one POST each.
func cancelWith(ids ...string) func(*sessionSide, *sessionTools) []diffAnswer {
	return func(s *sessionSide, tools *sessionTools) []diffAnswer {
		out := s.open("2025-11-25", "{}")
		st := s.stream(sessionCall("11", "block", `{"tag":"c"}`))
		waitTool(s.t, tools.started, "c")
		for _, id := range ids {
			out = append(out, s.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`))
		}
		waitTool(s.t, tools.cancelled, "c")
		return append(out, s.end(st), s.post(add1))
	}
}

// coreTasks plays the core tasks of 2025-11-25 (basic/utilities/tasks) on
// a session that did not declare the extension: a task asked for with
// params.task, read with tasks/get until done, its result, the list, a
// cancel of a finished and of a working task, and the refusals.
func coreTasks(s *sessionSide, _ *sessionTools) []diffAnswer {
	out := s.open("2025-11-25", "{}")
	call := func(id, name, task string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":{},"task":` + task + `}}`
	}
	req := func(id, method, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
	}
	created, raw := s.do(http.MethodPost, nil, call("1", "job", `{"ttl":60000}`))
	out = append(out, created)
	id := taskIDOf(raw)
	require.NotEmpty(s.t, id, raw)
	of := `{"taskId":"` + id + `"}`
	var got diffAnswer
	for range 500 {
		if got, _ = s.do(http.MethodPost, nil, req("2", "tasks/get", of)); strings.Contains(got.Body, `"completed"`) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	out = append(out, got,
		s.post(req("3", "tasks/result", of)),
		s.post(req("4", "tasks/cancel", of)),
		s.post(call("5", "add", `{}`)),
		s.post(call("6", "job", `5`)),
		s.post(call("7", "job", `{"ttl":-1}`)),
		s.post(req("8", "tasks/get", `{"taskId":5}`)),
		s.post(`{"jsonrpc":"2.0","id":8,"method":"tasks/get"}`))
	waiting, raw := s.do(http.MethodPost, nil, call("9", "wait", `{}`))
	id = taskIDOf(raw)
	require.NotEmpty(s.t, id, raw)
	of = `{"taskId":"` + id + `"}`
	out = append(out, waiting,
		s.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`), // a task's call: the task goes on
		s.post(req("10", "tasks/get", of)),
		s.post(req("11", "tasks/cancel", of)),
		s.post(req("12", "tasks/get", of)),
		s.post(req("13", "tasks/result", of)),
		s.post(`{"jsonrpc":"2.0","id":14,"method":"tasks/list"}`),
		s.post(req("15", "tasks/list", `{}`)),
		s.post(req("16", "tasks/list", `null`)),
		s.post(req("17", "tasks/list", `{"cursor":"!!"}`)))
	return out
}

const add1 = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`

// duplicateInFlight sends a call whose id is that of a call in flight on
// the session, then cancels the first.
func duplicateInFlight(s *sessionSide, tools *sessionTools) []diffAnswer {
	out := s.open("2025-11-25", "{}")
	st := s.stream(sessionCall("12", "block", `{"tag":"d"}`))
	waitTool(s.t, tools.started, "d")
	out = append(out, s.post(sessionCall("12", "add", `{"a":1,"b":2}`)))
	out = append(out, s.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12}}`))
	waitTool(s.t, tools.cancelled, "d")
	return append(out, s.end(st))
}

// deleteInFlight deletes the session while a call runs on it: the call is
// cancelled, its stream ends unanswered, and the session is gone.
//
// go-sdk races here: the cancelled call's answer is written unless its
// Close marks the connection done first (streamableServerConn.Write reads
// isDone), so now and then its stream carries the answer. mcpgen's wire
// marks the session as ending before it cancels (sessionOwn.end), so its
// stream never does; go-sdk's answer, when it wins the race, is dropped
// before the two are compared.
func deleteInFlight(s *sessionSide, tools *sessionTools) []diffAnswer {
	out := s.open("2025-11-25", "{}")
	st := s.stream(sessionCall("13", "block", `{"tag":"x"}`))
	waitTool(s.t, tools.started, "x")
	del, _ := s.do(http.MethodDelete, nil, "")
	waitTool(s.t, tools.cancelled, "x")
	ended := s.end(st)
	if s.ref {
		ended.Body = dropEvent(ended.Body, `"id":13,"result":`)
	}
	return append(out, del, ended, s.post(add1))
}

// dropEvent removes from an SSE body the events whose data holds marker.
func dropEvent(body, marker string) string {
	var keep []string
	for _, ev := range strings.SplitAfter(body, "\n\n") {
		if !strings.Contains(ev, marker) {
			keep = append(keep, ev)
		}
	}
	return strings.Join(keep, "")
}

// The intended differences of the session wire, each a -32601 whose
// message mcpgen keeps: go-sdk's jsonrpc2 rewrites any -32601 a handler
// returns into "method not found" naming the request being served, and
// JSON-RPC 2.0, section 5.1, reserves -32601 for a method that does not
// exist (or is not available).
//
//   - A client's error answer to a request the server sent mid-call (here
//     roots/list with -32601) is what the call's error carries (go-sdk
//     names tools/call, which exists).
//   - tasks/list on a session of the tasks extension (MCP 2025-11-25
//     basic/utilities/tasks: tasks/list is the core tasks'), with params
//     or without, says why it is not there.
func TestSessionDifferentialDiffers(t *testing.T) {
	reg, tools := sessionRegistry(t)
	own, ref := sessionServers(t, reg, &HTTPOptions{MaxRequestBodyBytes: 1 << 16})
	round := askRound("roots", `{"roots":{}}`, "roots/list", `"error":{"code":-32601,"message":"no roots"}`)
	got := round(&sessionSide{t: t, url: own.URL, client: own.Client()}, tools)
	want := round(&sessionSide{t: t, url: ref.URL, client: ref.Client()}, tools)
	require.Len(t, got, 4)
	last := got[len(got)-1].Body
	assert.True(t, strings.HasSuffix(last, `data: {"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no roots"}}`+"\n\n"), last)
	assert.Contains(t, want[len(want)-1].Body, `"message":"method not found: \"tools/call\""`)
	assert.Equal(t, want[:3], got[:3])

	for _, params := range []string{``, `,"params":{}`, `,"params":null`} {
		list := opened("2025-11-25", extensionCaps, `{"jsonrpc":"2.0","id":9,"method":"tasks/list"`+params+`}`)
		got := list(&sessionSide{t: t, url: own.URL, client: own.Client()}, tools)
		want := list(&sessionSide{t: t, url: ref.URL, client: ref.Client()}, tools)
		require.Len(t, got, 3)
		assert.Equal(t, want[:2], got[:2])
		assert.True(t, strings.HasSuffix(got[2].Body, `data: {"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"tasks/list belongs to the 2025-11-25 tasks; this session uses the tasks extension"}}`+"\n\n"), "params %q: %s", params, got[2].Body)
		assert.Contains(t, want[2].Body, `"error":{"code":-32601,"message":"method not found: \"tasks/list\""}`, "params %q", params)
	}
}

func TestSessionDifferential(t *testing.T) {
	reg, tools := sessionRegistry(t)
	own, ref := sessionServers(t, reg, &HTTPOptions{MaxRequestBodyBytes: 1 << 16})
	for _, c := range sessionCases() {
		t.Run(c.name, func(t *testing.T) { compareSessions(t, own, ref, c, tools) })
	}
}

// compareSessions runs c on own, then on ref, and compares the answers;
// with -v it logs own's.
func compareSessions(t *testing.T, own, ref *httptest.Server, c sessionCase, tools *sessionTools) {
	got := c.run(&sessionSide{t: t, url: own.URL, client: own.Client()}, tools)
	want := c.run(&sessionSide{t: t, url: ref.URL, client: ref.Client(), ref: true}, tools)
	assert.Equal(t, want, got)
	if testing.Verbose() {
		for i, a := range got {
			t.Logf("%d: %d %v\n%s", i, a.Status, a.Headers, a.Body)
		}
	}
}

// sessionServers serves reg's server on loopback twice: by NewHTTPHandler
// as built (own), and with mcpgen's own paths off (ref).
func sessionServers(t *testing.T, reg *Registry, opts *HTTPOptions) (own, ref *httptest.Server) {
	t.Helper()
	p := newDiffPair(t, reg, opts)
	own, ref = httptest.NewServer(p.own), httptest.NewServer(p.ref)
	t.Cleanup(func() {
		own.CloseClientConnections()
		ref.CloseClientConnections()
		own.Close()
		ref.Close()
	})
	return own, ref
}

// With authorization on: a session is opened with a token and bound to
// its user; a call needs its tool's scopes (403 before the session sees
// it), another user's token cannot use or delete the session. The same
// on both.
func TestSessionDifferentialAuth(t *testing.T) {
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		switch token {
		case "reader":
			return &auth.TokenInfo{UserID: "ada", Scopes: []string{"s:read"}, Expiration: time.Now().Add(time.Hour)}, nil
		case "writer":
			return &auth.TokenInfo{UserID: "ada", Scopes: []string{"s:write"}, Expiration: time.Now().Add(time.Hour)}, nil
		case "bob":
			return &auth.TokenInfo{UserID: "bob", Scopes: []string{"s:write"}, Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	reg, tools := sessionRegistry(t)
	own, ref := sessionServers(t, reg, &HTTPOptions{TokenVerifier: verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
		Resource: "http://localhost/mcp", AuthorizationServers: []string{"https://auth.example.com"},
	}})
	as := func(token string, run func(s *sessionSide) []diffAnswer) func(*sessionSide, *sessionTools) []diffAnswer {
		return func(s *sessionSide, _ *sessionTools) []diffAnswer {
			s.token = token
			return run(s)
		}
	}
	const list = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	scoped := sessionCall("2", "scoped", `{}`)
	for _, c := range []sessionCase{
		{"initialize without token", func(s *sessionSide, _ *sessionTools) []diffAnswer {
			a, _ := s.do(http.MethodPost, nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"diff","version":"1"}}}`)
			return []diffAnswer{a}
		}},
		{"initialize bad token", as("nope", func(s *sessionSide) []diffAnswer {
			a, _ := s.do(http.MethodPost, nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"diff","version":"1"}}}`)
			return []diffAnswer{a}
		})},
		{"reader", as("reader", func(s *sessionSide) []diffAnswer {
			return append(s.open("2025-11-25", "{}"), s.post(list), s.post(scoped), s.post(sessionCall("3", "add", `{"a":1,"b":2}`)))
		})},
		{"writer", as("writer", func(s *sessionSide) []diffAnswer {
			return append(s.open("2025-11-25", "{}"), s.post(list), s.post(scoped))
		})},
		{"token dropped mid-session", as("writer", func(s *sessionSide) []diffAnswer {
			out := s.open("2025-11-25", "{}")
			s.token = ""
			return append(out, s.post(scoped))
		})},
		{"another user", as("writer", func(s *sessionSide) []diffAnswer {
			out := s.open("2025-11-25", "{}")
			s.token = "bob"
			get := map[string]string{"Content-Type": ""}
			g, _ := s.do(http.MethodGet, get, "")
			d, _ := s.do(http.MethodDelete, get, "")
			out = append(out, s.post(scoped), s.post(list), g, d)
			s.token = "writer"
			return append(out, s.post(scoped))
		})},
		{"same user, other token", as("writer", func(s *sessionSide) []diffAnswer {
			out := s.open("2025-11-25", "{}")
			s.token = "reader"
			d, _ := s.do(http.MethodDelete, nil, "")
			return append(out, s.post(scoped), d, s.post(list))
		})},
	} {
		t.Run(c.name, func(t *testing.T) { compareSessions(t, own, ref, c, tools) })
	}
}
