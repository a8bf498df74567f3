package mcptool_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// exampleHTTPPost posts a JSON-RPC message to url as a 2025-11-25 client
// would, with extra headers, and returns the response status.
func exampleHTTPPost(url, body string, header ...string) string {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err.Error()
	}
	_ = resp.Body.Close()
	return resp.Status
}

// exampleHTTPConnect connects a go-sdk client to url as a 2025-11-25 client,
// which gets a session.
func exampleHTTPConnect(url string, copts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, copts)
	return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: exampleServe2025})
}

// The HTTP handler's options are one struct, as go-sdk's own handler's
// are: a library's defaults first, the deployment's set on them; a field
// left zero keeps the handler's default.
func ExampleHTTPOptions() {
	opts := &mcptool.HTTPOptions{MaxRequestBodyBytes: 1 << 20, BodyReadTimeout: time.Minute}
	opts.MaxRequestBodyBytes = 1 << 10 // the deployment's, say from a flag

	reg := mcptool.NewRegistry()
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(opts))
	defer hs.Close()

	for _, size := range []int{512, 2 << 10} {
		body := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + strings.Repeat(" ", size)
		fmt.Printf("%d bytes: %s\n", len(body), exampleHTTPPost(hs.URL, body))
	}
	// Output:
	// 552 bytes: 200 OK
	// 2088 bytes: 413 Request Entity Too Large
}

// Stateless serves 2025-era clients without sessions too, as 2026-07-28
// clients always are: any replica can answer any request, but the server can
// no longer send requests to a 2025-era client, so Elicit, Sample, ListRoots
// and Ask return ErrInputUnsupported to them.
func ExampleHTTPOptions_stateless() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("confirm", func(ctx context.Context) (string, error) {
		_, err := mcptool.Elicit(ctx, "ok", &mcp.ElicitParams{Message: "Go ahead?"})
		return fmt.Sprintf("session id: %v, can elicit: %v",
			mcptool.Request(ctx).Session.ID() != "", !errors.Is(err, mcptool.ErrInputUnsupported)), nil
	})
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true}))
	defer hs.Close()

	ctx := context.Background()
	cs, err := exampleHTTPConnect(hs.URL, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm"})))
	// Output:
	// session id: false, can elicit: false
}

// TrustedOrigins lists the browser origins allowed to call the server
// cross-origin, say a web app on another host; other cross-origin browser
// requests get 403 Forbidden. Non-browser clients, which send no Origin or
// Sec-Fetch-Site header, are not affected.
func ExampleHTTPOptions_trustedOrigins() {
	reg := mcptool.NewRegistry()
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{TrustedOrigins: []string{"https://app.example.com"}}))
	defer hs.Close()

	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, origin := range []string{"https://app.example.com", "https://evil.example"} {
		// Sec-Fetch-Site as a browser sends it.
		fmt.Printf("%s: %s\n", origin, exampleHTTPPost(hs.URL, ping, "Origin", origin, "Sec-Fetch-Site", "cross-site"))
	}
	// Output:
	// https://app.example.com: 200 OK
	// https://evil.example: 403 Forbidden
}

// SessionTimeout closes 2025-era sessions left idle; their clients must
// initialize again.
func ExampleHTTPOptions_sessionTimeout() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("hello", func(context.Context) (string, error) { return "hello", nil })
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{SessionTimeout: 500 * time.Millisecond}))
	defer hs.Close()

	ctx := context.Background()
	cs, err := exampleHTTPConnect(hs.URL, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
	fmt.Println("at once:", err == nil)
	time.Sleep(1500 * time.Millisecond)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
	fmt.Println("after idling:", err == nil)
	// Output:
	// at once: true
	// after idling: false
}

