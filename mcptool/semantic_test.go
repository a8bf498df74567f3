package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// meaning is a toy sentence embedder: one dimension per idea, a word adds
// one to its idea's; words it does not know add nothing. "scrap" and
// "cancel" are one idea, which no tool's words share with the query
// "scrap an invoice".
type meaning struct {
	mu      sync.Mutex
	calls   [][]string
	fail    error
	short   bool          // return one vector too few
	gate    chan struct{} // when set, embedding more than one text closes entered and waits for it
	entered chan struct{}
	once    sync.Once
}

var ideas = map[string]int{
	"invoice": 0, "invoices": 0,
	"scrap": 1, "cancel": 1, "cancels": 1, "void": 1,
	"list": 2, "lists": 2, "every": 2,
	"show": 3, "shows": 3, "one": 3,
	"csv": 4, "export": 4, "file": 4,
	"person": 5, "account": 5, "user": 5, "remove": 6, "removes": 6, "delete": 6,
}

func (m *meaning) embed(_ context.Context, texts []string) ([][]float32, error) {
	m.mu.Lock()
	m.calls = append(m.calls, texts)
	fail, short, gate := m.fail, m.short, m.gate
	m.mu.Unlock()
	if gate != nil && len(texts) > 1 {
		m.once.Do(func() { close(m.entered) })
		<-gate
	}
	if fail != nil {
		return nil, fail
	}
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, 7)
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if d, ok := ideas[w]; ok {
				v[d]++
			}
		}
		out[i] = v
	}
	if short {
		out = out[1:]
	}
	return out, nil
}

func (m *meaning) calledWith() [][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]string(nil), m.calls...)
}

// invoices is a registry of invoice tools in discovery mode, with more
// options.
func invoices(t *testing.T, opts ...mcptool.RegistryOption) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(append([]mcptool.RegistryOption{mcptool.Discovery()}, opts...)...)
	for name, desc := range map[string]string{
		"list_invoices":   "Lists every invoice of the account, newest first.",
		"get_invoice":     "Shows one invoice: its lines and total.",
		"void_invoice":    "Cancels an unpaid invoice so that it is never charged.",
		"export_invoices": "Writes the invoices to a CSV file.",
	} {
		require.NoError(t, mcptool.Add(reg, name, func(context.Context, struct{}) (string, error) { return name, nil }, mcptool.Description(desc)))
	}
	return reg
}

func TestSearchEmbedder(t *testing.T) {
	query := map[string]any{"query": "scrap an invoice", "limit": 2}
	words := foundNames(search(t, mcptest.Client(t, invoices(t)), query))
	require.Len(t, words, 2)
	assert.NotContains(t, words, "void_invoice", "words alone: no word of the query names voiding")

	m := &meaning{}
	c := mcptest.Client(t, invoices(t, mcptool.SearchEmbedder(m.embed)))
	got := foundNames(search(t, c, query))
	assert.Equal(t, []string{words[0], "void_invoice"}, got, "the first hit is words', the next the closest in meaning")

	calls := m.calledWith()
	require.Len(t, calls, 2, "the tools in one batch, then the query")
	assert.Len(t, calls[0], 4)
	assert.Contains(t, calls[0], "void invoice. Cancels an unpaid invoice so that it is never charged.",
		"a tool's text: the words of its name, then its description")
	assert.Equal(t, []string{"scrap an invoice"}, calls[1])

	search(t, c, map[string]any{"query": "export invoices"})
	assert.Len(t, m.calledWith(), 3, "the tools are embedded once; each query once")
	search(t, c, map[string]any{"group": "none"})
	search(t, c, map[string]any{})
	assert.Len(t, m.calledWith(), 3, "no query, no embedding")
}

func TestSearchEmbedderReembedsOnChange(t *testing.T) {
	m := &meaning{}
	reg := invoices(t, mcptool.SearchEmbedder(m.embed))
	c := mcptest.Client(t, reg)
	search(t, c, map[string]any{"query": "scrap an invoice"})
	require.NoError(t, mcptool.Add(reg, "remove_user", func(context.Context, struct{}) (string, error) { return "", nil },
		mcptool.Description("Removes a person's account.")))
	search(t, c, map[string]any{"query": "scrap an invoice"})
	calls := m.calledWith()
	require.Len(t, calls, 4)
	assert.Equal(t, []string{"remove user. Removes a person's account."}, calls[2], "a new tool: only its text is embedded")

	// A removed tool's vector is forgotten: added back, it is embedded again.
	reg.Remove("remove_user")
	search(t, c, map[string]any{"query": "scrap an invoice"})
	require.NoError(t, mcptool.Add(reg, "remove_user", func(context.Context, struct{}) (string, error) { return "", nil },
		mcptool.Description("Removes a person's account.")))
	search(t, c, map[string]any{"query": "scrap an invoice"})
	calls = m.calledWith()
	require.Len(t, calls, 7, "the query twice, the returning tool once")
	assert.Equal(t, []string{"remove user. Removes a person's account."}, calls[5])
}

