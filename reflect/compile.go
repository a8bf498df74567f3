package mcpreflect

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/go-playground/validator/v10"
	"github.com/invopop/jsonschema"
)

type structDec struct {
	t      reflect.Type
	fields []fieldDec
	index  map[string]int
	names  []string
}

type embedStep struct {
	offset uintptr
	elem   reflect.Type // non-nil when the step goes through a pointer
}

type fieldDec struct {
	name     string
	typ      reflect.Type
	offset   uintptr
	steps    []embedStep // set when the field is reached through an embedded pointer
	dec      decoder
	required bool
	def      []byte // default, as JSON
	residual string
	cross    []crossDec
}

type crossDec struct {
	rule  string
	other []int
	raw   string
}

func (f *fieldDec) ptr(p unsafe.Pointer) unsafe.Pointer {
	if f.steps == nil {
		return unsafe.Add(p, f.offset)
	}
	for _, s := range f.steps {
		p = unsafe.Add(p, s.offset)
		if s.elem != nil {
			pp := (*unsafe.Pointer)(p)
			if *pp == nil {
				*pp = reflect.New(s.elem).UnsafePointer()
			}
			p = *pp
		}
	}
	return p
}

func (x *structDec) lookup(key []byte) int {
	if x.index != nil {
		if i, ok := x.index[string(key)]; ok {
			return i
		}
		return -1
	}
	for i := range x.fields {
		if x.fields[i].name == string(key) {
			return i
		}
	}
	return -1
}

func (x *structDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() != '{' {
		d.typeMismatch("an object")
		return
	}
	d.enter()
	d.pos++
	// seen[i]: 0 absent, 1 decoded, 2 not decoded (a type violation: its
	// runtime-only rules are skipped, they would judge a value never sent).
	var seenBuf [32]uint8
	var seen []uint8
	if len(x.fields) <= len(seenBuf) {
		seen = seenBuf[:len(x.fields)]
	} else {
		seen = make([]uint8, len(x.fields))
	}
	d.ws()
	if d.peek() == '}' {
		d.pos++
	} else {
		for {
			d.ws()
			raw, esc := d.stringBytes()
			var i int
			var key string
			if esc {
				key, _ = unescape(raw)
				i = x.lookup([]byte(key))
			} else {
				i = x.lookup(raw)
			}
			d.ws()
			d.expect(':')
			d.ws()
			switch {
			case i < 0:
				if !esc {
					key = string(raw)
				}
				msg := "is not a known argument"
				if s := suggest(key, x.names); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				} else if len(x.names) > 0 {
					msg += " (known: " + strings.Join(x.names, ", ") + ")"
				}
				d.violateChild(key, len(x.fields), "additionalProperties", msg)
				d.skipValue()
			case seen[i] != 0:
				d.violateChild(x.fields[i].name, i, "uniqueKeys", "is given more than once")
				d.skipValue()
			default:
				seen[i] = 1
				f := &x.fields[i]
				before := len(d.errs)
				d.pushName(f.name, i)
				f.dec.decode(d, f.ptr(p))
				d.pop()
				for _, v := range d.errs[before:] {
					if v.Rule == "type" {
						seen[i] = 2
					}
				}
			}
			d.ws()
			if d.peek() == ',' {
				d.pos++
				continue
			}
			d.expect('}')
			break
		}
	}
	d.leave()
	for i := range x.fields {
		f := &x.fields[i]
		if seen[i] != 0 {
			if seen[i] == 1 && (f.residual != "" || f.cross != nil) {
				d.pushName(f.name, i)
				x.runResidual(d, p, f)
				d.pop()
			}
			continue
		}
		if f.required {
			d.violateChild(f.name, i, "required", "is required but missing")
		} else if f.def != nil {
			saved := d.data
			savedPos := d.pos
			d.data, d.pos = f.def, 0
			f.dec.decode(d, f.ptr(p))
			d.data, d.pos = saved, savedPos
		}
	}
}

