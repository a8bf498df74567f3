package mcpreflect

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/invopop/jsonschema"
)

// This file is the runtime of the code cmd/mcpgen generates (mcpgen_gen.go):
// RegisterGenerated, GeneratedType, GeneratedStruct and GeneratedField are
// for generated code only, and DumpGenerated is what cmd/mcpgen runs to
// write it. A package registers its doc comments and precomputed plans from
// init; registration then uses the comments as descriptions and the plans
// instead of reflecting over tags.

// GeneratedType is the precomputed data of one argument or result type, for
// generated code.
type GeneratedType struct {
	Type reflect.Type
	// Fingerprint identifies the type's shape and tags when the data was
	// generated; a type changed since falls back to reflection.
	Fingerprint string
	// Generation is the [SchemaGeneration] of the mcpgen that generated
	// the data; data of another generation falls back to reflection.
	// Generated code from before generations were recorded has none (0).
	Generation int
	// InputJSON and Input are the published input schema of an argument
	// type (Input is nil for a result type), and Structs what schema
	// derivation learned of each struct type it reaches, so the decoder
	// compiles without reading a tag.
	InputJSON string
	Input     *jsonschema.Schema
	Structs   []GeneratedStruct
	// OutputJSON and Output are the output schema of a result type;
	// OutputWrapped reports results sent as {"result": value}.
	OutputJSON    string
	Output        *jsonschema.Schema
	OutputWrapped bool
	// Load, when set, fills in the fields above the first time the type is
	// registered. cmd/mcpgen writes one small function per type so a
	// program builds only the plans it registers, and large generated files
	// compile quickly.
	Load func(*GeneratedType)
}

// GeneratedStruct is one struct type of a [GeneratedType], for generated
// code.
type GeneratedStruct struct {
	Key       string
	Schema    *jsonschema.Schema // the struct's own schema, its property template
	Recursive bool
	HasMeta   bool
	Meta      string // the mcp tag of its _ field
	Fields    []GeneratedField
}

// GeneratedField is one property of a [GeneratedStruct], for generated code.
type GeneratedField struct {
	Name     string
	GoName   string
	Index    []int
	Required bool
	Residual string
	Cross    []string // cross-field validator rules, such as "gtfield=Start"
}

var (
	docStore sync.Map // qualified name → doc comment
	docOwner sync.Map // qualified names with docs of their own or of members → true
	genTypes sync.Map // reflect.Type → *genEntry
	anyDocs  atomic.Bool
)

// genEntry is one registered generated type, loaded at first use.
type genEntry struct {
	once sync.Once
	g    GeneratedType
	// As registered, for CheckGenerated (g changes when it loads).
	fingerprint string
	generation  int
}

// loadGenerated returns the generated data of t, running its Load function
// once, if it is of this schema generation. Data of another is reported,
// not returned.
func loadGenerated(t reflect.Type) (GeneratedType, bool) {
	v, ok := genTypes.Load(t)
	if !ok {
		return GeneratedType{}, false
	}
	e := v.(*genEntry)
	if e.generation != SchemaGeneration {
		warnGeneration(t, e.generation)
		return GeneratedType{}, false
	}
	e.once.Do(func() {
		if e.g.Load != nil {
			e.g.Load(&e.g)
			e.g.Load = nil
		}
	})
	return e.g, true
}

// RegisterGenerated records a package's doc comments, by qualified name
// ("pkg/path.Func", "pkg/path.(*Recv).Method", "pkg/path.Recv.Method",
// "pkg/path.Type", "pkg/path.Type.Field"), and the precomputed data of its
// types. Generated files call it from init.
func RegisterGenerated(docs map[string]string, types ...GeneratedType) {
	if len(docs) > 0 {
		anyDocs.Store(true)
	}
	for k, v := range docs {
		docStore.Store(k, v)
		// "pkg/path.Type.Field" makes "pkg/path.Type" and "pkg/path" owners,
		// so lookups for types without docs stop at one map probe. (A path
		// whose last element has dots, "gopkg.in/yaml.v3", adds a few
		// prefixes that are no package: harmless.)
		for i := strings.LastIndexByte(k, '/') + 1; i < len(k); i++ {
			if k[i] == '.' {
				docOwner.Store(k[:i], true)
			}
		}
		docOwner.Store(k, true)
	}
	for _, t := range types {
		genTypes.Store(t.Type, &genEntry{g: t, fingerprint: t.Fingerprint, generation: t.Generation})
	}
}