// An embedder whose vectors change length between snapshots (another
// model) is refused as one that fails: the search ranks by words.
func TestSearchEmbedderChangesLength(t *testing.T) {
	m := &meaning{}
	long := false
	embed := func(ctx context.Context, texts []string) ([][]float32, error) {
		out, err := m.embed(ctx, texts)
		if long {
			for i := range out {
				out[i] = append(out[i], 1)
			}
		}
		return out, err
	}
	var log bytes.Buffer
	reg := invoices(t, mcptool.SearchEmbedder(embed), mcptool.Logger(slog.New(slog.NewTextHandler(&log, nil))))
	c := mcptest.Client(t, reg)
	query := map[string]any{"query": "scrap an invoice", "limit": 2}
	assert.Equal(t, "void_invoice", foundNames(search(t, c, query))[1])
	long = true
	require.NoError(t, mcptool.Add(reg, "remove_user", func(context.Context, struct{}) (string, error) { return "", nil },
		mcptool.Description("Removes a person's account.")))
	words := foundNames(search(t, mcptest.Client(t, invoices(t)), query))
	assert.Equal(t, words, foundNames(search(t, c, query)))
	assert.Contains(t, log.String(), "vectors of 7 and 8 numbers")
}

func TestSearchEmbedderBatches(t *testing.T) {
	m := &meaning{}
	reg := mcptool.NewRegistry(mcptool.Discovery(), mcptool.SearchEmbedder(m.embed))
	for i := range 70 {
		require.NoError(t, mcptool.Add(reg, fmt.Sprintf("get_invoice_%02d", i), func(context.Context, struct{}) (string, error) { return "", nil },
			mcptool.Description("Shows one invoice.")))
	}
	search(t, mcptest.Client(t, reg), map[string]any{"query": "invoice"})
	calls := m.calledWith()
	require.Len(t, calls, 3)
	assert.Equal(t, []int{64, 6, 1}, []int{len(calls[0]), len(calls[1]), len(calls[2])})
}

// An embedder that fails, or answers wrong, costs no search: it ranks by
// words, and the server's log says why.
func TestSearchEmbedderFails(t *testing.T) {
	query := map[string]any{"query": "scrap an invoice", "limit": 2}
	words := foundNames(search(t, mcptest.Client(t, invoices(t)), query))
	for name, m := range map[string]*meaning{
		"error":         {fail: errors.New("model offline")},
		"wrong lengths": {short: true},
	} {
		t.Run(name, func(t *testing.T) {
			var log bytes.Buffer
			c := mcptest.Client(t, invoices(t, mcptool.SearchEmbedder(m.embed),
				mcptool.Logger(slog.New(slog.NewTextHandler(&log, nil)))))
			assert.Equal(t, words, foundNames(search(t, c, query)))
			assert.Contains(t, log.String(), "embedding the tools for search_tools failed")
			n := len(m.calledWith())
			search(t, c, query)
			assert.Len(t, m.calledWith(), n, "a failed embedding is not retried at once")
		})
	}
}

// A search never waits for another's embedding of the tools: until they
// are embedded it ranks by words.
func TestSearchEmbedderDoesNotWait(t *testing.T) {
	query := map[string]any{"query": "scrap an invoice", "limit": 2}
	words := foundNames(search(t, mcptest.Client(t, invoices(t)), query))
	m := &meaning{gate: make(chan struct{}), entered: make(chan struct{})}
	c := mcptest.Client(t, invoices(t, mcptool.SearchEmbedder(m.embed)))
	done := make(chan []string)
	go func() { done <- foundNames(search(t, c, query)) }()
	<-m.entered // the first search is embedding the tools
	assert.Equal(t, words, foundNames(search(t, c, query)), "the second search ranks by words")
	close(m.gate)
	assert.Equal(t, []string{words[0], "void_invoice"}, <-done)
}

// Ranking by meaning reorders what the caller may see: a tool it may not
// call is never found, however close in meaning.
func TestSearchEmbedderAuthorization(t *testing.T) {
	m := &meaning{}
	reg := discoveryRegistry(t, mcptool.SearchEmbedder(m.embed))
	find := func(ctx context.Context, query string) []string {
		res, err := reg.Call(ctx, "search_tools", json.RawMessage(`{"query":"`+query+`"}`))
		require.NoError(t, err)
		var f found
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &f))
		return foundNames(f)
	}
	ctx := mcptool.Authenticated(context.Background(), &auth.TokenInfo{Scopes: []string{"other"}, UserID: "u"})
	for _, q := range []string{"remove a user account and its invoice", "delete the invoice of a user"} {
		assert.Contains(t, find(context.Background(), q), "delete_user")
		assert.NotContains(t, find(ctx, q), "delete_user", "delete_user needs a scope the caller has not")
	}
	assert.NotEmpty(t, m.calledWith())
}
