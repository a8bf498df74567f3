package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// The hostile-input suite: what a misbehaving or malicious client can send,
// row by row, through a real go-sdk client session (in memory, and a subset
// over HTTP), and byte-level inputs no JSON library would produce straight
// into Registry.Call and as raw JSON-RPC POSTs. Every row asserts the exact
// kind of answer, and after every row a normal call must still succeed.

// Realistic tools: a search with bounds, enums, nested structs, slices and
// maps; file tools confined to a safety.Root; a command tool on a
// safety.Runner that allows only echo.

type hsFilter struct {
	Field string `json:"field" validate:"oneof=title body author"`
	Value string `json:"value" validate:"required,max=64"`
}

type hsRange struct {
	Min float64 `json:"min"`
	Max float64 `json:"max,omitempty"`
}

type hsSearchArgs struct {
	_       struct{}          `mcp:"title=Search pages,readOnly"`
	Query   string            `json:"query" validate:"required,min=2,max=256"`
	Limit   int               `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
	Sort    string            `json:"sort,omitempty" validate:"omitempty,oneof=relevance date"`
	Exact   bool              `json:"exact,omitempty"`
	Filters []hsFilter        `json:"filters,omitempty" validate:"max=8,dive"`
	Score   *hsRange          `json:"score,omitempty"`
	Tags    []string          `json:"tags,omitempty" validate:"max=16"`
	Labels  map[string]string `json:"labels,omitempty" validate:"max=8"`
}

type hsSearchResult struct {
	Query   string            `json:"query"`
	Limit   int               `json:"limit"`
	Sort    string            `json:"sort,omitempty"`
	Filters int               `json:"filters"`
	Tags    []string          `json:"tags,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
}

type hsReadArgs struct {
	_    struct{} `mcp:"readOnly"`
	Path string   `json:"path" validate:"required"`
}

type hsWriteArgs struct {
	_       struct{} `mcp:"destructive=false,idempotent"`
	Path    string   `json:"path" validate:"required"`
	Content string   `json:"content" validate:"max=4096"`
}

type hsRunArgs struct {
	Program string   `json:"program" validate:"required"`
	Args    []string `json:"args,omitempty" validate:"max=16"`
}

// hsEnv is the world the hostile tools live in.
type hsEnv struct {
	reg     *mcptool.Registry
	base    string // the temp dir: secret.txt and outside/ are here
	dataDir string // the root the file tools are confined to
}

func newHostileEnv(t *testing.T) *hsEnv {
	t.Helper()
	base := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(base, "secret.txt"), []byte("top secret"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(base, "outside"), 0o750))
	require.NoError(t, os.WriteFile(filepath.Join(base, "outside", "secret2.txt"), []byte("also secret"), 0o600))
	root, err := safety.OpenRoot(filepath.Join(base, "data"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = root.Close() })
	require.NoError(t, root.WriteFile("notes/a.txt", []byte("hello")))
	// Symlinks planted inside the root: two lead out (absolute and relative
	// file targets), two lead to a directory outside, one stays inside.
	for link, target := range map[string]string{
		"escape":      filepath.Join(base, "secret.txt"),
		"rel_escape":  "../secret.txt",
		"dirlink":     filepath.Join(base, "outside"),
		"rel_dirlink": "../outside",
		"inside":      "notes/a.txt",
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(root.Dir(), link)))
	}
	run, err := safety.NewRunner(root, safety.Builtin("echo"), safety.RunnerOptions{Timeout: 5 * time.Second, MaxOutput: 4096})
	require.NoError(t, err)

	reg := mcptool.NewRegistry(quiet())
	require.NoError(t, reg.Add("search", func(_ context.Context, in hsSearchArgs) (hsSearchResult, error) {
		return hsSearchResult{Query: in.Query, Limit: in.Limit, Sort: in.Sort, Filters: len(in.Filters), Tags: in.Tags, Labels: in.Labels}, nil
	}, mcptool.Description("Search pages.")))
	require.NoError(t, reg.Add("read_file", func(_ context.Context, in hsReadArgs) (string, error) {
		b, err := root.ReadFile(in.Path, 1<<16)
		return string(b), err
	}, mcptool.Description("Read a file below the data directory.")))
	require.NoError(t, reg.Add("write_file", func(_ context.Context, in hsWriteArgs) (string, error) {
		if err := root.WriteFile(in.Path, []byte(in.Content)); err != nil {
			return "", err
		}
		return "written", nil
	}, mcptool.Description("Write a file below the data directory.")))
	require.NoError(t, reg.Add("run", func(ctx context.Context, in hsRunArgs) (*safety.RunResult, error) {
		return run.Run(ctx, in.Program, in.Args...)
	}, mcptool.Description("Run an allowed program.")))
	require.NoError(t, reg.Add("ping", func() (string, error) { return "pong", nil }, mcptool.Description("Liveness.")))
	return &hsEnv{reg: reg, base: base, dataDir: root.Dir()}
}

// assertNothingEscaped checks that no hostile write reached outside the root.
func (e *hsEnv) assertNothingEscaped(t *testing.T) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(e.base, "outside"))
	require.NoError(t, err)
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	assert.Equal(t, []string{"secret2.txt"}, names, "nothing was written outside the root")
	b, err := os.ReadFile(filepath.Join(e.base, "secret.txt"))
	require.NoError(t, err)
	assert.Equal(t, "top secret", string(b), "the secret outside the root is untouched")
	top, err := os.ReadDir(e.base)
	require.NoError(t, err)
	names = names[:0]
	for _, en := range top {
		names = append(names, en.Name())
	}
	assert.Equal(t, []string{"data", "outside", "secret.txt"}, names)
}