// docOf returns the doc comment registered for a qualified name.
func docOf(name string) (string, bool) {
	v, ok := docStore.Load(name)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// FuncDoc returns the doc comment of a function or method value, from the
// generated data of its package.
func FuncDoc(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() || !anyDocs.Load() {
		return "" // (no generated docs at all: skip resolving the function's name)
	}
	f := runtime.FuncForPC(v.Pointer())
	if f == nil {
		return ""
	}
	name := strings.TrimSuffix(f.Name(), "-fm")
	name = strings.ReplaceAll(name, "[...]", "")
	d, _ := docOf(name)
	return d
}

// MethodDoc returns the doc comment of method name of type t (a pointer or
// not), from the generated data of its package.
func MethodDoc(t reflect.Type, name string) string {
	base := baseType(t)
	q := qualified(base)
	for _, k := range []string{
		base.PkgPath() + ".(*" + trimArgs(base.Name()) + ")." + name,
		q + "." + name,
	} {
		if d, ok := docOf(k); ok {
			return d
		}
	}
	return ""
}

// qualified names a named type for docs: "pkg/path.Name", type arguments
// dropped.
func qualified(t reflect.Type) string {
	return t.PkgPath() + "." + trimArgs(t.Name())
}

func trimArgs(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		return name[:i]
	}
	return name
}

// generatedComments looks doc comments up in the registered generated data.
func generatedComments(t reflect.Type, field string) string {
	if t.Name() == "" {
		return ""
	}
	if _, ok := docOwner.Load(t.PkgPath()); !ok {
		return "" // no docs in t's package: no string to build
	}
	key := qualified(t)
	if _, ok := docOwner.Load(key); !ok {
		return ""
	}
	if field != "" {
		key += "." + field
	}
	d, _ := docOf(key)
	return d
}

// fingerprint hashes the shape of t: every struct type it reaches, with its
// fields' names, types and tags. A plan generated for another shape is stale.
// It runs at every registration of a generated type, so it writes the shape
// into one buffer (each string length-prefixed) and hashes it once.
func fingerprint(t reflect.Type) string {
	var buf []byte
	str := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			buf = append(buf, '{')
			str(t.String())
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				str(f.Name)
				str(f.Type.String())
				str(string(f.Tag))
				if f.Anonymous {
					buf = append(buf, 1)
				} else {
					buf = append(buf, 0)
				}
				walk(f.Type)
			}
			buf = append(buf, '}')
		default:
			buf = append(buf, ';')
			str(t.String())
		}
	}
	walk(t)
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:12])
}

// typeKey identifies a struct type within one plan.
func typeKey(t reflect.Type) string { return t.PkgPath() + "|" + t.String() }

