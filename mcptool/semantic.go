package mcptool

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/internal/toolsearch"
)

// Semantic ranking (docs/discovery.md): words alone miss a query that says
// what a tool does in other words ("merge several objects" for a tool that
// concatenates them). With SearchEmbedder, the lexical ranker still picks
// the candidates and the first hit, which it gets right most often; the
// other candidates are ordered by their lexical score and the cosine of
// their vectors with the query's.

// SearchEmbedder makes search_tools, and a tools/list with a query, rank by
// meaning as well as by words. embed returns one vector per text, all of
// one length: a sentence-embedding model of the server's choosing (a local
// model, or an API). The tools' texts (name, title, description) are
// embedded by the first search, in batches of at most 64; after a change of
// the registry's tools, the first search embeds the texts that are new;
// each search embeds its query. The lexical ranker's first hit stays first;
// the rest of its best 20 are ordered by their lexical score, as a share of
// the best of them, plus 3 × the cosine of the tool's vector and the
// query's. Until the tools are embedded, and for a search whose embedding
// fails (logged), tools are ranked by words alone.
func SearchEmbedder(embed func(ctx context.Context, texts []string) ([][]float32, error)) RegistryOption {
	return registryOption(func(c *registryConfig) { c.embed = embed })
}

// Semantic ranking's settings: how many lexical candidates it reorders, how
// much the cosine weighs against the lexical share, how many texts go in
// one call of the embedder, and how long after a failed embedding of the
// tools the next search tries again.
const (
	semanticCandidates = 20
	semanticWeight     = 3.0
	embedBatch         = 64
	embedRetry         = 30 * time.Second
)

// embedder ranks search_tools' hits by meaning: the registry's
// SearchEmbedder, the logger its failures go to, and the vectors of the
// last snapshot embedded. Discovery holds it (proxy.go: discovery), nil
// without SearchEmbedder.
type embedder struct {
	fn     func(ctx context.Context, texts []string) ([][]float32, error)
	logger *slog.Logger
	cache  vectorCache
}

// vectorCache keeps the vectors of the last snapshot embedded, by text: a
// change embeds only the tools whose text is new, and an embedding that
// failed half way resumes where it stopped.
type vectorCache struct {
	mu     sync.Mutex
	byText map[string][]float32
}

// toolVectors are the embedded texts of one snapshot's searchable tools.
type toolVectors struct {
	mu     sync.Mutex // held while embedding: a search that finds it held ranks by words
	vecs   [][]float32
	failed time.Time // of the last failed embedding, for embedRetry
}

// vectors returns the unit vectors of docs, one snapshot's searchable
// tools, by position, from tv, their vectors, embedding them if need be;
// nil when they are not (yet) available.
func (e *embedder) vectors(ctx context.Context, docs []*tool, tv *toolVectors) [][]float32 {
	if !tv.mu.TryLock() {
		return nil // another search is embedding them
	}
	defer tv.mu.Unlock()
	if tv.vecs != nil || time.Since(tv.failed) < embedRetry {
		return tv.vecs
	}
	texts := make([]string, len(docs))
	for i, t := range docs {
		texts[i] = embedText(t.name, t.def.Title, t.def.Description)
	}
	e.cache.mu.Lock()
	known := e.cache.byText
	e.cache.mu.Unlock()
	byText := make(map[string][]float32, len(texts))
	var fresh []string
	for _, text := range texts {
		if _, dup := byText[text]; dup {
			continue
		}
		vec, ok := known[text]
		byText[text] = vec
		if !ok {
			fresh = append(fresh, text)
		}
	}
	for batch := range slices.Chunk(fresh, embedBatch) {
		got, err := e.embed(ctx, batch)
		if err != nil {
			e.cache.keep(byText) // the batches embedded so far count next time
			return tv.fail(ctx, e, err)
		}
		for i, text := range batch {
			byText[text] = got[i]
		}
	}
	vecs := make([][]float32, len(texts))
	for i, text := range texts {
		vecs[i] = byText[text]
	}
	for _, x := range vecs {
		if len(x) != len(vecs[0]) { // the embedder changed its vectors' length since the last snapshot
			e.cache.keep(nil) // the next attempt embeds every tool
			return tv.fail(ctx, e, fmt.Errorf("the embedder returned vectors of %d and %d numbers", len(vecs[0]), len(x)))
		}
	}
	e.cache.keep(byText)
	tv.vecs = vecs
	return vecs
}