// MaxSessions caps the 2025-era sessions kept at once: opening one more
// closes the session idle longest, whose client must initialize again.
func ExampleHTTPOptions_maxSessions() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("hello", func(context.Context) (string, error) { return "hello", nil })
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{MaxSessions: 1}))
	defer hs.Close()

	ctx := context.Background()
	connect := func() *mcp.ClientSession {
		cs, err := exampleHTTPConnect(hs.URL, nil)
		if err != nil {
			panic(err)
		}
		return cs
	}
	first := connect()
	defer first.Close()
	second := connect() // evicts the first
	defer second.Close()
	call := func(cs *mcp.ClientSession) bool {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
		return err == nil
	}
	// Eviction runs in the background: give it a moment.
	for i := 0; i < 500 && call(first); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("first:", call(first))
	fmt.Println("second:", call(second))
	// Output:
	// first: false
	// second: true
}

// exampleCountingEvents is an mcp.EventStore that counts the events it
// keeps: a stand-in for a shared store such as adapters/redis's.
type exampleCountingEvents struct {
	mcp.EventStore
	appended atomic.Int64
}

func (s *exampleCountingEvents) Append(ctx context.Context, sessionID, streamID string, data []byte) error {
	s.appended.Add(1)
	return s.EventStore.Append(ctx, sessionID, streamID, data)
}

// EventStore keeps the events of 2025-era streams, so a client that lost its
// stream resumes it with Last-Event-ID; replicas share one.
func ExampleHTTPOptions_eventStore() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("count", func(ctx context.Context) (string, error) {
		for i := range 3 {
			mcptool.Progress(ctx, float64(i+1), 3, "counting")
		}
		return "done", nil
	})
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	events := &exampleCountingEvents{EventStore: mcp.NewMemoryEventStore(nil)}
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{EventStore: events}))
	defer hs.Close()

	ctx := context.Background()
	cs, err := exampleHTTPConnect(hs.URL, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "count", Meta: mcp.Meta{"progressToken": "p"}})))
	fmt.Println("events kept:", events.appended.Load() >= 4) // three progress notifications and the result
	// Output:
	// done
	// events kept: true
}

// MaxRequestBodyBytes bounds one request body: a larger one gets 413 before
// anything reads it.
func ExampleHTTPOptions_maxRequestBodyBytes() {
	reg := mcptool.NewRegistry()
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{MaxRequestBodyBytes: 64 << 10}))
	defer hs.Close()

	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	fmt.Println(exampleHTTPPost(hs.URL, ping))
	fmt.Println(exampleHTTPPost(hs.URL, ping+strings.Repeat(" ", 64<<10)))
	// Output:
	// 200 OK
	// 413 Request Entity Too Large
}

// MaxBodyBytesInFlight bounds the large request bodies served at once: while
// one 80 KiB call runs, another waits for room up to BodyReadTimeout and then
// gets 503 with Retry-After. Small bodies are not counted.
func ExampleHTTPOptions_maxBodyBytesInFlight() {
	reg := mcptool.NewRegistry()
	started, release := make(chan struct{}, 1), make(chan struct{})
	_ = reg.Add("hold", func(ctx context.Context, in struct {
		Pad string `json:"pad"`
	}) (string, error) {
		started <- struct{}{}
		<-release
		return "held", nil
	})
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true, MaxBodyBytesInFlight: 100 << 10, BodyReadTimeout: 300 * time.Millisecond}))
	defer hs.Close()

	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{"pad":"` + strings.Repeat("x", 80<<10) + `"}}}`
	first := make(chan string)
	go func() { first <- exampleHTTPPost(hs.URL, call) }()
	<-started
	fmt.Println("second while the first runs:", exampleHTTPPost(hs.URL, call))
	fmt.Println("a small one:", exampleHTTPPost(hs.URL, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	close(release)
	fmt.Println("first:", <-first)
	// Output:
	// second while the first runs: 503 Service Unavailable
	// a small one: 200 OK
	// first: 200 OK
}

// BodyReadTimeout bounds how long a request body may take to arrive: a
// client that sends its headers and then trickles the body gets 408.
func ExampleHTTPOptions_bodyReadTimeout() {
	reg := mcptool.NewRegistry()
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{BodyReadTimeout: 100 * time.Millisecond}))
	defer hs.Close()

	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{", hs.Listener.Addr())
	status, _ := bufio.NewReader(conn).ReadString('\n')
	fmt.Println(strings.TrimSpace(status))
	// Output:
	// HTTP/1.1 408 Request Timeout
}