// DumpGenerated writes, as JSON, the generated data of the given argument
// and result types, with the plans and schemas as Go expressions: what
// cmd/mcpgen embeds in mcpgen_gen.go. Generated code imports invopop's
// jsonschema as mcpgen_jsonschema, this package as mcpgen_mcpreflect and
// encoding/json as mcpgen_json, and defines the helpers mcpgen_props and
// mcpgen_count (see schemaLiteral). The package's doc comments must be registered
// (RegisterGenerated with docs only) first.
func DumpGenerated(w io.Writer, inputs, outputs []reflect.Type) error {
	type entry struct {
		Type        string `json:"type"`
		Fingerprint string `json:"fingerprint"`
		Generation  int    `json:"generation"`
		InputJSON   string `json:"inputJSON,omitempty"`
		Input       string `json:"input,omitempty"`
		Structs     string `json:"structs,omitempty"`
		OutputJSON  string `json:"outputJSON,omitempty"`
		Output      string `json:"output,omitempty"`
		Wrapped     bool   `json:"wrapped,omitempty"`
	}
	byType := map[reflect.Type]*entry{}
	var order []reflect.Type
	get := func(t reflect.Type) *entry {
		if e, ok := byType[t]; ok {
			return e
		}
		e := &entry{Type: t.String(), Fingerprint: fingerprint(t), Generation: SchemaGeneration}
		byType[t] = e
		order = append(order, t)
		return e
	}
	for _, t := range inputs {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		b := newBuilder(t, Options{comments: generatedComments}, false)
		p, err := b.plan(t)
		if err != nil {
			return err
		}
		e := get(t)
		e.InputJSON = string(p.SchemaJSON)
		if e.Input, err = schemaLiteral(p.Schema); err == nil {
			e.Structs, err = structsLiteral(generatedStructs(b))
		}
		if err != nil {
			return fmt.Errorf("mcpreflect: %s: %w", t, err)
		}
	}
	for _, t := range outputs {
		o, err := buildOutput(t, Options{comments: generatedComments})
		if err != nil {
			return err
		}
		if o.SchemaJSON != nil {
			lit, err := schemaLiteral(o.Schema)
			if err != nil {
				return fmt.Errorf("mcpreflect: %s: %w", t, err)
			}
			e := get(t)
			e.OutputJSON, e.Output, e.Wrapped = string(o.SchemaJSON), lit, o.Wrapped
		}
	}
	out := make([]*entry, 0, len(order))
	for _, t := range order {
		out = append(out, byType[t])
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// generatedStructs is what the builder learned of each struct type, in its
// generated form.
func generatedStructs(b *builder) []GeneratedStruct {
	var out []GeneratedStruct
	keys := make([]reflect.Type, 0, len(b.structs))
	for st := range b.structs {
		keys = append(keys, st)
	}
	sort.Slice(keys, func(i, j int) bool { return typeKey(keys[i]) < typeKey(keys[j]) })
	for _, st := range keys {
		info := b.structs[st]
		gs := GeneratedStruct{Key: typeKey(st), Schema: info.schema, Recursive: info.recursive}
		if info.meta != nil {
			gs.HasMeta, gs.Meta = true, info.meta.tag
		}
		for _, f := range info.fields {
			gf := GeneratedField{Name: f.name, GoName: f.goName, Index: f.index, Required: f.required, Residual: f.residual}
			for _, c := range f.cross {
				gf.Cross = append(gf.Cross, c.raw)
			}
			gs.Fields = append(gs.Fields, gf)
		}
		out = append(out, gs)
	}
	return out
}

// structsLiteral renders generated structs as a Go expression.
func structsLiteral(structs []GeneratedStruct) (string, error) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[]%s.GeneratedStruct{\n", litSelfPkg)
	for _, gs := range structs {
		tmpl, err := schemaLiteral(gs.Schema)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&sb, "{Key: %q, Schema: %s", gs.Key, tmpl)
		if gs.Recursive {
			sb.WriteString(", Recursive: true")
		}
		if gs.HasMeta {
			fmt.Fprintf(&sb, ", HasMeta: true, Meta: %q", gs.Meta)
		}
		sb.WriteString(", Fields: []" + litSelfPkg + ".GeneratedField{\n")
		for _, f := range gs.Fields {
			fmt.Fprintf(&sb, "{Name: %q, GoName: %q, Index: %#v", f.Name, f.GoName, f.Index)
			if f.Required {
				sb.WriteString(", Required: true")
			}
			if f.Residual != "" {
				fmt.Fprintf(&sb, ", Residual: %q", f.Residual)
			}
			if len(f.Cross) > 0 {
				fmt.Fprintf(&sb, ", Cross: %#v", f.Cross)
			}
			sb.WriteString("},\n")
		}
		sb.WriteString("}},\n")
	}
	sb.WriteString("}")
	return sb.String(), nil
}

// generatedPlan returns the precomputed plan of t, or nil when there is
// none or it is stale.
func generatedPlan(t reflect.Type, opts Options) (*Plan, error) {
	if opts.KeepDefs || opts.DeclareDialect || opts.comments != nil {
		return nil, nil // generated for the default options only
	}
	g, ok := loadGenerated(t)
	if !ok {
		return nil, nil
	}
	if g.Input == nil || g.Fingerprint != fingerprint(t) {
		return nil, nil
	}
	b := newBuilder(t, opts, false)
	types := structTypes(t)
	for _, gs := range g.Structs {
		st, ok := types[gs.Key]
		if !ok {
			return nil, nil // the shape changed in a way the fingerprint missed
		}
		info := &structInfo{t: st, schema: gs.Schema, recursive: gs.Recursive}
		if gs.HasMeta {
			info.meta = &metaField{tag: gs.Meta}
		}
		for _, gf := range gs.Fields {
			f := &fieldInfo{name: gf.Name, goName: gf.GoName, index: gf.Index, required: gf.Required, residual: gf.Residual}
			sf := fieldByIndex(st, gf.Index)
			f.typ, f.tags.raw = sf.Type, sf.Tag // the raw tag, to quote in errors
			if gs.Schema.Properties != nil {
				f.schema, _ = gs.Schema.Properties.Get(gf.Name)
			}
			if f.schema == nil {
				return nil, nil
			}
			for _, raw := range gf.Cross {
				rule, other, _ := strings.Cut(raw, "=")
				f.cross = append(f.cross, crossRule{rule: rule, other: other, raw: raw})
			}
			info.fields = append(info.fields, f)
		}
		b.structs[st] = info
		if gs.Recursive {
			b.addDef(st, info.schema)
		}
	}
	if b.structs[t] == nil {
		return nil, nil
	}
	b.structs[t].schema = g.Input
	p, err := b.compilePlan(t, g.Input)
	if err != nil {
		return nil, err
	}
	p.SchemaJSON = json.RawMessage(g.InputJSON)
	p.Generated = true
	return p, nil
}

// structTypes finds every struct type reachable from t, by key.
func structTypes(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Elem())
		case reflect.Struct:
			k := typeKey(t)
			if _, ok := out[k]; ok {
				return
			}
			out[k] = t
			for i := 0; i < t.NumField(); i++ {
				walk(t.Field(i).Type)
			}
		}
	}
	walk(t)
	return out
}

// generatedOutput returns the precomputed output schema of t, if it is
// current.
func generatedOutput(t reflect.Type, opts Options) (GeneratedType, bool) {
	if opts.KeepDefs || opts.DeclareDialect || opts.comments != nil {
		return GeneratedType{}, false
	}
	g, ok := loadGenerated(t)
	if !ok {
		return GeneratedType{}, false
	}
	return g, g.Output != nil && g.Fingerprint == fingerprint(t)
}
