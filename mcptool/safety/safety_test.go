package safety_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

func TestRoot(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "secret.txt")
	require.NoError(t, os.WriteFile(outside, []byte("top secret"), 0o600))
	r, err := safety.OpenRoot(filepath.Join(base, "data"))
	require.NoError(t, err)
	defer r.Close()

	require.NoError(t, r.WriteFile("notes/a.txt", []byte("hello")))
	b, err := r.ReadFile("notes/a.txt", 0)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(b))
	b, err = r.ReadFile("./notes/../notes/a.txt", 0)
	require.NoError(t, err, "a .. that stays inside is fine")
	assert.Equal(t, "hello", string(b))

	require.NoError(t, os.Symlink(outside, filepath.Join(r.Dir(), "escape")))
	require.NoError(t, os.Symlink("notes/a.txt", filepath.Join(r.Dir(), "inside")))
	b, err = r.ReadFile("inside", 0)
	require.NoError(t, err, "a symlink that stays inside is fine")
	assert.Equal(t, "hello", string(b))

	for name, want := range map[string]string{
		"../secret.txt":           `"../secret.txt" leaves the data directory`,
		"notes/../../secret.txt":  `leaves the data directory`,
		outside:                   `is absolute`,
		"escape":                  `leads out of the data directory (symlink)`,
		"nul\x00.txt":             `contains a NUL byte`,
		"missing.txt":             `"missing.txt" does not exist`,
		"notes/../../data/../..x": `leaves the data directory`,
	} {
		_, err := r.ReadFile(name, 0)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), want, name)
		assert.True(t, mcptool.IsUserError(err), "the model may read: %v", err)
	}
	_, err = r.ReadFile("notes/a.txt", 3)
	assert.ErrorContains(t, err, "larger than 3 bytes")
	assert.ErrorIs(t, r.Remove("."), safety.ErrOutsideRoot)
	assert.ErrorIs(t, r.Remove("../secret.txt"), safety.ErrOutsideRoot)
	require.NoError(t, r.Remove("notes/a.txt"))
	_, err = r.Stat("notes/a.txt")
	assert.ErrorContains(t, err, "does not exist")
	_, err = os.Stat(outside)
	require.NoError(t, err, "nothing outside was touched")
}

func TestRunner(t *testing.T) {
	root, err := safety.OpenRoot(t.TempDir())
	require.NoError(t, err)
	defer root.Close()
	progs := append(safety.Builtin("echo", "sleep", "ls"),
		safety.Program{Name: "seq", Operands: safety.Text},
		safety.Program{Name: "sh", Options: []safety.Option{{Names: []string{"-c"}, Value: safety.Text}}, Operands: safety.Text})
	run, err := safety.NewRunner(root, progs, safety.RunnerOptions{Timeout: 300 * time.Millisecond, MaxOutput: 100})
	require.NoError(t, err)
	ctx := context.Background()
	res, err := run.Run(ctx, "echo", "hello", "$(id)", "; rm -rf /", "`whoami`", "|cat")
	require.NoError(t, err)
	assert.Equal(t, "hello $(id) ; rm -rf / `whoami` |cat\n", res.Stdout, "no shell: metacharacters are literal")

	_, err = run.Run(ctx, "rm", "-rf", "/")
	require.ErrorIs(t, err, safety.ErrNotAllowed)
	assert.Contains(t, err.Error(), `"rm" (allowed: echo, ls, seq, sh, sleep)`)
	assert.True(t, mcptool.IsUserError(err))
	_, err = run.Run(ctx, "/bin/echo", "x")
	require.ErrorIs(t, err, safety.ErrNotAllowed)
	_, err = run.Run(ctx, "echo", "a\x00b")
	require.ErrorContains(t, err, "NUL")

	res, err = run.Run(ctx, "seq", "1", "100000")
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	assert.Len(t, res.Stdout, 100)

	start := time.Now()
	res, err = run.Run(ctx, "sleep", "5")
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
	assert.Less(t, time.Since(start), 3*time.Second)

	res, err = run.Run(ctx, "sh", "-c", "echo oops >&2; exit 3")
	require.NoError(t, err)
	assert.Equal(t, 3, res.ExitCode)
	assert.Equal(t, "oops\n", res.Stderr)

	res, err = run.Run(ctx, "ls", "missing.txt")
	require.NoError(t, err, "a path that does not exist is the program's to report")
	assert.NotEqual(t, 0, res.ExitCode)
	assert.Contains(t, res.Stderr, "missing.txt")

	_, err = safety.NewRunner(root, safety.Builtin("/bin/ls"), safety.RunnerOptions{})
	assert.ErrorContains(t, err, "give a program name, not a path")
	_, err = safety.NewRunner(root, []safety.Program{{Name: "no-such-program-xyz"}}, safety.RunnerOptions{})
	assert.ErrorContains(t, err, `program "no-such-program-xyz"`)
	_, err = safety.NewRunner(root, safety.Builtin("python3", "ls", "ls"), safety.RunnerOptions{})
	assert.ErrorContains(t, err, `program "python3": no built-in argument policy (built in: cat, date, echo, head, ls, sleep, tail, uname, wc)`)
	assert.ErrorContains(t, err, `program "ls" listed twice`)
	_, err = safety.NewRunner(root, []safety.Program{{Name: "ls", Options: []safety.Option{{Names: []string{"-lR"}}}}}, safety.RunnerOptions{})
	assert.ErrorContains(t, err, `option name "-lR": want -x or --name`)
	_, err = safety.NewRunner(nil, safety.Builtin("ls"), safety.RunnerOptions{})
	assert.ErrorContains(t, err, "needs a Root")
}

