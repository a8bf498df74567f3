package mcpreflect

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/invopop/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The keywords the typed decoders do not compile (anyOf, not, if/then/else,
// the schema of a JSONSchema() type or of an interface field, ...) are
// checked by a full JSON Schema 2020-12 validator,
// santhosh-tekuri/jsonschema: it compares numbers as exact decimals
// (big.Rat), as the typed decoders do, and asserts formats with the same
// checks (formats, check.go).

// genericSchema is one schema node compiled for the full validator.
type genericSchema struct{ s *sjs.Schema }

var genericSeq atomic.Uint64

// resolveGeneric compiles a schema node for the full JSON Schema validator,
// with this builder's $defs.
func (b *builder) resolveGeneric(s *jsonschema.Schema) (*genericSchema, error) {
	if isEmptySchema(s) {
		return nil, nil
	}
	c := cloneSchema(s)
	if len(b.defs) > 0 {
		c.Definitions = jsonschema.Definitions{}
		for k, v := range b.defs {
			c.Definitions[k] = v
		}
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	comp := sjs.NewCompiler()
	comp.DefaultDraft(sjs.Draft2020)
	comp.AssertFormat()
	for name, fn := range formats {
		comp.RegisterFormat(&sjs.Format{Name: name, Validate: func(v any) error {
			if s, ok := v.(string); ok && !fn(s) {
				return errors.New("must be a valid " + name)
			}
			return nil
		}})
	}
	url := "mem:///mcpgen/" + strconv.FormatUint(genericSeq.Add(1), 10) + ".json"
	if err := comp.AddResource(url, doc); err != nil {
		return nil, err
	}
	compiled, err := comp.Compile(url)
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), url, "schema"))
	}
	return &genericSchema{s: compiled}, nil
}

// genericCheck checks raw against gen, reporting each violation at its own
// path below the current one.
func genericCheck(d *decodeState, gen *genericSchema, raw []byte) bool {
	v, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		d.violate("type", "is not valid JSON")
		return false
	}
	if !checkableNumbers(d, v, v, nil) {
		return false
	}
	err = gen.s.Validate(v)
	if err == nil {
		return true
	}
	var ve *sjs.ValidationError
	if !errors.As(err, &ve) {
		d.violate("schema", "is invalid")
		return false
	}
	before := len(d.errs)
	reportGeneric(d, v, ve)
	if len(d.errs) == before {
		d.violate("schema", "is invalid")
	}
	return false
}

// genericPrinter words the full validator's errors; made at the first.
var genericPrinter = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// reportGeneric turns the validator's error tree into violations: the
// keyword that failed is the rule, the value it failed on the path.
func reportGeneric(d *decodeState, root any, ve *sjs.ValidationError) {
	switch k := ve.ErrorKind.(type) {
	case *kind.Group, *kind.Schema, *kind.Reference, *kind.AllOf:
		for _, c := range ve.Causes {
			reportGeneric(d, root, c)
		}
		return
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = article(w)
		}
		violateAt(d, root, ve.InstanceLocation, "type", "must be "+strings.Join(want, " or ")+", got "+k.Got)
		return
	case *kind.Minimum:
		violateAt(d, root, ve.InstanceLocation, "minimum", "must be at least "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	case *kind.Maximum:
		violateAt(d, root, ve.InstanceLocation, "maximum", "must be at most "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	case *kind.ExclusiveMinimum:
		violateAt(d, root, ve.InstanceLocation, "exclusiveMinimum", "must be greater than "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	case *kind.ExclusiveMaximum:
		violateAt(d, root, ve.InstanceLocation, "exclusiveMaximum", "must be less than "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	case *kind.MultipleOf:
		violateAt(d, root, ve.InstanceLocation, "multipleOf", "must be a multiple of "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	}
	rule := "schema"
	switch ve.ErrorKind.(type) {
	case *kind.Not:
		rule = "not"
	case *kind.FalseSchema:
		rule = "false"
	default:
		if kp := ve.ErrorKind.KeywordPath(); len(kp) > 0 {
			rule = kp[0]
		}
	}
	violateAt(d, root, ve.InstanceLocation, rule, strings.TrimPrefix(ve.ErrorKind.LocalizedString(genericPrinter()), rule+": "))
}

// violateAt records a violation at loc, a JSON pointer's segments into root.
func violateAt(d *decodeState, root any, loc []string, rule, msg string) {
	n := 0
	cur := root
	for _, seg := range loc {
		switch x := cur.(type) {
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				d.pushName(seg, 0)
				cur = nil
			} else {
				d.pushIndex(i)
				cur = x[i]
			}
		case map[string]any:
			d.pushName(seg, 0)
			cur = x[seg]
		default:
			d.pushName(seg, 0)
			cur = nil
		}
		n++
	}
	d.violate(rule, msg)
	for ; n > 0; n-- {
		d.pop()
	}
}

// article names a JSON type as the typed decoders do: "an integer".
func article(jsonType string) string {
	switch jsonType {
	case "integer", "object", "array":
		return "an " + jsonType
	case "null":
		return jsonType
	}
	return "a " + jsonType
}

// ratText writes r as a decimal, exactly when it has at most 30 digits
// after the point.
func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	for k := 1; k <= 30; k++ {
		s := r.FloatString(k)
		if x, ok := new(big.Rat).SetString(s); ok && x.Cmp(r) == 0 {
			return s
		}
	}
	return r.FloatString(30)
}

// dropRepeats drops the violations recorded since mark that repeat one
// (same path and rule) recorded between since and mark.
func (d *decodeState) dropRepeats(since, mark int) {
	if mark == since || len(d.errs) == mark {
		return
	}
	out := mark
	for i := mark; i < len(d.errs); i++ {
		dup := false
		for _, v := range d.errs[since:mark] {
			if v.Path == d.errs[i].Path && v.Rule == d.errs[i].Rule {
				dup = true
				break
			}
		}
		if !dup {
			d.errs[out], d.keys[out] = d.errs[i], d.keys[i]
			out++
		}
	}
	d.errs, d.keys = d.errs[:out], d.keys[:out]
}

// maxGenericExp bounds the decimal exponent of the numbers the full
// validator is given: it computes with big.Rat, whose cost grows with the
// exponent (and which refuses one beyond 10^6 outright). The typed decoders
// need no such limit.
const maxGenericExp = 10000

// checkableNumbers reports a violation for each number in v (at loc) whose
// exponent is beyond maxGenericExp, and whether there was none.
func checkableNumbers(d *decodeState, root, v any, loc []string) bool {
	switch x := v.(type) {
	case json.Number:
		if beyondExp([]byte(x), maxGenericExp) {
			violateAt(d, root, loc, "type", "must be a number with a decimal exponent within ±"+strconv.Itoa(maxGenericExp)+", got "+quoteShort(string(x)))
			return false
		}
	case []any:
		ok := true
		for i, e := range x {
			ok = checkableNumbers(d, root, e, append(loc, strconv.Itoa(i))) && ok
		}
		return ok
	case map[string]any:
		ok := true
		for _, k := range slices.Sorted(maps.Keys(x)) {
			ok = checkableNumbers(d, root, x[k], append(loc, k)) && ok
		}
		return ok
	}
	return true
}