// runResidual runs the validator rules JSON Schema cannot express.
func (x *structDec) runResidual(d *decodeState, p unsafe.Pointer, f *fieldDec) {
	val := reflect.NewAt(f.typ, f.ptr(p)).Elem()
	if f.residual != "" {
		if err := validate().Var(val.Interface(), f.residual); err != nil {
			reportValidator(d, err)
		}
	}
	for _, c := range f.cross {
		other := reflect.NewAt(x.t, p).Elem().FieldByIndex(c.other)
		if err := validate().VarWithValue(val.Interface(), other.Interface(), c.rule); err != nil {
			reportValidator(d, err)
		}
	}
}

func reportValidator(d *decodeState, err error) {
	ves, ok := err.(validator.ValidationErrors)
	if !ok {
		d.violate("validate", "is invalid")
		return
	}
	for _, fe := range ves {
		rule := fe.Tag()
		msg := "must satisfy " + rule
		if fe.Param() != "" {
			msg += "=" + fe.Param()
		}
		ns := fe.Namespace()
		if ns != "" && strings.HasPrefix(ns, "[") {
			// dive errors: "[2]" or "[key]"
			seg := strings.TrimSuffix(strings.TrimPrefix(ns, "["), "]")
			if n, err := parseIndex(seg); err == nil {
				d.pushIndex(n)
			} else {
				d.pushName(seg, 0)
			}
			d.violate(rule, msg)
			d.pop()
			continue
		}
		d.violate(rule, msg)
	}
}

