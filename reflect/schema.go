package mcpreflect

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/docname"
)

// Options change how schemas are derived. The zero value is the default:
// every $ref inlined (only recursive types keep $defs), no "$schema" keyword.
type Options struct {
	// KeepDefs keeps every named struct type in "$defs" and refers to it with
	// "$ref" instead of inlining it.
	KeepDefs bool
	// DeclareDialect adds "$schema": "https://json-schema.org/draft/2020-12/schema"
	// to the root of the schema.
	DeclareDialect bool
	// NoOutputSchema makes an Output publish no schema: its results carry
	// no structuredContent, and a value that is not content is sent as its
	// JSON in a text block.
	NoOutputSchema bool
	// Types are the handlers of types mcpgen does not describe by
	// reflection, asked in order (see [TypeHandler]).
	Types []TypeHandler

	// comments supplies doc comments: comments(t, "") for a type,
	// comments(t, "Field") for a field. A tag always wins over a comment.
	// Unset, they come from generated data; set, the plan is derived by
	// reflection and not cached.
	comments func(t reflect.Type, field string) string
}

// dialect is the JSON Schema dialect mcpgen produces.
const dialect = "https://json-schema.org/draft/2020-12/schema"

var (
	timeType        = reflect.TypeFor[time.Time]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	bytesType       = reflect.TypeFor[[]byte]()
	jsonSchemaer    = reflect.TypeFor[interface{ JSONSchema() *jsonschema.Schema }]()
	schemaExtender  = reflect.TypeFor[interface{ JSONSchemaExtend(*jsonschema.Schema) }]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// builder derives schemas for one root type.
type builder struct {
	opts    Options
	output  bool // deriving an output schema: validate tags are not enforced, `any` is allowed
	root    reflect.Type
	structs map[reflect.Type]*structInfo
	stack   []reflect.Type
	defs    map[string]*jsonschema.Schema
	defName map[reflect.Type]string
	names   map[string]reflect.Type
	// uses counts, for each struct type, the places that take its schema
	// (at least): a type taken once gets its template itself, not a copy.
	// Nil (output schemas) means copy always.
	uses map[reflect.Type]int
}

func newBuilder(root reflect.Type, opts Options, output bool) *builder {
	// defs, defName and names are made when a $defs entry is (recursive
	// types, KeepDefs): most types never need them.
	return &builder{opts: opts, output: output, root: root, structs: map[reflect.Type]*structInfo{}}
}

// structInfo is one struct type's schema template and fields.
type structInfo struct {
	t         reflect.Type
	schema    *jsonschema.Schema
	fields    []*fieldInfo
	recursive bool
	meta      *metaField   // the `_ struct{}` field with an mcp tag, if any
	dec       *structDec   // compiled lazily
	sound     []*fieldInfo // the fields whose tags are good, also when others' are not
}

// fieldInfo is one JSON property of a struct.
type fieldInfo struct {
	name      string // JSON name
	goName    string // Go field path, for errors
	typ       reflect.Type
	index     []int
	required  bool
	schema    *jsonschema.Schema // the property's schema (inside the struct template)
	validate  []vlevel           // validator levels
	residual  string             // validator tag for rules JSON Schema cannot say
	cross     []crossRule
	tags      fieldTags
	decl      reflect.Type // the struct type that declares the field (an embedded one, for a promoted field)
	declName  string       // the field's name in decl
	defaultOK bool         // schema carries a default
}

type crossRule struct {
	rule  string // eqfield, ...
	other string // Go name of the sibling field
	raw   string
}

type metaField struct {
	tag string
}

func typeString(t reflect.Type) string {
	if t == nil {
		return "<nil>"
	}
	return t.String()
}

// schemaFor returns a fresh schema for a value of type t. For struct types it
// is a copy of the struct's template, or a $ref when the type is recursive or
// Options.KeepDefs is set.
func (b *builder) schemaFor(t reflect.Type) (*jsonschema.Schema, error) {
	if s, ok, err := b.custom(t); ok || err != nil {
		return s, err
	}
	switch {
	case t == timeType:
		return &jsonschema.Schema{Type: "string", Format: "date-time"}, nil
	case t == rawMessageType:
		return &jsonschema.Schema{}, nil
	case t == bytesType:
		return &jsonschema.Schema{Type: "string", ContentEncoding: "base64"}, nil
	}
	if !methodless(t) {
		// Interfaces that say what JSON the type has (a methodless type,
		// the common case, skips the method-set scans).
		if b.output && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && (t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler)) {
			// A result that marshals itself: its fields say nothing of its JSON.
			if t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
				return &jsonschema.Schema{Type: "string"}, nil
			}
			return &jsonschema.Schema{}, nil
		}
		if t.Kind() != reflect.Pointer && (t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler)) {
			if b.output {
				if reflect.PointerTo(t).Implements(textUnmarshaler) {
					return &jsonschema.Schema{Type: "string"}, nil
				}
				return &jsonschema.Schema{}, nil
			}
			return nil, &DefinitionError{Type: typeString(t), Msg: "implements json.Unmarshaler, so mcpgen cannot know what JSON it accepts: add a JSONSchema() *jsonschema.Schema method", Err: errUnsupported}
		}
		if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(textUnmarshaler) {
			return &jsonschema.Schema{Type: "string"}, nil
		}
	}
	var s *jsonschema.Schema
	switch t.Kind() {
	case reflect.Pointer:
		return b.schemaFor(t.Elem())
	case reflect.Struct:
		if err := foreignType(t); err != nil {
			return nil, err // a protobuf message inside a Go struct
		}
		return b.structSchema(t)
	case reflect.Slice, reflect.Array:
		items, err := b.schemaFor(t.Elem())
		if err != nil {
			return nil, err
		}
		s = &jsonschema.Schema{Type: "array", Items: items}
		if t.Kind() == reflect.Array {
			n := uint64(t.Len())
			s.MinItems, s.MaxItems = &n, &n
		}
	case reflect.Map:
		vs, err := b.schemaFor(t.Elem())
		if err != nil {
			return nil, err
		}
		s = &jsonschema.Schema{Type: "object", AdditionalProperties: vs}
		switch k := t.Key(); {
		case k.Kind() == reflect.String:
		case isIntKind(k.Kind()):
			s.PropertyNames = &jsonschema.Schema{Type: "string", Pattern: `^-?[0-9]+$`}
		case isUintKind(k.Kind()):
			s.PropertyNames = &jsonschema.Schema{Type: "string", Pattern: `^[0-9]+$`}
		default:
			return nil, &DefinitionError{Type: typeString(t), Msg: "map keys must be strings or integers (JSON object keys are strings)", Err: errUnsupported}
		}
	case reflect.Interface:
		if b.output {
			return &jsonschema.Schema{}, nil
		}
		// An interface field needs a type from its tag; fieldSchema reports
		// the error with the field's name when none is given.
		return &jsonschema.Schema{}, nil
	case reflect.Bool:
		s = &jsonschema.Schema{Type: "boolean"}
	case reflect.String:
		s = &jsonschema.Schema{Type: "string"}
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s = numberSchema(t.Kind(), b.output)
	default:
		return nil, &DefinitionError{Type: typeString(t), Msg: fmt.Sprintf("a %s cannot be sent as JSON", t.Kind()), Err: errUnsupported}
	}
	b.extend(t, s)
	return s, nil
}