// hsKind is the exact kind of answer a row expects.
type hsKind int

const (
	hsOK            hsKind = iota // a result without isError
	hsToolError                   // a result with isError set
	hsInvalidParams               // a JSON-RPC error -32602 (Registry.Call: an *Error)
)

func (k hsKind) String() string {
	return [...]string{"success", "isError result", "JSON-RPC -32602"}[k]
}

type hsRow struct {
	category string
	name     string
	tool     string
	args     any // sent as the client's Arguments (json.RawMessage passes through as is)
	kind     hsKind
	want     []string // substrings of the result text (or error message), in order of appearance not required
	check    func(t *testing.T, res *mcp.CallToolResult)
	http     bool // also run over HTTP
}

func hsDeep(n int, open, leaf, close string) string {
	return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
}

func hsStructured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var m map[string]any
	switch sc := res.StructuredContent.(type) {
	case map[string]any:
		m = sc
	case json.RawMessage:
		require.NoError(t, json.Unmarshal(sc, &m))
	default:
		t.Fatalf("structuredContent is %T", res.StructuredContent)
	}
	return m
}

func hostileRows() []hsRow {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	manyStrings := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "a"
		}
		return out
	}
	manyFilters := make([]map[string]any, 5000)
	for i := range manyFilters {
		manyFilters[i] = map[string]any{"field": "title", "value": "x"}
	}
	const metachars = "$(id) ; rm -rf / `whoami` | cat && ls > /tmp/pwned < /etc/passwd * ~ \\n"
	return []hsRow{
		// --- wrong types
		{"wrong type", "query number", "search", map[string]any{"query": 42}, hsToolError, []string{"query: must be a string, got number (type)"}, nil, true},
		{"wrong type", "limit string", "search", map[string]any{"query": "go", "limit": "10"}, hsToolError, []string{"limit: must be an integer, got string (type)"}, nil, false},
		{"wrong type", "limit fraction", "search", raw(`{"query":"go","limit":1.5}`), hsToolError, []string{"limit: must be an integer, got 1.5 (type)"}, nil, false},
		{"wrong type", "exact string", "search", map[string]any{"query": "go", "exact": "yes"}, hsToolError, []string{"exact: must be a boolean, got string (type)"}, nil, false},
		{"wrong type", "filters object", "search", map[string]any{"query": "go", "filters": map[string]any{"field": "title"}}, hsToolError, []string{"filters: must be an array, got object (type)"}, nil, false},
		{"wrong type", "tags numbers", "search", map[string]any{"query": "go", "tags": []any{1, true}}, hsToolError, []string{"tags[0]: must be a string, got number (type)", "tags[1]: must be a string, got boolean (type)"}, nil, false},
		{"wrong type", "query null", "search", raw(`{"query":null}`), hsToolError, []string{"query: must be a string, got null (type)"}, nil, false},
		{"wrong type", "score string", "search", map[string]any{"query": "go", "score": "high"}, hsToolError, []string{"score: must be an object, got string (type)"}, nil, false},
		{"wrong type", "arguments array", "search", raw(`[1,2]`), hsToolError, []string{"(arguments): must be an object, got array (type)"}, nil, true},
		{"wrong type", "arguments string", "search", raw(`"query"`), hsToolError, []string{"(arguments): must be an object, got string (type)"}, nil, false},
		{"wrong type", "every violation at once", "search", map[string]any{"query": 1, "limit": "x", "exact": 0, "sort": false}, hsToolError, []string{"query: must be a string", "limit: must be an integer", "exact: must be a boolean", "sort: must be a string"}, nil, false},

		// --- bounds, enums, required, unknown
		{"bounds", "missing required", "search", map[string]any{}, hsToolError, []string{"query: is required but missing (required)"}, nil, true},
		{"bounds", "limit zero", "search", map[string]any{"query": "go", "limit": 0}, hsToolError, []string{"limit: must be at least 1, got 0 (minimum)"}, nil, false},
		{"bounds", "limit too big", "search", map[string]any{"query": "go", "limit": 101}, hsToolError, []string{"limit: must be at most 100, got 101 (maximum)"}, nil, false},
		{"bounds", "integer overflow", "search", raw(`{"query":"go","limit":99999999999999999999}`), hsToolError, []string{"limit: must be at most 100, got 99999999999999999999 (maximum)"}, nil, false},
		{"bounds", "sort not in enum", "search", map[string]any{"query": "go", "sort": "random"}, hsToolError, []string{"sort: ", "(enum)"}, nil, false},
		{"bounds", "nested enum", "search", map[string]any{"query": "go", "filters": []any{map[string]any{"field": "password", "value": "x"}}}, hsToolError, []string{"filters[0].field: ", "(enum)"}, nil, false},
		{"bounds", "nested required", "search", map[string]any{"query": "go", "filters": []any{map[string]any{"field": "title"}}}, hsToolError, []string{"filters[0].value: is required but missing (required)"}, nil, false},
		{"bounds", "unknown argument", "search", map[string]any{"query": "go", "admin": true}, hsToolError, []string{"admin: is not a known argument"}, nil, false},
		{"bounds", "case-folded name", "search", map[string]any{"Query": "go"}, hsToolError, []string{`Query: is not a known argument (did you mean "query"?)`, "query: is required but missing (required)"}, nil, false},

		// --- huge strings
		{"huge string", "query over maxLength", "search", map[string]any{"query": strings.Repeat("x", 300)}, hsToolError, []string{"query: must be at most 256 characters long, got 300 (maxLength)"}, nil, false},
		{"huge string", "2 MiB query", "search", map[string]any{"query": strings.Repeat("x", 2<<20)}, hsToolError, []string{"invalid arguments: they are", "more than the 1048576 allowed"}, nil, true},
		{"huge string", "2 MiB unknown key", "search", map[string]any{"query": "go", strings.Repeat("k", 2<<20): 1}, hsToolError, []string{"more than the 1048576 allowed"}, nil, false},
		{"huge string", "deep long path", "read_file", map[string]any{"path": strings.Repeat("a/", 3000)}, hsToolError, []string{"does not exist"}, nil, false},

		// --- deep nesting
		{"deep nesting", "deep arrays in an unknown key", "search", raw(`{"query":"go","x":` + hsDeep(100, "[", "1", "]") + `}`), hsToolError, []string{"is nested more than 64 levels deep (maxDepth)"}, nil, true},
		{"deep nesting", "deep objects in a map value", "search", raw(`{"query":"go","labels":` + hsDeep(100, `{"a":`, `"x"`, "}") + `}`), hsToolError, []string{"is nested more than 64 levels deep (maxDepth)"}, nil, false},
		{"deep nesting", "deep arrays as the arguments", "search", raw(hsDeep(500, "[", "", "]")), hsToolError, []string{"(arguments): must be an object, got array (type)"}, nil, false},
		{"deep nesting", "deeper than go-sdk's own limit", "search", raw(`{"query":"go","x":` + hsDeep(900, `{"a":`, "1", "}") + `}`), hsToolError, []string{"(maxDepth)"}, nil, false},

		// --- NaN / Inf (as a JSON client can send them: overflowing literals, strings)
		{"NaN/Inf", "float overflow", "search", raw(`{"query":"go","score":{"min":1e400}}`), hsToolError, []string{"score.min: must be within ±1.7976931348623157e308 (a float64), got 1e400 (range)"}, nil, false},
		{"NaN/Inf", "negative float overflow", "search", raw(`{"query":"go","score":{"min":-1e400}}`), hsToolError, []string{"score.min: must be within ±1.7976931348623157e308 (a float64), got -1e400 (range)"}, nil, false},
		{"NaN/Inf", "a tiny fraction is not an integer", "search", raw(`{"query":"go","limit":1e-400}`), hsToolError, []string{"limit: must be an integer, got 1e-400 (type)"}, nil, false},
		{"NaN/Inf", "a huge integer in exponent form", "search", raw(`{"query":"go","limit":1e400}`), hsToolError, []string{"limit: must be at most 100, got 1e400 (maximum)"}, nil, false},
		{"NaN/Inf", "NaN as a string", "search", map[string]any{"query": "go", "score": map[string]any{"min": "NaN"}}, hsToolError, []string{"score.min: must be a number, got string (type)"}, nil, false},
		{"NaN/Inf", "underflow is zero", "search", raw(`{"query":"go","score":{"min":1e-400}}`), hsOK, []string{`"query":"go"`}, nil, false},

		// --- invalid UTF-8 (raw bytes pass through go-sdk untouched)
		{"invalid UTF-8", "in a value", "search", raw("{\"query\":\"go\xff\xfe\"}"), hsToolError, []string{"query: must be valid UTF-8 text (type)"}, nil, true},
		{"invalid UTF-8", "in a map key", "search", raw("{\"query\":\"go\",\"labels\":{\"k\xff\":\"v\"}}"), hsToolError, []string{"must be valid UTF-8 text (type)"}, nil, false},
		{"invalid UTF-8", "in a slice item", "search", raw("{\"query\":\"go\",\"tags\":[\"ok\",\"\xc3\x28\"]}"), hsToolError, []string{"tags[1]: must be valid UTF-8 text (type)"}, nil, false},
		{"invalid UTF-8", "overlong encoding of /", "read_file", raw("{\"path\":\"..\xc0\xafsecret.txt\"}"), hsToolError, []string{"path: must be valid UTF-8 text (type)"}, nil, false},
		{"invalid UTF-8", "lone surrogate escape", "search", raw(`{"query":"go\ud800"}`), hsOK, nil, func(t *testing.T, res *mcp.CallToolResult) {
			assert.Equal(t, "go\ufffd", hsStructured(t, res)["query"], "a lone surrogate becomes U+FFFD, as in encoding/json")
		}, false},

		// --- duplicate keys
		{"duplicate keys", "top level", "search", raw(`{"query":"go","query":"rm -rf"}`), hsToolError, []string{"query: is given more than once (uniqueKeys)"}, nil, true},
		{"duplicate keys", "escaped duplicate", "search", raw(`{"query":"go","\u0071uery":"rm -rf"}`), hsToolError, []string{"query: is given more than once (uniqueKeys)"}, nil, false},
		{"duplicate keys", "in a map", "search", raw(`{"query":"go","labels":{"k":"1","k":"2"}}`), hsToolError, []string{"labels.k: is given more than once (uniqueKeys)"}, nil, false},
		{"duplicate keys", "in a nested struct", "search", raw(`{"query":"go","score":{"min":1,"min":2}}`), hsToolError, []string{"score.min: is given more than once (uniqueKeys)"}, nil, false},
		{"duplicate keys", "path twice", "read_file", raw(`{"path":"notes/a.txt","path":"../secret.txt"}`), hsToolError, []string{"path: is given more than once (uniqueKeys)"}, nil, false},

		// --- __proto__-style keys
		{"__proto__ keys", "at the top", "search", raw(`{"query":"go","__proto__":{"admin":true}}`), hsToolError, []string{"__proto__: is not a known argument"}, nil, true},
		{"__proto__ keys", "constructor.prototype", "search", raw(`{"query":"go","constructor":{"prototype":{"admin":true}}}`), hsToolError, []string{"constructor: is not a known argument"}, nil, false},
		{"__proto__ keys", "in a nested struct", "search", raw(`{"query":"go","filters":[{"field":"title","value":"x","__proto__":{}}]}`), hsToolError, []string{"filters[0].__proto__: is not a known argument"}, nil, false},
		{"__proto__ keys", "as plain map keys", "search", raw(`{"query":"go","labels":{"__proto__":"x","constructor":"y"}}`), hsOK, nil, func(t *testing.T, res *mcp.CallToolResult) {
			assert.Equal(t, map[string]any{"__proto__": "x", "constructor": "y"}, hsStructured(t, res)["labels"], "just keys: nothing special happens")
		}, false},

		// --- path traversal
		{"path traversal", "dot-dot", "read_file", map[string]any{"path": "../secret.txt"}, hsToolError, []string{`"../secret.txt" leaves the data directory`}, nil, true},
		{"path traversal", "dot-dot inside a path", "read_file", map[string]any{"path": "notes/../../secret.txt"}, hsToolError, []string{"leaves the data directory"}, nil, false},
		{"path traversal", "absolute", "read_file", map[string]any{"path": "/etc/passwd"}, hsToolError, []string{`"/etc/passwd" is absolute`}, nil, false},
		{"path traversal", "NUL byte", "read_file", map[string]any{"path": "notes/a.txt\x00.png"}, hsToolError, []string{"contains a NUL byte"}, nil, false},
		{"path traversal", "backslashes are a name on Unix", "read_file", map[string]any{"path": `..\..\secret.txt`}, hsToolError, []string{`does not exist`}, nil, false},
		{"path traversal", "percent-encoded", "read_file", map[string]any{"path": "..%2fsecret.txt"}, hsToolError, []string{`"..%2fsecret.txt" does not exist`}, nil, false},
		{"path traversal", "write outside", "write_file", map[string]any{"path": "../pwned.txt", "content": "x"}, hsToolError, []string{"leaves the data directory"}, nil, false},
		{"path traversal", "a path that stays inside", "read_file", map[string]any{"path": "./notes/../notes/a.txt"}, hsOK, []string{"hello"}, nil, true},

		// --- symlink escape
		{"symlink escape", "absolute link to a file outside", "read_file", map[string]any{"path": "escape"}, hsToolError, []string{`"escape" leads out of the data directory (symlink)`}, nil, true},
		{"symlink escape", "relative link to a file outside", "read_file", map[string]any{"path": "rel_escape"}, hsToolError, []string{"leads out of the data directory (symlink)"}, nil, false},
		{"symlink escape", "through a linked directory", "read_file", map[string]any{"path": "dirlink/secret2.txt"}, hsToolError, []string{"leads out of the data directory (symlink)"}, nil, false},
		{"symlink escape", "through a relative linked directory", "read_file", map[string]any{"path": "rel_dirlink/secret2.txt"}, hsToolError, []string{"leads out of the data directory (symlink)"}, nil, false},
		{"symlink escape", "write through a linked directory", "write_file", map[string]any{"path": "dirlink/pwned.txt", "content": "x"}, hsToolError, []string{"leads out of the data directory (symlink)"}, nil, false},
		{"symlink escape", "a link that stays inside", "read_file", map[string]any{"path": "inside"}, hsOK, []string{"hello"}, nil, false},

		// --- shell metacharacters
		{"shell metacharacters", "are literal arguments", "run", map[string]any{"program": "echo", "args": []string{metachars, "$HOME", "'quoted'"}}, hsOK, nil, func(t *testing.T, res *mcp.CallToolResult) {
			m := hsStructured(t, res)
			assert.Equal(t, metachars+" $HOME 'quoted'\n", m["stdout"], "no shell: nothing expanded")
			assert.Equal(t, float64(0), m["exitCode"])
		}, true},
		{"shell metacharacters", "in the program name", "run", map[string]any{"program": "echo; id"}, hsToolError, []string{`program is not on the allowlist: "echo; id" (allowed: echo)`}, nil, false},
		{"shell metacharacters", "command substitution as the program", "run", map[string]any{"program": "$(id)"}, hsToolError, []string{"program is not on the allowlist"}, nil, false},
		{"shell metacharacters", "a shell", "run", map[string]any{"program": "sh", "args": []string{"-c", "id"}}, hsToolError, []string{`"sh" (allowed: echo)`}, nil, true},
		{"shell metacharacters", "an absolute path", "run", map[string]any{"program": "/bin/echo"}, hsToolError, []string{"program is not on the allowlist"}, nil, false},
		{"shell metacharacters", "a relative path", "run", map[string]any{"program": "../../bin/sh"}, hsToolError, []string{"program is not on the allowlist"}, nil, false},
		{"shell metacharacters", "NUL in an argument", "run", map[string]any{"program": "echo", "args": []string{"a\x00b"}}, hsToolError, []string{"an argument contains a NUL byte"}, nil, false},

		// --- oversized arrays
		{"oversized array", "40k tags", "search", map[string]any{"query": "go", "tags": manyStrings(40_000)}, hsToolError, []string{"tags: must have at most 16 items, got 40000 (maxItems)"}, nil, true},
		{"oversized array", "5000 filters", "search", map[string]any{"query": "go", "filters": manyFilters}, hsToolError, []string{"filters: must have at most 8 items, got 5000 (maxItems)"}, nil, false},
		{"oversized array", "1000 arguments to echo", "run", map[string]any{"program": "echo", "args": manyStrings(1000)}, hsToolError, []string{"args: must have at most 16 items, got 1000 (maxItems)"}, nil, false},
		{"oversized array", "200k numbers in an unknown key", "search", map[string]any{"query": "go", "x": make([]int, 200_000)}, hsToolError, []string{"x: is not a known argument"}, nil, false},
		{"oversized array", "an array over the size limit", "search", map[string]any{"query": "go", "tags": slices.Repeat([]string{strings.Repeat("t", 30)}, 40_000)}, hsToolError, []string{"more than the 1048576 allowed"}, nil, false},
		{"oversized array", "too many labels", "search", map[string]any{"query": "go", "labels": map[string]any{"a": "", "b": "", "c": "", "d": "", "e": "", "f": "", "g": "", "h": "", "i": ""}}, hsToolError, []string{"labels: ", "(maxProperties)"}, nil, false},

		// --- unknown tools
		{"unknown tool", "no such tool", "nope", map[string]any{}, hsInvalidParams, []string{`unknown tool "nope"`}, nil, true},
		{"unknown tool", "a path as the name", "../search", map[string]any{}, hsInvalidParams, []string{`unknown tool "../search"`}, nil, false},
		{"unknown tool", "a case-folded name", "Search", map[string]any{"query": "go"}, hsInvalidParams, []string{`unknown tool "Search"`}, nil, false},

		// --- control rows: the same tools succeed with good input
		{"control", "valid search", "search", map[string]any{"query": "go", "sort": "date", "filters": []any{map[string]any{"field": "title", "value": "x"}}, "tags": []string{"a"}}, hsOK, nil, func(t *testing.T, res *mcp.CallToolResult) {
			m := hsStructured(t, res)
			assert.Equal(t, float64(10), m["limit"], "default applied")
			assert.Equal(t, float64(1), m["filters"])
		}, true},
		{"control", "null arguments", "ping", raw(`null`), hsOK, []string{"pong"}, nil, false},
	}
}