func parseIndex(s string) (int, error) {
	var n int
	if s == "" {
		return 0, fmt.Errorf("empty")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not an index")
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// compile builds the decoder for a value of type t whose published schema is s.
func (b *builder) compile(t reflect.Type, s *jsonschema.Schema) (decoder, error) {
	dec, err := b.compileTyped(t, s)
	if err != nil {
		return nil, err
	}
	if hasUncompiled(s) || b.uncompiledFor(t, s) {
		gen, err := b.resolveGeneric(s)
		if err != nil {
			return nil, err
		}
		dec = &genericDec{inner: dec, gen: gen}
	}
	return dec, nil
}

// hasUncompiled reports keywords the typed decoders do not check.
func hasUncompiled(s *jsonschema.Schema) bool {
	if s == nil || s.Ref != "" {
		return false
	}
	return s.DependentRequired != nil ||
		!walkChildren(s, 0, numKeywords-1, false, func(c edge, _ *jsonschema.Schema) bool { return keywords[c.kw].compiled })
}

// uncompiledFor reports keywords the typed decoder of t does not check on a
// node of its kind: minProperties, propertyNames, enum or const on a struct
// (JSONSchemaExtend can add them), enum or const on an array or a map, enum
// on a boolean.
func (b *builder) uncompiledFor(t reflect.Type, s *jsonschema.Schema) bool {
	if s == nil || s.Ref != "" {
		return false
	}
	bt := baseType(t)
	if bt == timeType || bt == bytesType || bt == rawMessageType || !methodless(bt) && reflect.PointerTo(bt).Implements(textUnmarshaler) {
		return false
	}
	if _, ok, _ := b.custom(bt); ok {
		return false // an opaque decoder checks the whole schema
	}
	switch bt.Kind() {
	case reflect.Struct:
		return s.MinProperties != nil || s.MaxProperties != nil || s.PropertyNames != nil || s.Enum != nil || s.Const != nil
	case reflect.Slice, reflect.Array, reflect.Map:
		return s.Enum != nil || s.Const != nil
	case reflect.Bool:
		return s.Enum != nil
	}
	return false
}

func (b *builder) compileTyped(t reflect.Type, s *jsonschema.Schema) (decoder, error) {
	if t.Kind() == reflect.Pointer {
		elem, err := b.compile(t.Elem(), s)
		if err != nil {
			return nil, err
		}
		return &ptrDec{elemType: t.Elem(), elem: elem}, nil
	}
	if s.Ref != "" {
		if t.Kind() != reflect.Struct {
			return nil, &DefinitionError{Type: typeString(t), Msg: "a $ref must point at a struct type"}
		}
		return b.structDecFor(t)
	}
	if _, ok, _ := b.custom(t); ok {
		gen, err := b.resolveGeneric(s)
		if err != nil {
			return nil, err
		}
		return &opaqueDec{t: t, gen: gen}, nil
	}
	switch {
	case t == timeType:
		chk, err := compileStrCheck(s)
		return &timeDec{chk: chk}, err
	case t == rawMessageType:
		if isEmptySchema(s) {
			return rawDec{}, nil
		}
		gen, err := b.resolveGeneric(s)
		if err != nil {
			return nil, err
		}
		return &opaqueDec{t: t, gen: gen}, nil
	case t == bytesType:
		chk, err := compileStrCheck(s)
		return &bytesDec{chk: chk}, err
	case !methodless(t) && reflect.PointerTo(t).Implements(textUnmarshaler) && !reflect.PointerTo(t).Implements(jsonUnmarshaler):
		chk, err := compileStrCheck(s)
		return &textDec{t: t, chk: chk}, err
	}
	switch t.Kind() {
	case reflect.String:
		chk, err := compileStrCheck(s)
		return &stringDec{chk: chk}, err
	case reflect.Bool:
		var c *bool
		if v, ok := s.Const.(bool); ok {
			c = &v
		}
		return &boolDec{constv: c}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		chk, err := compileNumCheck(s, t.Kind())
		return &intDec{kind: t.Kind(), chk: chk, rng: rangeOf(t.Kind())}, err
	case reflect.Float32, reflect.Float64:
		chk, err := compileNumCheck(s, t.Kind())
		return &floatDec{bits: t.Bits(), chk: chk, rng: rangeOf(t.Kind())}, err
	case reflect.Struct:
		return b.structDecFor(t)
	case reflect.Slice, reflect.Array:
		elem, err := b.compile(t.Elem(), s.Items)
		if err != nil {
			return nil, err
		}
		x := &sliceDec{t: t, elemType: t.Elem(), elem: elem, size: t.Elem().Size(), arrayLen: -1,
			count: compileCountCheck(s.MinItems, s.MaxItems, s.UniqueItems, true)}
		if t.Kind() == reflect.Array {
			x.arrayLen = t.Len()
		}
		return x, nil
	case reflect.Map:
		vs := s.AdditionalProperties
		if vs == nil || vs == jsonschema.TrueSchema {
			vs = &jsonschema.Schema{}
		}
		elem, err := b.compile(t.Elem(), vs)
		if err != nil {
			return nil, err
		}
		keyChk, err := compileStrCheck(s.PropertyNames)
		if err != nil {
			return nil, err
		}
		return &mapDec{t: t, keyType: t.Key(), elemType: t.Elem(), elem: elem, keyChk: keyChk,
			count: compileCountCheck(s.MinProperties, s.MaxProperties, false, false)}, nil
	case reflect.Interface:
		gen, err := b.resolveGeneric(s)
		if err != nil {
			return nil, err
		}
		return &opaqueDec{t: t, gen: gen}, nil
	}
	return nil, &DefinitionError{Type: typeString(t), Msg: "cannot decode a " + t.Kind().String(), Err: errUnsupported}
}

func isEmptySchema(s *jsonschema.Schema) bool {
	raw, _ := json.Marshal(s)
	return string(raw) == "{}" || string(raw) == "true"
}

// structDecFor returns the decoder of struct type t, compiling it from the
// struct's schema template the first time.
func (b *builder) structDecFor(t reflect.Type) (*structDec, error) {
	info := b.structs[t]
	if info == nil {
		if _, err := b.structSchema(t); err != nil {
			return nil, err
		}
		info = b.structs[t]
	}
	if info.dec != nil {
		return info.dec, nil
	}
	x := &structDec{t: t, fields: make([]fieldDec, 0, len(info.fields)), names: make([]string, 0, len(info.fields))}
	info.dec = x     // placeholder first: recursive types terminate
	var errs []error // every field's problem, reported together
	for _, f := range info.fields {
		fd, err := b.fieldDec(t, f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		x.fields = append(x.fields, fd)
		x.names = append(x.names, f.name)
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	if len(x.fields) > 8 {
		x.index = make(map[string]int, len(x.fields))
		for i, f := range x.fields {
			x.index[f.name] = i
		}
	}
	return x, nil
}

// fieldDec compiles the decoder of struct t's field f and checks that its
// default passes the field's own rules.
func (b *builder) fieldDec(t reflect.Type, f *fieldInfo) (fieldDec, error) {
	dec, err := b.compile(f.typ, f.schema)
	if err != nil {
		if de, ok := err.(*DefinitionError); ok && de.Field == "" {
			de.Msg = fmt.Sprintf("field type %s: %s", de.Type, de.Msg)
			de.Type, de.Field = typeString(t), f.goName
		}
		return fieldDec{}, err
	}
	fd := fieldDec{name: f.name, typ: f.typ, dec: dec, required: f.required, residual: f.residual}
	fd.offset, fd.steps = fieldLocation(t, f.index)
	for _, c := range f.cross {
		sf, _ := t.FieldByName(c.other)
		fd.cross = append(fd.cross, crossDec{rule: c.rule, other: sf.Index, raw: c.raw})
	}
	if f.schema.Default != nil {
		def, err := json.Marshal(f.schema.Default)
		if err != nil {
			return fieldDec{}, err
		}
		// The default must pass the property's own checks.
		var st decodeState
		st.reset(def, 64)
		scratch := reflect.New(f.typ)
		func() {
			defer func() {
				if r := recover(); r != nil {
					st.errs = append(st.errs, Violation{Msg: fmt.Sprint(r)})
				}
			}()
			dec.decode(&st, scratch.UnsafePointer())
		}()
		if len(st.errs) > 0 {
			msgs := make([]string, len(st.errs))
			for i, v := range st.errs {
				msgs[i] = v.Msg
				if v.Path != "" {
					msgs[i] = v.Path + ": " + v.Msg
				}
			}
			return fieldDec{}, &DefinitionError{Type: typeString(t), Field: f.goName, Tag: fmt.Sprintf("jsonschema:%q", f.tags.raw.Get("jsonschema")),
				Msg: fmt.Sprintf("default %s breaks the property's own rules: %s", def, strings.Join(msgs, "; "))}
		}
		fd.def = def
	}
	return fd, nil
}

// soundFieldErrors compiles the fields of struct t whose tags are good
// when others' are not, so that a registration reports what they do wrong
// (a default that breaks its own rules) together with the bad tags.
func (b *builder) soundFieldErrors(t reflect.Type) error {
	info := b.structs[t]
	if info == nil || info.schema != nil {
		return nil
	}
	var errs []error
	for _, f := range info.sound {
		if _, err := b.fieldDec(t, f); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// fieldLocation returns the byte offset of the field at index within t, or
// the steps to reach it when the path goes through embedded pointers.
func fieldLocation(t reflect.Type, index []int) (uintptr, []embedStep) {
	var off uintptr
	var steps []embedStep
	cur := t
	viaPtr := false
	for i, x := range index {
		sf := cur.Field(x)
		off += sf.Offset
		if i < len(index)-1 && sf.Type.Kind() == reflect.Pointer {
			viaPtr = true
			steps = append(steps, embedStep{offset: off, elem: sf.Type.Elem()})
			off = 0
			cur = sf.Type.Elem()
			continue
		}
		cur = sf.Type
	}
	if !viaPtr {
		return off, nil
	}
	return 0, append(steps, embedStep{offset: off})
}