// custom returns the schema a type's JSONSchema method gives, if it has one.
func (b *builder) custom(t reflect.Type) (*jsonschema.Schema, bool, error) {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface || methodless(t) {
		return nil, false, nil
	}
	var v reflect.Value
	switch {
	case t.Implements(jsonSchemaer):
		v = reflect.Zero(t)
	case reflect.PointerTo(t).Implements(jsonSchemaer):
		v = reflect.New(t)
	default:
		return nil, false, nil
	}
	s := v.Interface().(interface{ JSONSchema() *jsonschema.Schema }).JSONSchema()
	if s == nil {
		return nil, true, &DefinitionError{Type: typeString(t), Msg: "JSONSchema() returned nil"}
	}
	s = cloneSchema(s)
	if err := noBooleanSchemas(s); err != nil {
		return nil, true, &DefinitionError{Type: typeString(t), Msg: "JSONSchema(): " + err.Error()}
	}
	return s, true, nil
}

func (b *builder) extend(t reflect.Type, s *jsonschema.Schema) {
	if methodless(t) {
		return
	}
	switch {
	case t.Implements(schemaExtender):
		reflect.Zero(t).Interface().(interface{ JSONSchemaExtend(*jsonschema.Schema) }).JSONSchemaExtend(s)
	case reflect.PointerTo(t).Implements(schemaExtender):
		reflect.New(t).Interface().(interface{ JSONSchemaExtend(*jsonschema.Schema) }).JSONSchemaExtend(s)
	}
}