// hsCheckResult asserts a row's expectation on a call's outcome.
func hsCheckResult(t *testing.T, row hsRow, res *mcp.CallToolResult, err error) {
	t.Helper()
	switch row.kind {
	case hsInvalidParams:
		require.Error(t, err, "want %s", row.kind)
		var je *jsonrpc.Error
		require.True(t, errors.As(err, &je), "a JSON-RPC error, got %T %v", err, err)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
		for _, w := range row.want {
			assert.Contains(t, je.Message, w)
		}
		return
	}
	require.NoError(t, err, "want %s", row.kind)
	require.NotNil(t, res)
	require.NotEmpty(t, res.Content, "a result always has content")
	text := ""
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		text = tc.Text
	}
	if row.kind == hsOK {
		require.False(t, res.IsError, "want success, got %q", text)
	} else {
		require.True(t, res.IsError, "want isError, got %q", text)
	}
	for _, w := range row.want {
		assert.Contains(t, text, w)
	}
	if row.want == nil && row.kind == hsToolError {
		t.Fatal("an isError row must say what the error says")
	}
	if row.check != nil {
		row.check(t, res)
	}
}

func hsPing(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ping"})
	require.NoError(t, err, "the server still serves")
	require.False(t, res.IsError)
	assert.Equal(t, "pong", res.Content[0].(*mcp.TextContent).Text)
	// And a tool that was just attacked still works with good input.
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "notes/a.txt"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
}

