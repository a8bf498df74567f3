package toolsearch

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// Field weights: a term in a tool's name says most about it; its group
// and description next; its arguments least.
const (
	WeightName        = 3.0
	WeightGroup       = 1.5
	WeightDescription = 1.0
	WeightArgName     = 1.0
	WeightArgDesc     = 0.5
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
}

// Arg is one argument: its name (a dotted path for nested ones) and
// description.
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
	terms  map[string]int32 // term → id
	post   [][]posting      // by term id, doc ascending
	idf    []float32        // by term id
	norm   []float32        // per doc: k1·(1-b+b·len/avgLen)
	names  []string         // per doc, for ties and exact matches
	byName map[string]int32
	pool   sync.Pool // *[]float32 score buffers
}

// Build indexes docs; a result's Doc is its position in docs.
func Build(docs []Doc) *Index {
	ix := &Index{terms: map[string]int32{}, names: make([]string, len(docs)), byName: make(map[string]int32, len(docs)), norm: make([]float32, len(docs))}
	lens := make([]float64, len(docs))
	total := 0.0
	tf := map[int32]float32{}
	for d, doc := range docs {
		clear(tf)
		l := 0.0
		add := func(text string, w float64) {
			for _, t := range Tokens(text) {
				id, ok := ix.terms[t]
				if !ok {
					id = int32(len(ix.post))
					ix.terms[t] = id
					ix.post = append(ix.post, nil)
				}
				tf[id] += float32(w)
				l += w
			}
		}
		add(doc.Name, WeightName)
		add(doc.Group, WeightGroup)
		add(doc.Description, WeightDescription)
		for _, a := range doc.Args {
			add(a.Name, WeightArgName)
			add(a.Description, WeightArgDesc)
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
	n32 := len(docs)
	ix.pool.New = func() any { s := make([]float32, n32); return &s }
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
	ids := make([]int32, 0, len(terms))
	for _, t := range terms {
		if id, ok := ix.terms[t]; ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	bufp := ix.pool.Get().(*[]float32)
	score := *bufp
	var touched []int32
	for _, id := range ids {
		idf := ix.idf[id]
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
	hits := make([]Hit, 0, min(len(touched), 4*limit))
	for _, d := range touched {
		s := score[d]
		score[d] = 0
		if keep != nil && !keep(int(d)) {
			continue
		}
		hits = append(hits, Hit{int(d), float64(s)})
	}
	ix.pool.Put(bufp)
	better := func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(ix.names[a.Doc], ix.names[b.Doc])
	}
	if len(hits) > limit {
		// Keep the best limit hits (a partial selection), then sort them.
		top := hits[:0:0]
		top = append(top, hits[:limit]...)
		slices.SortFunc(top, better)
		for _, h := range hits[limit:] {
			if better(h, top[limit-1]) < 0 {
				i, _ := slices.BinarySearchFunc(top, h, better)
				copy(top[i+1:], top[i:limit-1])
				top[i] = h
			}
		}
		return top
	}
	slices.SortFunc(hits, better)
	return hits
}