func (b *builder) structSchema(t reflect.Type) (*jsonschema.Schema, error) {
	for _, s := range b.stack {
		if s == t {
			info := b.structs[t]
			info.recursive = true
			return &jsonschema.Schema{Ref: "#/$defs/" + b.nameOf(t)}, nil
		}
	}
	info, ok := b.structs[t]
	if !ok {
		var err error
		if info, err = b.buildStruct(t); err != nil {
			return nil, err
		}
	}
	if t != b.root && (info.recursive || b.opts.KeepDefs) {
		b.addDef(t, info.schema)
		return &jsonschema.Schema{Ref: "#/$defs/" + b.nameOf(t)}, nil
	}
	if t == b.root {
		if info.recursive {
			// The root refers to itself through $defs; finish publishes a
			// copy of it there.
			b.addDef(t, info.schema)
		}
		return info.schema, nil
	}
	if b.uses != nil && b.uses[t] <= 1 {
		// The only place that takes this type's schema: the template
		// itself, as the root's. (The decoder is compiled from the same
		// nodes that are published.)
		return info.schema, nil
	}
	return cloneSchema(info.schema), nil
}

// structUses counts, for every struct type reachable from root, the struct
// fields (of any struct reachable) whose type reaches it through pointers,
// slices, arrays and map values. It never counts less than schema
// derivation takes, and may count more (which only costs a copy):
//   - a named struct's fields are counted once: a type inside a struct
//     taken twice lives in that struct's template, which the second taker
//     deep-copies;
//   - an embedded struct's fields are counted at every embedding, since
//     each embedder takes the promoted fields into its own template.
func structUses(root reflect.Type) map[reflect.Type]int {
	uses := map[reflect.Type]int{root: 1}
	var embedding []reflect.Type // embedded structs being visited, against cycles
	var visit func(t reflect.Type)
	visit = func(st reflect.Type) {
		for i := 0; i < st.NumField(); i++ {
			f := st.Field(i)
			ft := f.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array || ft.Kind() == reflect.Map {
				ft = ft.Elem()
			}
			if ft.Kind() != reflect.Struct {
				continue
			}
			uses[ft]++
			switch {
			case f.Anonymous:
				if !slices.Contains(embedding, ft) {
					embedding = append(embedding, ft)
					visit(ft)
					embedding = embedding[:len(embedding)-1]
				}
			case uses[ft] == 1:
				visit(ft)
			}
		}
	}
	visit(root)
	return uses
}

// addDef publishes s as t's entry in $defs.
func (b *builder) addDef(t reflect.Type, s *jsonschema.Schema) {
	name := b.nameOf(t) // makes b.defs
	b.defs[name] = s
}

