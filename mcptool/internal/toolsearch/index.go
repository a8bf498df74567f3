package toolsearch

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
)

// Field weights: a term in a tool's name says most about it; its group
// and description next; its arguments less, and the fields nested in its
// arguments least.
const (
	WeightName        = 3.0
	WeightGroup       = 1.5
	WeightDescription = 1.0
	WeightArgName     = 1.0
	WeightArgDesc     = 0.5
	WeightFieldName   = 0.25
)

// BM25 parameters: k1 saturates repeated terms, b normalises by length.
const (
	k1 = 1.2
	b  = 0.75
)

// Doc is one tool's text by field.
type Doc struct {
	Name        string
	Group       string
	Description string
	Args        []Arg
	Fields      []string // the names of the properties nested in arguments (a request body's fields)
}

// Arg is one top-level argument: its name and description.
type Arg struct {
	Name, Description string
}

type posting struct {
	doc int32
	tf  float32 // the weighted term frequency
}

// Index ranks a fixed set of documents. It is immutable once built: safe
// for concurrent searches.
type Index struct {
	terms   map[string]int32 // term → id
	concept []int32          // by term id: its concept's id, -1 for none
	post    [][]posting      // by term id, doc ascending
	idf     []float32        // by term id
	norm    []float32        // per doc: k1·(1-b+b·len/avgLen)
	names   []string         // per doc, for ties and exact matches
	nameT   [][]int32        // per doc: the term ids of its name (concepts apart)
	nameW   []float32        // per doc: the sum of the idf of nameT
	damp    []float32        // per doc: 1, or less for a deprecated tool
	byName  map[string]int32
	vocab   []string  // the words (concepts apart), sorted: for prefixes
	pool    sync.Pool // *scratch
}

// Build indexes docs; a result's Doc is its position in docs.
func Build(docs []Doc) *Index {
	ix := &Index{terms: map[string]int32{}, names: make([]string, len(docs)), byName: make(map[string]int32, len(docs)), norm: make([]float32, len(docs)),
		nameT: make([][]int32, len(docs)), nameW: make([]float32, len(docs)), damp: make([]float32, len(docs))}
	lens := make([]float64, len(docs))
	total := 0.0
	tf := map[int32]float32{}
	vocab := map[string]bool{}
	for _, doc := range docs {
		for _, t := range Tokens(doc.Name) {
			vocab[t] = true
		}
	}
	for d, doc := range docs {
		clear(tf)
		l := 0.0
		term := func(t string, w float64) {
			id, ok := ix.terms[t]
			if !ok {
				id = int32(len(ix.post))
				ix.terms[t] = id
				ix.post = append(ix.post, nil)
			}
			tf[id] += float32(w)
		}
		add := func(text string, w float64) {
			for _, t := range Tokens(text) {
				term(t, w)
				if c, ok := concepts()[t]; ok {
					term(c, w*conceptWeight)
				}
				l += w
			}
		}
		add(doc.Name, WeightName)
		for _, t := range Tokens(doc.Name) {
			parts := split(t, vocab)
			for _, p := range parts {
				add(p, WeightName*splitWeight)
			}
			ids := []int32{ix.terms[t]} // t is stemmed already: stemming twice may change it
			if parts != nil {
				ids = ids[:0]
				for _, p := range parts {
					ids = append(ids, ix.terms[Stem(p)])
				}
			}
			for _, id := range ids {
				if !slices.Contains(ix.nameT[d], id) {
					ix.nameT[d] = append(ix.nameT[d], id)
				}
			}
		}
		ix.damp[d] = 1
		if deprecated(doc.Description) {
			ix.damp[d] = deprecatedDamp
		}
		add(doc.Group, WeightGroup)
		add(doc.Description, WeightDescription)
		for _, a := range doc.Args {
			add(a.Name, WeightArgName)
			add(a.Description, WeightArgDesc)
		}
		for _, f := range doc.Fields {
			add(f, WeightFieldName)
		}
		ids := make([]int32, 0, len(tf))
		for id := range tf {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			ix.post[id] = append(ix.post[id], posting{int32(d), tf[id]})
		}
		lens[d] = l
		total += l
		ix.names[d] = doc.Name
		ix.byName[doc.Name] = int32(d)
	}
	avg := 1.0
	if len(docs) > 0 && total > 0 {
		avg = total / float64(len(docs))
	}
	for d := range docs {
		ix.norm[d] = float32(k1 * (1 - b + b*lens[d]/avg))
	}
	n := float64(len(docs))
	ix.idf = make([]float32, len(ix.post))
	for id, p := range ix.post {
		df := float64(len(p))
		ix.idf[id] = float32(math.Log(1 + (n-df+0.5)/(df+0.5)))
	}
	ix.concept = make([]int32, len(ix.post))
	for t, id := range ix.terms {
		ix.concept[id] = -1
		if c, ok := concepts()[t]; ok {
			if cid, ok := ix.terms[c]; ok {
				ix.concept[id] = cid
			}
		}
	}
	for d, ts := range ix.nameT {
		for _, id := range ts {
			ix.nameW[d] += ix.idf[id]
		}
	}
	for t := range ix.terms {
		if !strings.HasPrefix(t, "@") {
			ix.vocab = append(ix.vocab, t)
		}
	}
	slices.Sort(ix.vocab)
	n32 := len(docs)
	nt := len(ix.post)
	ix.pool.New = func() any { return &scratch{make([]float32, n32), make([]bool, nt), nil} }
	return ix
}