func TestHostileInputs(t *testing.T) {
	rows := hostileRows()
	require.GreaterOrEqual(t, len(rows), 40)
	categories := map[string]int{}
	for _, r := range rows {
		categories[r.category]++
	}
	for _, c := range []string{"wrong type", "huge string", "deep nesting", "NaN/Inf", "invalid UTF-8", "duplicate keys", "__proto__ keys", "path traversal", "symlink escape", "shell metacharacters", "oversized array"} {
		require.NotZero(t, categories[c], "category %q has rows", c)
	}
	env := newHostileEnv(t)
	for _, kind := range []transportKind{inMemory, overHTTP} {
		for _, v := range eras {
			t.Run(kind.String()+"/"+eraName(v), func(t *testing.T) {
				cs := connect(t, kind, env.reg, v, nil, nil)
				hsPing(t, cs)
				for _, row := range rows {
					if kind == overHTTP && !row.http {
						continue
					}
					t.Run(row.category+"/"+row.name, func(t *testing.T) {
						res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: row.tool, Arguments: row.args})
						hsCheckResult(t, row, res, err)
						hsPing(t, cs)
					})
				}
			})
		}
	}
	env.assertNothingEscaped(t)
}

// TestHostileInputsDirect runs the same rows through Registry.Call, where
// the protocol error is an *Error.
func TestHostileInputsDirect(t *testing.T) {
	env := newHostileEnv(t)
	for _, row := range hostileRows() {
		t.Run(row.category+"/"+row.name, func(t *testing.T) {
			args, err := json.Marshal(row.args)
			require.NoError(t, err)
			res, err := env.reg.Call(context.Background(), row.tool, args)
			if row.kind == hsInvalidParams {
				require.Error(t, err)
				assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(err))
				var e *mcptool.Error
				require.True(t, errors.As(err, &e))
				err = e.JSONRPC()
			}
			hsCheckResult(t, row, res, err)
			hsPingDirect(t, env.reg)
		})
	}
	env.assertNothingEscaped(t)
}