// fail records a failed embedding of the tools (one cut short by its
// request's end is tried again at once), logs it, and returns no vectors.
func (tv *toolVectors) fail(ctx context.Context, e *embedder, err error) [][]float32 {
	if ctx.Err() == nil {
		tv.failed = time.Now()
	}
	e.logger.WarnContext(ctx, "mcptool: embedding the tools for search_tools failed; ranking by words", "err", err)
	return nil
}

// keep makes the vectors of byText that are known (not nil) the cache's.
func (c *vectorCache) keep(byText map[string][]float32) {
	kept := make(map[string][]float32, len(byText))
	for text, vec := range byText {
		if vec != nil {
			kept[text] = vec
		}
	}
	c.mu.Lock()
	c.byText = kept
	c.mu.Unlock()
}

// embed calls the embedder, and checks that it returned a vector of the
// length of the others for each text; the vectors it returns are of unit
// length (zero vectors stay zero).
func (e *embedder) embed(ctx context.Context, texts []string) ([][]float32, error) {
	got, err := e.fn(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(got) != len(texts) {
		return nil, fmt.Errorf("the embedder returned %d vectors for %d texts", len(got), len(texts))
	}
	for i, x := range got {
		if len(x) == 0 || len(x) != len(got[0]) {
			return nil, fmt.Errorf("the embedder returned vectors of %d and %d numbers", len(got[0]), len(x))
		}
		got[i] = unit(x)
	}
	return got, nil
}

// rankByMeaning orders hits, the lexical ranker's best of docs (with
// their vectors tv), as SearchEmbedder says, and returns the first limit.
func (e *embedder) rankByMeaning(ctx context.Context, docs []*tool, tv *toolVectors, query string, hits []toolsearch.Hit, limit int) []toolsearch.Hit {
	if len(hits) <= 2 {
		return hits[:min(limit, len(hits))]
	}
	vecs := e.vectors(ctx, docs, tv)
	if vecs == nil {
		return hits[:min(limit, len(hits))]
	}
	q, err := e.embed(ctx, []string{query})
	if err == nil && len(q[0]) != len(vecs[0]) {
		err = fmt.Errorf("the embedder returned a query vector of %d numbers, and tool vectors of %d", len(q[0]), len(vecs[0]))
	}
	if err != nil {
		e.logger.WarnContext(ctx, "mcptool: embedding a search_tools query failed; ranking by words", "err", err)
		return hits[:min(limit, len(hits))]
	}
	rest := hits[1:]
	best := rest[0].Score // the rest are sorted: the best of them
	if best <= 0 {
		return hits[:min(limit, len(hits))]
	}
	for i, h := range rest {
		rest[i].Score = h.Score/best + semanticWeight*dot(q[0], vecs[h.Doc])
	}
	slices.SortFunc(rest, func(a, b toolsearch.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(docs[a.Doc].name, docs[b.Doc].name)
	})
	return hits[:min(limit, len(hits))]
}

// embedText is what the embedder reads of a tool: the words of its name
// (gmail_users_getProfile: gmail users get profile), its title and its
// description.
func embedText(name, title, description string) string {
	parts := []string{humanize(name)}
	for _, s := range []string{title, description} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ". ")
}

func unit(x []float32) []float32 {
	var n float64
	for _, f := range x {
		n += float64(f) * float64(f)
	}
	if n == 0 {
		return x
	}
	out := make([]float32, len(x))
	s := 1 / math.Sqrt(n)
	for i, f := range x {
		out[i] = float32(float64(f) * s)
	}
	return out
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