func TestURLPolicy(t *testing.T) {
	ctx := context.Background()
	p := safety.URLPolicy{}
	for raw, want := range map[string]string{
		"http://93.184.216.34/":          `scheme "http"`,
		"https://127.0.0.1/":             "non-public address 127.0.0.1",
		"https://10.1.2.3/x":             "non-public address 10.1.2.3",
		"https://169.254.169.254/":       "non-public address 169.254.169.254",
		"https://[::1]/":                 "non-public address ::1",
		"https://[::ffff:127.0.0.1]":     "non-public address",
		"https://user:pw@93.184.216.34/": "credentials",
		"file:///etc/passwd":             `scheme "file"`,
		"https:///nohost":                "has no host",
	} {
		_, err := p.Check(ctx, raw)
		require.Error(t, err, raw)
		assert.True(t, errors.Is(err, safety.ErrForbiddenURL), raw)
		assert.Contains(t, err.Error(), want, raw)
	}
	u, err := p.Check(ctx, "https://93.184.216.34/path")
	require.NoError(t, err)
	assert.Equal(t, "/path", u.Path)

	// The connection itself is checked: a loopback server is refused
	// unless private addresses are allowed.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) }))
	defer srv.Close()
	_, err = safety.URLPolicy{Schemes: []string{"http"}}.HTTPClient(time.Second).Get(srv.URL)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "non-public address 127.0.0.1"), err.Error())
	resp, err := safety.URLPolicy{Schemes: []string{"http"}, AllowPrivate: true}.HTTPClient(time.Second).Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
}

func TestRootWriteStream(t *testing.T) {
	r, err := safety.OpenRoot(t.TempDir())
	require.NoError(t, err)
	defer r.Close()
	n, err := r.WriteStream("out/big.txt", func(w io.Writer) error {
		for range 100_000 {
			if _, err := io.WriteString(w, "0123456789\n"); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, int64(1_100_000), n)
	fi, err := r.Stat("out/big.txt")
	require.NoError(t, err)
	assert.Equal(t, n, fi.Size())

	// A failed write leaves the old file, and no temporary file behind.
	_, err = r.WriteStream("out/big.txt", func(w io.Writer) error {
		_, _ = io.WriteString(w, "half")
		return errors.New("cancelled")
	})
	require.EqualError(t, err, "cancelled")
	fi, err = r.Stat("out/big.txt")
	require.NoError(t, err)
	assert.Equal(t, n, fi.Size(), "the old file stays")
	entries, err := os.ReadDir(filepath.Join(r.Dir(), "out"))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")

	for name, want := range map[string]string{"../x": "leaves the data directory", "/x": "is absolute", ".": "the data directory itself", "out": "is a directory"} {
		_, err = r.WriteStream(name, func(io.Writer) error { return nil })
		assert.ErrorContains(t, err, want, name)
		assert.True(t, mcptool.IsUserError(err), name)
	}
}

// TestURLPolicyRedirectCredentials checks that a redirect to another
// origin, here only another port on the same host (which net/http alone
// treats as the same), does not carry the Authorization header, and that a
// redirect within the origin does.
func TestURLPolicyRedirectCredentials(t *testing.T) {
	seen := make(chan string, 4)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- "other:" + r.Header.Get("Authorization") + ":" + r.Header.Get("Cookie")
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.URL.Path + ":" + r.Header.Get("Authorization")
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/landed", http.StatusTemporaryRedirect)
		case "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusTemporaryRedirect)
		}
	}))
	defer first.Close()
	client := safety.URLPolicy{Schemes: []string{"http"}, AllowPrivate: true}.HTTPClient(5 * time.Second)
	for path, want := range map[string][]string{
		"/same": {"/same:Bearer tok", "/landed:Bearer tok"},
		"/away": {"/away:Bearer tok", "other::"},
	} {
		req, err := http.NewRequest(http.MethodPost, first.URL+path, strings.NewReader("{}"))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Cookie", "")
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, want, []string{<-seen, <-seen}, path)
	}
}