// Len is the number of documents.
func (ix *Index) Len() int { return len(ix.names) }

// Hit is one ranked document.
type Hit struct {
	Doc   int
	Score float64
}

// Search returns at most limit documents for query, best first, among
// those keep accepts (nil keeps all); ties go to the smaller name. A
// document named exactly as the query ranks first.
func (ix *Index) Search(query string, limit int, keep func(doc int) bool) []Hit {
	if limit <= 0 || len(ix.names) == 0 {
		return nil
	}
	terms := Tokens(query)
	ids := make([]int32, 0, 2*len(terms))
	weights := make([]float32, 0, 2*len(terms))
	want := func(t string, w float32) {
		if id, ok := ix.terms[t]; ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
			weights = append(weights, w)
		}
	}
	for _, t := range terms {
		want(t, 1)
	}
	for _, t := range terms {
		if c, ok := concepts()[t]; ok {
			want(c, conceptWeight)
		}
	}
	for _, t := range terms {
		if r, ok := related[concepts()[t]]; ok {
			want(r, conceptWeight*relatedWeight)
		}
	}
	for _, t := range terms {
		ix.prefixed(t, want)
	}
	buf := ix.pool.Get().(*scratch)
	score, asked := buf.score, buf.asked
	for _, id := range ids {
		asked[id] = true
	}
	touched := buf.touched[:0]
	for i, id := range ids {
		idf := ix.idf[id] * weights[i]
		for _, p := range ix.post[id] {
			if score[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			score[p.doc] += idf * p.tf * (k1 + 1) / (p.tf + ix.norm[p.doc])
		}
	}
	if d, ok := ix.byName[query]; ok {
		if score[d] == 0 {
			touched = append(touched, d)
		}
		score[d] += 1e6
	}
	better := func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(ix.names[a.Doc], ix.names[b.Doc])
	}
	// Keep the best limit hits in order as they come: better is a total
	// order (names are unique), so the order of touched does not matter.
	top := make([]Hit, 0, min(len(touched), limit))
	for _, d := range touched {
		s := float64(score[d]*ix.damp[d]) * (1 + nameBoost*ix.nameCover(int(d), asked))
		score[d] = 0
		if keep != nil && !keep(int(d)) {
			continue
		}
		h := Hit{int(d), s}
		if len(top) == limit {
			if better(h, top[limit-1]) >= 0 {
				continue
			}
			top = top[:limit-1]
		}
		i, _ := slices.BinarySearchFunc(top, h, better)
		top = slices.Insert(top, i, h)
	}
	for _, id := range ids {
		asked[id] = false
	}
	buf.touched = touched
	ix.pool.Put(buf)
	return top
}

// nameBoost scales how much a name the query covers lifts a tool: a tool
// whose whole name the query speaks of scores (1+nameBoost) times its
// BM25F score.
const nameBoost = 3.0

// deprecatedDamp scales the score of a tool whose description starts by
// saying it is deprecated: its replacement ranks first.
const deprecatedDamp = 0.5

// nameCover is the share of d's name, weighted by idf, that the query's
// terms (asked, by term id: words and concepts) cover: a name term is
// covered by itself or by its concept.
func (ix *Index) nameCover(d int, asked []bool) float64 {
	if ix.nameW[d] == 0 {
		return 0
	}
	var got float32
	for _, id := range ix.nameT[d] {
		if c := ix.concept[id]; asked[id] || c >= 0 && asked[c] {
			got += ix.idf[id]
		}
	}
	return float64(got / ix.nameW[d])
}

// scratch is one search's buffers: scores by document, and the query's
// terms by term id, both zero between searches; and the documents scored,
// kept for its capacity.
type scratch struct {
	score   []float32
	asked   []bool
	touched []int32
}

// deprecated reports a description that starts by saying so.
func deprecated(desc string) bool {
	desc = strings.TrimSpace(desc)
	return len(desc) >= 10 && strings.EqualFold(desc[:10], "deprecated")
}

// splitWeight scales the parts of a compound name word (tasklists → task,
// list; tabledata → table, data) against the word itself.
const splitWeight = 0.5

// split returns the two parts of a compound word t, each of at least three
// letters and each (stemmed) a word of some tool's name, or nil: the
// first split from the left that works.
func split(t string, vocab map[string]bool) []string {
	for i := 3; i+3 <= len(t); i++ {
		a, b := t[:i], t[i:]
		if vocab[Stem(a)] && vocab[Stem(b)] {
			return []string{a, b}
		}
	}
	return nil
}

// Prefix matching: a query word of at least prefixMin letters also
// matches the longer words it starts (react → reaction, access →
// accessproposals), at prefixWeight: the stemmer keeps derived words
// apart, and a compound name word that does not split still names its
// first part.
const (
	prefixMin    = 5
	prefixWeight = 0.6
)

// prefixed calls want for each indexed word that t is a strict prefix of.
func (ix *Index) prefixed(t string, want func(string, float32)) {
	if len(t) < prefixMin {
		return
	}
	i, found := slices.BinarySearch(ix.vocab, t)
	if found {
		i++
	}
	for ; i < len(ix.vocab) && strings.HasPrefix(ix.vocab[i], t); i++ {
		want(ix.vocab[i], prefixWeight)
	}
}