func hsPingDirect(t *testing.T, reg *mcptool.Registry) {
	t.Helper()
	res, err := reg.Call(context.Background(), "ping", nil)
	require.NoError(t, err, "the registry still serves")
	require.False(t, res.IsError)
	assert.Equal(t, "pong", textOf(res))
}

// --- byte-level hostile input: Registry.Call and raw JSON-RPC over HTTP

// hsWire is what a raw 2026-07-28 tools/call POST got back.
type hsWire struct {
	status int
	ctype  string
	body   string
	rpcErr *jsonrpc.Error      // a JSON-RPC error response
	result *mcp.CallToolResult // a JSON-RPC result
}

// hsPost sends one tools/call as a raw stateless 2026-07-28 request. args
// nil leaves "arguments" out; otherwise it is spliced into the body as is.
func hsPost(t *testing.T, url, tool string, args []byte) hsWire {
	t.Helper()
	var body bytes.Buffer
	body.WriteString(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":`)
	name, _ := json.Marshal(tool)
	body.Write(name)
	if args != nil {
		body.WriteString(`,"arguments":`)
		body.Write(args)
	}
	body.WriteString(`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	req, err := http.NewRequest(http.MethodPost, url, &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	w := hsWire{status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), body: string(b)}
	payload := b
	if strings.HasPrefix(w.ctype, "text/event-stream") {
		payload = nil
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				payload = []byte(d)
				break
			}
		}
		require.NotNil(t, payload, "an event stream with a message: %q", b)
	}
	if strings.HasPrefix(w.ctype, "text/event-stream") || strings.HasPrefix(w.ctype, "application/json") {
		var msg struct {
			ID     any             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *jsonrpc.Error  `json:"error"`
		}
		require.NoError(t, json.Unmarshal(payload, &msg), "%q", payload)
		if msg.Error == nil || msg.Error.Code != jsonrpc.CodeParseError {
			assert.Equal(t, float64(7), msg.ID, "the response answers the request")
		}
		w.rpcErr = msg.Error
		if msg.Result != nil {
			w.result = new(mcp.CallToolResult)
			require.NoError(t, json.Unmarshal(msg.Result, w.result))
		}
	}
	return w
}

// hsRawKind is the exact kind of answer a byte-level row expects at one layer.
type hsRawKind int

const (
	rawOK           hsRawKind = iota // a result without isError
	rawToolError                     // an isError result
	rawMalformed                     // Registry.Call: CodeMalformedArguments (-32602 on the wire)
	rawHTTP400                       // HTTP: 400 with a JSON-RPC parse error, before go-sdk (see below)
	rawRPCError                      // HTTP: a JSON-RPC error response with the code in rpcCode
	rawHTTPTooLarge                  // HTTP: 413 from the body limit
)

type hsRawRow struct {
	category string
	name     string
	tool     string
	args     []byte // nil: no arguments
	direct   hsRawKind
	wire     hsRawKind
	rpcCode  int64  // for rawRPCError
	want     string // substring of the result text or error message (both layers)
}

func hostileRawRows() []hsRawRow {
	b := func(s string) []byte { return []byte(s) }
	huge := []byte(`{"query":"` + strings.Repeat("x", 5<<20) + `"}`)
	// Malformed arguments never reach mcpgen over HTTP: the JSON-RPC envelope
	// that carries them is malformed too, and the handler answers such a
	// body, before go-sdk reads it, with 400 and a JSON-RPC -32700 response
	// (id null), as StdioTransport answers such a line. Registry.Call,
	// which gets the raw bytes, reports them as CodeMalformedArguments
	// (-32602 once served).
	return []hsRawRow{
		{"invalid UTF-8", "in a value", "search", b("{\"query\":\"go\xff\"}"), rawToolError, rawToolError, 0, "query: must be valid UTF-8 text (type)"},
		{"invalid UTF-8", "truncated sequence", "search", b("{\"query\":\"go\xe2\x82\"}"), rawToolError, rawToolError, 0, "query: must be valid UTF-8 text (type)"},
		{"invalid UTF-8", "surrogate half encoded in UTF-8", "search", b("{\"query\":\"go\xed\xa0\x80\"}"), rawToolError, rawToolError, 0, "query: must be valid UTF-8 text (type)"},
		{"invalid UTF-8", "with escapes too", "search", b("{\"query\":\"g\\n\xff\"}"), rawToolError, rawToolError, 0, "query: must be valid UTF-8 text (type)"},
		{"invalid UTF-8", "in an unknown key", "search", b("{\"query\":\"go\",\"\xff\":1}"), rawToolError, rawToolError, 0, "is not a known argument"},
		{"duplicate keys", "top level", "search", b(`{"query":"go","query":"x"}`), rawToolError, rawToolError, 0, "query: is given more than once (uniqueKeys)"},
		{"duplicate keys", "map", "search", b(`{"query":"go","labels":{"a":"1","a":"2"}}`), rawToolError, rawToolError, 0, "labels.a: is given more than once (uniqueKeys)"},
		{"__proto__ keys", "top level", "search", b(`{"__proto__":{"query":"go"}}`), rawToolError, rawToolError, 0, "__proto__: is not a known argument"},
		{"NaN/Inf", "NaN literal", "search", b(`{"query":"go","score":{"min":NaN}}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"NaN/Inf", "Infinity literal", "search", b(`{"query":"go","score":{"min":Infinity}}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"NaN/Inf", "-Infinity literal", "search", b(`{"query":"go","score":{"min":-Infinity}}`), rawMalformed, rawHTTP400, 0, "malformed"},
		// go-sdk v1.8.0's Mcp-Name header check decodes params with
		// arguments as float64 and fails on an overflowing number (-32020,
		// header mismatch, though the headers match); mcpgen's own
		// 2026-07-28 path reports the overflow as a violation, as
		// Registry.Call does (TestModernDifferential lists the difference).
		{"NaN/Inf", "float overflow", "search", b(`{"query":"go","score":{"min":1e999}}`), rawToolError, rawToolError, 0, "got 1e999 (range)"},
		{"malformed", "truncated", "search", b(`{"query":"go"`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "truncated string", "search", b(`{"query":"go`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "trailing garbage", "search", b(`{"query":"go"} garbage`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "two objects", "search", b(`{"query":"go"}{"query":"x"}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "trailing comma", "search", b(`{"query":"go",}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "single quotes", "search", b(`{'query':'go'}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "comment", "search", b(`{"query":"go" /* hi */}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "unquoted key", "search", b(`{query:"go"}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "leading zero", "search", b(`{"query":"go","limit":01}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "raw control character", "search", b("{\"query\":\"go\x01\"}"), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "bad escape", "search", b(`{"query":"go\q"}`), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "byte order mark", "search", b("\xef\xbb\xbf{\"query\":\"go\"}"), rawMalformed, rawHTTP400, 0, "malformed"},
		{"malformed", "NUL byte", "search", b("{\"query\":\"go\"}\x00"), rawMalformed, rawHTTP400, 0, "malformed"},
		{"deep nesting", "over mcpgen's limit", "search", b(`{"query":"go","x":` + hsDeep(200, "[", "", "]") + `}`), rawToolError, rawToolError, 0, "is nested more than 64 levels deep (maxDepth)"},
		{"deep nesting", "unclosed, past mcpgen's limit", "search", b(`{"query":"go","x":` + strings.Repeat("[", 200)), rawMalformed, rawHTTP400, 0, "malformed"},
		// Over HTTPOptions.MaxBodyDepth (1000): 413 before anything decodes it.
		{"deep nesting", "over MaxBodyDepth", "search", b(`{"query":"go","x":` + hsDeep(1500, "[", "", "]") + `}`), rawToolError, rawHTTPTooLarge, 0, ""},
		{"huge", "5 MiB", "search", huge, rawToolError, rawHTTPTooLarge, 0, ""},
		{"empty", "no arguments", "search", nil, rawToolError, rawToolError, 0, "query: is required but missing (required)"},
		{"empty", "null", "ping", b(`null`), rawOK, rawOK, 0, "pong"},
		{"wrong type", "arguments are a number", "search", b(`42`), rawToolError, rawToolError, 0, "(arguments): must be an object, got number (type)"},
		{"wrong type", "arguments are a JSON string of an object", "search", b(`"{\"query\":\"go\"}"`), rawToolError, rawToolError, 0, "(arguments): must be an object, got string (type)"},
		{"unicode", "lone surrogate", "search", b(`{"query":"go\udc00"}`), rawOK, rawOK, 0, "go\ufffd"},
		{"unicode", "escaped NUL in a path", "read_file", b(`{"path":"notes/a.txt\u0000"}`), rawToolError, rawToolError, 0, "contains a NUL byte"},
	}
}

func TestHostileRawBytes(t *testing.T) {
	env := newHostileEnv(t)
	srv := env.reg.Server(&mcp.Implementation{Name: "hostile", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(nil))
	defer hs.Close()
	rows := hostileRawRows()
	for _, row := range rows {
		t.Run(row.category+"/"+row.name, func(t *testing.T) {
			t.Run("direct", func(t *testing.T) {
				res, err := env.reg.Call(context.Background(), row.tool, row.args)
				switch row.direct {
				case rawMalformed:
					require.Error(t, err)
					assert.Nil(t, res)
					assert.Equal(t, mcptool.CodeMalformedArguments, mcptool.CodeOf(err), "%v", err)
					var e *mcptool.Error
					require.True(t, errors.As(err, &e))
					assert.Equal(t, int64(jsonrpc.CodeInvalidParams), e.JSONRPC().Code)
					assert.Contains(t, e.JSONRPC().Message, "malformed JSON arguments at offset")
				case rawOK, rawToolError:
					require.NoError(t, err)
					require.NotEmpty(t, res.Content)
					assert.Equal(t, row.direct == rawToolError, res.IsError, "%s", textOf(res))
					assert.Contains(t, textOf(res), row.want)
					assert.NotContains(t, textOf(res), "internal error")
				default:
					t.Fatalf("bad row: direct %d", row.direct)
				}
				hsPingDirect(t, env.reg)
			})
			t.Run("http", func(t *testing.T) {
				w := hsPost(t, hs.URL, row.tool, row.args)
				switch row.wire {
				case rawOK, rawToolError:
					require.Equal(t, http.StatusOK, w.status, "%.300s", w.body)
					require.Nil(t, w.rpcErr)
					require.NotNil(t, w.result, "%.300s", w.body)
					require.NotEmpty(t, w.result.Content)
					assert.Equal(t, row.wire == rawToolError, w.result.IsError)
					assert.Contains(t, w.result.Content[0].(*mcp.TextContent).Text, row.want)
				case rawHTTP400:
					assert.Equal(t, http.StatusBadRequest, w.status)
					assert.Equal(t, "application/json", w.ctype)
					require.NotNil(t, w.rpcErr, "%.300s", w.body)
					assert.Equal(t, int64(jsonrpc.CodeParseError), w.rpcErr.Code)
					assert.Contains(t, w.rpcErr.Message, "parse error: invalid JSON at byte")
				case rawRPCError:
					require.NotNil(t, w.rpcErr, "%.300s", w.body)
					assert.Equal(t, row.rpcCode, w.rpcErr.Code, w.rpcErr.Message)
				case rawHTTPTooLarge:
					assert.Equal(t, http.StatusRequestEntityTooLarge, w.status)
				default:
					t.Fatalf("bad row: wire %d", row.wire)
				}
				// The server still serves.
				ok := hsPost(t, hs.URL, "ping", []byte(`{}`))
				require.NotNil(t, ok.result, "%.300s", ok.body)
				assert.False(t, ok.result.IsError)
				assert.Equal(t, "pong", ok.result.Content[0].(*mcp.TextContent).Text)
			})
		})
	}
	t.Run("unknown tool", func(t *testing.T) {
		w := hsPost(t, hs.URL, "nope", []byte(`{}`))
		require.NotNil(t, w.rpcErr, "%.300s", w.body)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), w.rpcErr.Code)
		assert.Equal(t, `unknown tool "nope"`, w.rpcErr.Message)
	})
	t.Run("not JSON at all", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader("\xff\xfe not json"))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		ok := hsPost(t, hs.URL, "ping", nil)
		require.NotNil(t, ok.result)
		assert.Equal(t, "pong", ok.result.Content[0].(*mcp.TextContent).Text)
	})
	env.assertNothingEscaped(t)
}

