package mcptool

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/internal/toolsearch"
	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The search index of discovery mode: what it derives from a snapshot of
// the tools and what of a tool it searches.

// catalogIndex is what discovery mode derives from one snapshot of the tools, once
// per change, when first asked.
type catalogIndex struct {
	once   sync.Once
	listed []*tool // eager tools and the discovery tools, sorted by name
	docs   []*tool // the searchable tools, by index position
	ix     *toolsearch.Index
	groups []groupInfo
	vecs   toolVectors // SearchEmbedder's vectors of docs, embedded on first use
}

type groupInfo struct {
	Name  string `json:"name"`
	Tools int    `json:"tools"`
}

// index returns set's discovery index, building it on first use.
func (r *Registry) index(set *toolSet) *catalogIndex {
	v := &set.index
	v.once.Do(func() { r.buildIndex(set, v) })
	return v
}

func (r *Registry) buildIndex(set *toolSet, v *catalogIndex) {
	d := r.disc
	docs := make([]toolsearch.Doc, 0, len(set.sorted))
	count := map[string]int{}
	var readHints, writeHints annotations.Effective
	readHints.ReadOnly = true
	writeHints.Idempotent = true
	anyWrite := false
	for _, t := range set.sorted {
		if t.eager {
			v.listed = append(v.listed, t)
		}
		if t.searchable() {
			v.docs = append(v.docs, t)
			docs = append(docs, searchDoc(t))
			if t.group != "" {
				count[t.group]++
			}
		}
		a := t.def.Annotations
		open := a.OpenWorldHint == nil || *a.OpenWorldHint
		if a.ReadOnlyHint {
			readHints.OpenWorld = readHints.OpenWorld || open
		} else {
			anyWrite = true
			writeHints.Destructive = writeHints.Destructive || a.DestructiveHint == nil || *a.DestructiveHint
			writeHints.Idempotent = writeHints.Idempotent && a.IdempotentHint
		}
		writeHints.OpenWorld = writeHints.OpenWorld || open
	}
	if !anyWrite {
		writeHints.Idempotent = false
	}
	v.ix = toolsearch.Build(docs)
	for g, n := range count {
		v.groups = append(v.groups, groupInfo{g, n})
	}
	slices.SortFunc(v.groups, func(a, b groupInfo) int { return strings.Compare(a.Name, b.Name) })
	v.listed = append(v.listed, d.search, withHints(d.call, readHints))
	if anyWrite {
		v.listed = append(v.listed, withHints(d.write, writeHints))
	}
	slices.SortFunc(v.listed, func(a, b *tool) int { return strings.Compare(a.name, b.name) })
}

// withHints returns a copy of the proxy p listed with the hints e: the
// most alarming of the tools it reaches.
func withHints(p *tool, e annotations.Effective) *tool {
	cp := *p
	def := *p.def
	def.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: e.ReadOnly, IdempotentHint: e.Idempotent, OpenWorldHint: &e.OpenWorld}
	if !e.ReadOnly {
		def.Annotations.DestructiveHint = &e.Destructive
	}
	cp.def = &def
	return &cp
}

// searchable reports whether search_tools (and a tools/list with a query)
// may find t: every tool but an app-only one, which only views call and the
// model, which reads what search finds, must never be shown.
func (t *tool) searchable() bool { return t.view == nil || !t.view.appOnly }

// searchDoc is the text of t that search ranks: its name, group, title and
// description, its top-level arguments' names and descriptions, and the
// names of the properties nested in them (read with wire.Members, each
// schema in one pass, not decoded: decoding 10,000 schemas costs seconds).
func searchDoc(t *tool) toolsearch.Doc {
	d := toolsearch.Doc{Name: t.name, Group: t.group, Description: t.def.Title + " " + t.def.Description}
	raw, ok := t.def.InputSchema.(json.RawMessage)
	if !ok {
		return d
	}
	_, _, props := schemaParts(raw)
	wire.Members(props, func(k []byte, v json.RawMessage) bool {
		desc, items, props := schemaParts(v)
		arg := toolsearch.Arg{Name: string(k)}
		arg.Description, _ = wire.Text(desc)
		d.Args = append(d.Args, arg)
		nestedFields(&d, items, props, 1)
		return true
	})
	slices.SortFunc(d.Args, func(a, b toolsearch.Arg) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(d.Fields)
	return d
}

// schemaParts returns the description, items and properties of schema, as
// they are in it (nil when absent).
func schemaParts(schema []byte) (desc, items, props json.RawMessage) {
	wire.Members(schema, func(k []byte, v json.RawMessage) bool {
		switch string(k) {
		case "description":
			desc = v
		case "items":
			items = v
		case "properties":
			props = v
		}
		return true
	})
	return desc, items, props
}

// maxNest bounds how deep nestedFields reads an argument's schema.
const maxNest = 3

// nestedFields adds to d.Fields the names of the properties of a schema
// (an argument's, or its items' for an array: its items and properties),
// and of theirs, down to maxNest levels: a request body's fields name what
// a tool changes.
func nestedFields(d *toolsearch.Doc, items, props json.RawMessage, depth int) {
	if depth > maxNest {
		return
	}
	if items != nil {
		_, _, props = schemaParts(items)
	}
	wire.Members(props, func(k []byte, v json.RawMessage) bool {
		d.Fields = append(d.Fields, string(k))
		_, items, props := schemaParts(v)
		nestedFields(d, items, props, depth+1)
		return true
	})
}