// defNameRe matches what a $defs name replaces; compiled at the first
// shared type, not at start.
var defNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_.-]+`) })

// nameOf gives t a unique name in $defs.
func (b *builder) nameOf(t reflect.Type) string {
	if n, ok := b.defName[t]; ok {
		return n
	}
	if b.defName == nil {
		b.defName, b.names, b.defs = map[reflect.Type]string{}, map[string]reflect.Type{}, map[string]*jsonschema.Schema{}
	}
	base := defNameRe().ReplaceAllString(t.Name(), "_")
	if base == "" {
		base = "T"
	}
	n := base
	if other, taken := b.names[n]; taken && other != t {
		pkg := t.PkgPath()
		pkg = pkg[strings.LastIndex(pkg, "/")+1:]
		n = defNameRe().ReplaceAllString(pkg, "_") + "." + base
		for i := 2; b.names[n] != nil; i++ {
			n = fmt.Sprintf("%s.%s%d", pkg, base, i)
		}
	}
	b.names[n] = t
	b.defName[t] = n
	return n
}

func (b *builder) buildStruct(t reflect.Type) (*structInfo, error) {
	info := &structInfo{t: t}
	b.structs[t] = info
	b.stack = append(b.stack, t)
	defer func() { b.stack = b.stack[:len(b.stack)-1] }()

	// Every bad tag is reported together: those collectFields finds, then
	// those of the fields it accepted.
	fields, meta, err := b.collectFields(t)
	info.meta = meta
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	if b.opts.comments != nil {
		s.Description = typeDescription(t.Name(), b.opts.comments(t, ""))
	}
	for _, f := range fields {
		if err := b.fieldSchema(t, f); err != nil {
			errs = append(errs, err)
			continue
		}
		info.sound = append(info.sound, f)
		s.Properties.Set(f.name, f.schema)
		if f.required {
			s.Required = append(s.Required, f.name)
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	s.AdditionalProperties = jsonschema.FalseSchema
	info.fields = fields
	info.schema = s
	b.extend(t, s)
	return info, nil
}

// collectFields lists the JSON properties of struct t in the order
// encoding/json marshals them, promoting the fields of embedded structs. Two
// fields with one name at the same depth are an error (encoding/json would
// silently drop both). With an error, it still returns the fields it could
// accept, so that their tags are checked too.
func (b *builder) collectFields(t reflect.Type) ([]*fieldInfo, *metaField, error) {
	type cand struct {
		f      *fieldInfo
		depth  int
		tagged bool
	}
	cands := make([]cand, 0, t.NumField())
	var meta *metaField
	var errs []error // every bad tag, reported together
	var walk func(st reflect.Type, index []int, depth int, prefix string, visited map[reflect.Type]bool)
	walk = func(st reflect.Type, index []int, depth int, prefix string, visited map[reflect.Type]bool) {
		if visited[st] {
			return
		}
		visited[st] = true
		defer delete(visited, st)
		// One allocation each for this level's field infos and index paths
		// (at most one of each per field; never appended past capacity, so
		// the pointers taken stay valid).
		n := st.NumField()
		infos := make([]fieldInfo, 0, n)
		paths := make([]int, 0, n*(len(index)+1))
		for i := 0; i < n; i++ {
			sf := st.Field(i)
			goName := prefix + sf.Name
			if sf.Name == "_" {
				if tag, ok := sf.Tag.Lookup("mcp"); ok {
					switch {
					case depth > 0 || st != t:
						errs = append(errs, &DefinitionError{Type: typeString(t), Field: goName, Tag: fmt.Sprintf("mcp:%q", tag), Msg: "tool metadata belongs on the argument type itself, not on an embedded struct"})
					case meta != nil:
						errs = append(errs, &DefinitionError{Type: typeString(t), Field: goName, Tag: fmt.Sprintf("mcp:%q", tag), Msg: "only one _ field may carry an mcp tag"})
					default:
						meta = &metaField{tag: tag}
					}
				}
				continue
			}
			tags, tagErrs := scanTags(t, goName, sf)
			if tags.json.skip {
				continue
			}
			if tags.hasMCP && !b.output {
				tagErrs = append(tagErrs, &DefinitionError{Type: typeString(t), Field: goName, Tag: fmt.Sprintf("mcp:%q", tags.mcp), Msg: "the mcp tag belongs on a blank field: _ struct{} `mcp:\"...\"`"})
			}
			if len(tagErrs) > 0 {
				errs = append(errs, tagErrs...)
				continue
			}
			jt := tags.json
			if b.output && sf.Anonymous && jt.name != "" && jt.inline {
				// encoding/json, which encodes results, has no inline: it
				// would send the fields under the name, not promoted.
				errs = append(errs, &DefinitionError{Type: typeString(t), Field: goName, Tag: fmt.Sprintf("json:%q", sf.Tag.Get("json")),
					Msg: "inline is not honored in a result (encoding/json sends the fields under the name): drop the name to promote them"})
				continue
			}
			start := len(paths)
			paths = append(append(paths, index...), i)
			idx := paths[start:len(paths):len(paths)]
			ft := sf.Type
			if sf.Anonymous && (jt.name == "" || jt.inline) {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct && !isSpecialStruct(et) {
					walk(et, idx, depth+1, goName+".", visited)
					continue
				}
				if !sf.IsExported() {
					continue
				}
			} else if !sf.IsExported() && !(sf.Anonymous && baseType(ft).Kind() == reflect.Struct) {
				// encoding/json keeps an embedded struct of an unexported
				// type that has a json name, as a named property.
				continue
			}
			name := jt.name
			if name == "" {
				name = sf.Name
			}
			infos = append(infos, fieldInfo{name: name, goName: goName, typ: ft, index: idx, tags: tags, decl: st, declName: sf.Name})
			fi := &infos[len(infos)-1]
			fi.required = !jt.omitempty && !jt.omitzero
			cands = append(cands, cand{fi, depth, jt.name != ""})
		}
	}
	walk(t, nil, 0, "", map[reflect.Type]bool{})
	if !hasDuplicateNames(cands, func(c cand) string { return c.f.name }) {
		out := make([]*fieldInfo, len(cands))
		for i, c := range cands {
			out[i] = c.f
		}
		return out, meta, joinErrors(errs)
	}
	// Resolve names: shallowest wins, then tagged; a tie is an error.
	byName := map[string][]cand{}
	var order []string
	for _, c := range cands {
		if _, ok := byName[c.f.name]; !ok {
			order = append(order, c.f.name)
		}
		byName[c.f.name] = append(byName[c.f.name], c)
	}
	var out []*fieldInfo
	for _, n := range order {
		cs := byName[n]
		best := cs[0]
		tie := false
		for _, c := range cs[1:] {
			switch {
			case c.depth < best.depth || (c.depth == best.depth && c.tagged && !best.tagged):
				best, tie = c, false
			case c.depth == best.depth && c.tagged == best.tagged:
				tie = true
			}
		}
		if tie {
			var names []string
			for _, c := range cs {
				names = append(names, c.f.goName)
			}
			errs = append(errs, &DefinitionError{Type: typeString(t), Field: best.f.goName, Msg: fmt.Sprintf("JSON name %q is used by %s at the same depth; encoding/json would drop them all: rename one with a json tag", n, strings.Join(names, " and "))})
			continue
		}
		out = append(out, best.f)
	}
	return out, meta, joinErrors(errs)
}