// TestHostileStreamFrame documents what a malformed JSON-RPC frame does on a
// stream transport (stdio, in memory): go-sdk v1.8.0 sends no -32700 and
// closes that session. Other sessions of the same server keep working.
func TestHostileStreamFrame(t *testing.T) {
	env := newHostileEnv(t)
	srv := env.reg.Server(&mcp.Implementation{Name: "hostile", Version: "1"}, nil)
	good := connectServer(t, srv)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW}, nil)
	require.NoError(t, err)
	defer ss.Close()
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	send := func(s string) { _, _ = io.WriteString(inW, s+"\n") }
	recv := func() (string, bool) {
		select {
		case l, ok := <-lines:
			return l, ok
		case <-time.After(5 * time.Second):
			t.Fatal("no answer")
			return "", false
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	l, ok := recv()
	require.True(t, ok)
	assert.Contains(t, l, `"protocolVersion":"2025-11-25"`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	// Invalid UTF-8 and duplicate keys are valid frames: answered.
	send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":{\"query\":\"go\xff\",\"query\":\"x\"}}}")
	l, ok = recv()
	require.True(t, ok)
	assert.Contains(t, l, `"isError":true`)
	assert.Contains(t, l, "must be valid UTF-8 text (type)")
	assert.Contains(t, l, "query: is given more than once (uniqueKeys)")
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"query":"go","limit":1e999}}}`)
	l, ok = recv()
	require.True(t, ok)
	assert.Contains(t, l, "limit: must be at most 100, got 1e999 (maximum)")

	// A malformed frame ends the session, without a -32700.
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{"query":NaN}}}`)
	_, ok = recv()
	assert.False(t, ok, "go-sdk closes a stream session on a malformed frame")

	// The server still serves its other sessions.
	res, err := good.CallTool(context.Background(), &mcp.CallToolParams{Name: "ping"})
	require.NoError(t, err)
	assert.Equal(t, "pong", res.Content[0].(*mcp.TextContent).Text)
}