// hasDuplicateNames reports whether two elements of list share a name: by
// comparing pairs for the short lists of struct fields, by a map otherwise.
func hasDuplicateNames[E any](list []E, name func(E) string) bool {
	if len(list) <= 16 {
		for i := range list {
			for j := i + 1; j < len(list); j++ {
				if name(list[i]) == name(list[j]) {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]bool, len(list))
	for _, e := range list {
		n := name(e)
		if seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}

// methodless reports whether neither t nor *t has exported methods, so it
// implements none of the interfaces schema derivation looks for. Argument
// types mostly are: the check saves reflect's method-set scans.
func methodless(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		return false
	case reflect.Struct:
		// An unnamed struct can promote the methods of embedded fields.
	default:
		if t.PkgPath() == "" {
			return true // predeclared, or unnamed: a slice, map or array type has no methods
		}
	}
	return t.NumMethod() == 0 && reflect.PointerTo(t).NumMethod() == 0
}

func isSpecialStruct(t reflect.Type) bool {
	if t == timeType {
		return true
	}
	if methodless(t) {
		return false
	}
	return t.Implements(jsonSchemaer) || reflect.PointerTo(t).Implements(jsonSchemaer) ||
		reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler)
}

// fieldSchema derives one property's schema: the type's schema, then the
// jsonschema tag, then the validate rules JSON Schema can express.
func (b *builder) fieldSchema(owner reflect.Type, f *fieldInfo) error {
	s, err := b.schemaFor(f.typ)
	if err != nil {
		if de, ok := err.(*DefinitionError); ok && de.Field == "" {
			de.Msg = fmt.Sprintf("field type %s: %s", de.Type, de.Msg)
			de.Type, de.Field = typeString(owner), f.goName
			return de
		}
		return err
	}
	f.schema = s
	fail := func(tagKey, msg string, args ...any) error {
		tag := ""
		if tagKey != "" {
			tag = fmt.Sprintf("%s:%q", tagKey, f.tags.raw.Get(tagKey))
		}
		return &DefinitionError{Type: typeString(owner), Field: f.goName, Tag: tag, Msg: fmt.Sprintf(msg, args...)}
	}
	if b.opts.comments != nil {
		if c := b.opts.comments(f.decl, f.declName); c != "" {
			s.Description = docname.Trim(f.declName, c)
		}
	}
	if f.tags.hasDescription {
		s.Description = f.tags.description
	}
	setBy := map[string]bool{}
	for _, it := range f.tags.schema {
		if it.key == "required" {
			if it.hasVal {
				return fail("jsonschema", "required takes no value")
			}
			f.required = true
			continue
		}
		if b.output && it.key == "default" {
			continue // a default says what a missing argument means; results are never missing a value
		}
		if err := applyKeyword(s, f.typ, it, b.output); err != nil {
			return fail("jsonschema", "%s", err)
		}
		setBy[it.key] = true
	}
	if len(f.tags.extras) > 0 {
		for _, it := range f.tags.extras {
			k, v := it.key, it.val
			if k == "x-mcp-header" {
				if err := checkHeaderName(v, valueKind(s)); err != nil {
					return fail("jsonschema_extras", "%s", err)
				}
			}
			if s.Extras == nil {
				s.Extras = map[string]any{}
			}
			s.Extras[k] = v
		}
	}
	if baseType(f.typ).Kind() == reflect.Interface && f.typ != rawMessageType && s.Type == "" && !b.output {
		return fail("", "an interface field has no schema: give it jsonschema:\"type=...\", or use json.RawMessage for any JSON value")
	}
	if b.output {
		if canBeNull(f.typ) && !f.required {
			// omitted when nil: nothing to say
		} else if resultCanBeNull(f.typ) && s.Ref == "" && s.Type != "" {
			s.Extras = withExtra(s.Extras, "type", []string{s.Type, "null"})
			s.Type = ""
		}
		return nil
	}
	// validate tag
	if f.tags.hasValidate {
		f.validate = f.tags.validate
		if err := b.mirror(owner, f, setBy); err != nil {
			return err
		}
	}
	if s.Default != nil {
		if f.required {
			return fail("jsonschema", "a default on a required property never applies: make it optional (omitempty)")
		}
		f.defaultOK = true
	}
	return nil
}

func withExtra(m map[string]any, k string, v any) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m[k] = v
	return m
}

func canBeNull(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return t != rawMessageType
	}
	return false
}

// resultCanBeNull reports whether a result value of type t can be sent as
// null: a nil pointer or interface can, a nil slice or map cannot, since
// results are marshaled with nil slices as [] and nil maps as {} (see
// marshalResult) — unless the type marshals itself.
func resultCanBeNull(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		return t != rawMessageType && marshalsItself(t)
	}
	return canBeNull(t)
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// marshalsItself reports whether t (or *t) has a MarshalJSON or
// MarshalText method.
func marshalsItself(t reflect.Type) bool {
	for _, x := range []reflect.Type{t, reflect.PointerTo(t)} {
		if x.Implements(jsonMarshalerType) || x.Implements(textMarshalerType) {
			return true
		}
	}
	return false
}

func fieldByIndex(t reflect.Type, index []int) reflect.StructField {
	var sf reflect.StructField
	for i, x := range index {
		if i > 0 && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		sf = t.Field(x)
		t = sf.Type
	}
	return sf
}

func baseType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// valueKind is the JSON kind a schema node describes.
func valueKind(s *jsonschema.Schema) string {
	if s.Ref != "" {
		return "object"
	}
	return s.Type
}

// applyKeyword applies one jsonschema tag item to a property schema.
func applyKeyword(s *jsonschema.Schema, t reflect.Type, it schemaItem, output bool) error {
	kind := valueKind(s)
	need := func() error {
		if !it.hasVal || it.val == "" {
			return fmt.Errorf("%s needs a value (%s=...)", it.key, it.key)
		}
		return nil
	}
	switch it.key {
	case "title":
		if err := need(); err != nil {
			return err
		}
		s.Title = it.val
	case "description":
		if err := need(); err != nil {
			return err
		}
		s.Description = it.val
	case "type":
		if err := need(); err != nil {
			return err
		}
		if baseType(t).Kind() != reflect.Interface {
			return fmt.Errorf("type is derived from the Go type %s; type= is only for interface fields", t)
		}
		switch it.val {
		case "string", "integer", "number", "boolean", "array", "object":
		default:
			return fmt.Errorf("type=%s: not a JSON Schema type", it.val)
		}
		s.Type = it.val
	case "deprecated", "readOnly", "writeOnly":
		v := true
		if it.hasVal {
			switch it.val {
			case "true":
			case "false":
				v = false
			default:
				return fmt.Errorf("%s=%s: value must be true or false", it.key, it.val)
			}
		}
		switch it.key {
		case "deprecated":
			s.Deprecated = v
		case "readOnly":
			s.ReadOnly = v
		case "writeOnly":
			s.WriteOnly = v
		}
	case "enum", "const", "default", "example":
		if err := need(); err != nil && it.key != "default" && it.key != "example" {
			return err
		}
		target := s
		vk := kind
		if kind == "array" && it.key != "default" && it.key != "example" {
			target = s.Items
			vk = valueKind(target)
		}
		if kind == "array" {
			vk = valueKind(s.Items)
		}
		v, err := parseTyped(it.val, vk)
		if err != nil {
			return fmt.Errorf("%s=%s: %w", it.key, it.val, err)
		}
		switch it.key {
		case "enum":
			target.Enum = append(target.Enum, v)
		case "const":
			if target.Const != nil {
				return fmt.Errorf("const given twice")
			}
			target.Const = v
		case "default":
			if kind == "array" {
				arr, _ := s.Default.([]any)
				s.Default = append(arr, v)
			} else {
				if s.Default != nil {
					return fmt.Errorf("default given twice")
				}
				s.Default = v
			}
		case "example":
			if kind == "array" {
				// Like default=, example= on an array lists the items of
				// one example array.
				if n := len(s.Examples); n > 0 {
					if arr, ok := s.Examples[n-1].([]any); ok {
						s.Examples[n-1] = append(arr, v)
						break
					}
				}
				s.Examples = append(s.Examples, []any{v})
			} else {
				s.Examples = append(s.Examples, v)
			}
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		if kind != "integer" && kind != "number" {
			return fmt.Errorf("%s applies to numbers, and this property is %s", it.key, describeKind(kind))
		}
		if err := need(); err != nil {
			return err
		}
		n, err := parseNumber(it.val)
		if err != nil {
			return fmt.Errorf("%s=%s: %w", it.key, it.val, err)
		}
		switch it.key {
		case "minimum":
			s.Minimum = n
			clampToType(s, t)
		case "maximum":
			s.Maximum = n
			clampToType(s, t)
		case "exclusiveMinimum":
			s.ExclusiveMinimum = n
			clampToType(s, t)
		case "exclusiveMaximum":
			s.ExclusiveMaximum = n
			clampToType(s, t)
		case "multipleOf":
			if f, _ := n.Float64(); f <= 0 {
				return fmt.Errorf("multipleOf must be greater than 0")
			}
			s.MultipleOf = n
		}
	case "minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType":
		target := s
		if kind == "array" && (it.key == "pattern" || it.key == "format") {
			target = s.Items
		}
		if valueKind(target) != "string" {
			return fmt.Errorf("%s applies to strings, and this property is %s", it.key, describeKind(kind))
		}
		if err := need(); err != nil {
			return err
		}
		switch it.key {
		case "minLength", "maxLength":
			n, err := parseCount(it.val)
			if err != nil {
				return fmt.Errorf("%s=%s: %w", it.key, it.val, err)
			}
			if it.key == "minLength" {
				target.MinLength = &n
			} else {
				target.MaxLength = &n
			}
		case "pattern":
			if _, err := regexp.Compile(it.val); err != nil {
				return fmt.Errorf("pattern=%s: %w", it.val, err)
			}
			target.Pattern = it.val
		case "format":
			if _, ok := formats[it.val]; !ok {
				return fmt.Errorf("format=%s: unknown format (known: %s)", it.val, strings.Join(formatNames(), ", "))
			}
			target.Format = it.val
		case "contentEncoding":
			target.ContentEncoding = it.val
		case "contentMediaType":
			target.ContentMediaType = it.val
		}
	case "minItems", "maxItems", "uniqueItems":
		if kind != "array" {
			return fmt.Errorf("%s applies to arrays, and this property is %s", it.key, describeKind(kind))
		}
		if it.key == "uniqueItems" {
			if it.hasVal && it.val != "true" {
				return fmt.Errorf("uniqueItems takes no value")
			}
			s.UniqueItems = true
			return nil
		}
		if err := need(); err != nil {
			return err
		}
		n, err := parseCount(it.val)
		if err != nil {
			return fmt.Errorf("%s=%s: %w", it.key, it.val, err)
		}
		if it.key == "minItems" {
			s.MinItems = &n
		} else {
			s.MaxItems = &n
		}
	case "minProperties", "maxProperties":
		if kind != "object" || s.Properties != nil || s.Ref != "" {
			return fmt.Errorf("%s applies to maps, and this property is %s", it.key, describeKind(kind))
		}
		if err := need(); err != nil {
			return err
		}
		n, err := parseCount(it.val)
		if err != nil {
			return fmt.Errorf("%s=%s: %w", it.key, it.val, err)
		}
		if it.key == "minProperties" {
			s.MinProperties = &n
		} else {
			s.MaxProperties = &n
		}
	}
	return nil
}

func describeKind(k string) string {
	switch k {
	case "":
		return "untyped"
	case "integer", "array", "object":
		return "an " + k
	}
	return "a " + k
}

// parseTyped parses a tag value as a JSON value of the given kind.
func parseTyped(v, kind string) (any, error) {
	switch kind {
	case "string":
		return v, nil
	case "integer":
		n, err := parseNumber(v)
		if err != nil {
			return nil, err
		}
		if i, err := n.Int64(); err == nil {
			return i, nil
		}
		return nil, fmt.Errorf("not an integer")
	case "number":
		n, err := parseNumber(v)
		if err != nil {
			return nil, err
		}
		f, _ := n.Float64()
		return f, nil
	case "boolean":
		switch v {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("not a boolean")
	}
	var x any
	if err := json.Unmarshal([]byte(v), &x); err != nil {
		return nil, fmt.Errorf("not a JSON value for a property that is %s", describeKind(kind))
	}
	return x, nil
}

// errNotNumber and errNotCount are the messages of parseNumber and
// parseCount; the caller names the field and tag.
var (
	errNotNumber = errors.New("not a number")
	errNotCount  = errors.New("not a non-negative integer")
)

// parseNumber accepts a JSON number that a float64 holds.
func parseNumber(v string) (json.Number, error) {
	if !isJSONNumber(v) {
		return "", errNotNumber
	}
	if f, err := strconv.ParseFloat(v, 64); err != nil || math.IsInf(f, 0) {
		return "", errNotNumber
	}
	return json.Number(v), nil
}

// parseCount accepts a JSON integer that a uint64 holds.
func parseCount(v string) (uint64, error) {
	if !isJSONNumber(v) {
		return 0, errNotCount
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, errNotCount
	}
	return n, nil
}

func isIntKind(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Int64
}

func isUintKind(k reflect.Kind) bool {
	return k >= reflect.Uint && k <= reflect.Uintptr
}

// noBooleanSchemas reports a boolean schema anywhere below s, except
// additionalProperties: false.
func noBooleanSchemas(s *jsonschema.Schema) error {
	var err error
	var walk func(s *jsonschema.Schema, where string) bool
	walk = func(s *jsonschema.Schema, where string) bool {
		return eachChild(s, 0, numKeywords-1, func(c edge, x *jsonschema.Schema) bool {
			if isBool, v := boolSchema(x); isBool {
				if c.kw == kwAdditionalProperties && !v {
					return true
				}
				err = fmt.Errorf("boolean schema at %s: clients reject them; use {} or {\"not\": {}}", where+c.path())
				return false
			}
			return walk(x, where+c.path())
		})
	}
	walk(s, "#")
	return err
}

// cloneSchema deep-copies a schema so a property can carry its own keywords.
func cloneSchema(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return s
	}
	c := mapChildren(s, cloneSchema)
	c.Enum = append([]any(nil), s.Enum...)
	c.Examples = append([]any(nil), s.Examples...)
	c.Required = append([]string(nil), s.Required...)
	return c
}

// checkHeaderName checks an x-mcp-header annotation (SEP-2243): clients
// mirror the property into the HTTP header Mcp-Param-<name>, so the name must
// be an HTTP token and the property a string, integer or boolean.
func checkHeaderName(name, kind string) error {
	switch kind {
	case "string", "integer", "boolean":
	default:
		return fmt.Errorf("x-mcp-header applies to string, integer and boolean properties, and this property is %s", describeKind(kind))
	}
	if name == "" {
		return fmt.Errorf("x-mcp-header needs a header name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return fmt.Errorf("x-mcp-header=%s: %q is not allowed in an HTTP header name", name, c)
		}
	}
	return nil
}