// connectServer connects a go-sdk client to srv in memory.
func connectServer(t *testing.T, srv *mcptool.Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestHostileFileErrorsAreUserErrors: a client's bad path should get an
// isError result the model can act on. safety.Root marks only paths outside
// the root, missing and existing files as user errors; every other failure
// of os.Root is returned as it is, so the tool's error is masked as
// "internal error (ref ...)" and logged at error level for what is plain
// bad input (and a log line per hostile call).
func TestHostileFileErrorsAreUserErrors(t *testing.T) {
	env := newHostileEnv(t)
	require.NoError(t, os.Symlink("loop", filepath.Join(env.dataDir, "loop")))
	for _, p := range []string{
		strings.Repeat("a", 300), // ENAMETOOLONG
		"notes",                  // a directory
		".",                      // the root itself
		"notes/a.txt/x",          // ENOTDIR
		"loop",                   // ELOOP: a symlink to itself
		"",                       // empty
	} {
		for tool, args := range map[string]map[string]any{
			"read_file":  {"path": p},
			"write_file": {"path": p, "content": "x"},
		} {
			args, err := json.Marshal(args)
			require.NoError(t, err)
			res, err := env.reg.Call(context.Background(), tool, args)
			require.NoError(t, err)
			require.True(t, res.IsError)
			assert.NotContains(t, textOf(res), "internal error", "%s %.20q", tool, p)
			assert.NotContains(t, textOf(res), "is not a known argument")
		}
	}
	env.assertNothingEscaped(t)
}

// TestMalformedBeyondMaxDepthIsMalformed: Registry.Call documents arguments
// that are not JSON as a protocol error (CodeMalformedArguments). When the
// syntax error lies past the depth limit, the decoder stops at the limit and
// the call is an isError result (maxDepth) instead, so whether malformed
// input is a protocol error depends on where it is malformed.
func TestMalformedBeyondMaxDepthIsMalformed(t *testing.T) {
	reg := mcptool.NewRegistry(quiet())
	require.NoError(t, reg.Add("t", func(hsSearchArgs) (string, error) { return "ok", nil }))
	for _, args := range []string{
		`{"query":"go","x":` + strings.Repeat("[", 100),             // unclosed
		`{"query":"go","x":` + hsDeep(100, "[", "", "]") + `} junk`, // trailing garbage
		`{"query":"go","x":` + hsDeep(100, "[", "NaN", "]") + `}`,   // NaN past the limit
	} {
		res, err := reg.Call(context.Background(), "t", json.RawMessage(args))
		assert.Nil(t, res, "%.40q…", args)
		assert.Equal(t, mcptool.CodeMalformedArguments, mcptool.CodeOf(err), "%.40q…", args)
	}
	// Well-formed but too deep stays an isError result.
	res, err := reg.Call(context.Background(), "t", json.RawMessage(`{"query":"go","x":`+hsDeep(100, "[", "", "]")+`}`))
	require.NoError(t, err)
	assert.True(t, res.IsError)
}
