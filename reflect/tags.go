package mcpreflect

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
)

// jsonTag is a parsed `json:"..."` tag.
type jsonTag struct {
	name      string
	skip      bool // json:"-"
	omitempty bool
	omitzero  bool
	asString  bool // the ",string" option
	inline    bool // the ",inline" option (encoding/json/v2, invopop)
	present   bool
}

var jsonOptions = []string{"omitempty", "omitzero", "string", "inline"}

// parseJSONTag parses the value of a json tag (ok: the tag is there).
func parseJSONTag(raw string, ok bool) (jsonTag, error) {
	t := jsonTag{present: ok}
	if !ok {
		return t, nil
	}
	if raw == "-" {
		t.skip = true
		return t, nil
	}
	name, opts, _ := strings.Cut(raw, ",")
	t.name = name
	for o := range strings.SplitSeq(opts, ",") {
		switch o {
		case "omitempty":
			t.omitempty = true
		case "omitzero":
			t.omitzero = true
		case "string":
			t.asString = true
		case "inline":
			t.inline = true
		case "":
		default:
			msg := fmt.Sprintf("unknown option %q", o)
			if s := suggest(o, jsonOptions); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return t, fmt.Errorf("%s", msg)
		}
	}
	return t, nil
}

// schemaItem is one key[=value] of a `jsonschema:"..."` tag.
type schemaItem struct {
	key, val string
	hasVal   bool
}

// The jsonschema keys mcpgen understands: invopop/jsonschema's grammar, minus
// the composition keys (oneof_*, anyof_*) whose runtime meaning mcpgen cannot
// check, plus minProperties/maxProperties and const.
var schemaKeys = []string{
	"title", "description", "type", "enum", "const", "default", "example", "deprecated",
	"readOnly", "writeOnly", "required", "minimum", "maximum", "exclusiveMinimum",
	"exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
	"contentEncoding", "contentMediaType", "minItems", "maxItems", "uniqueItems",
	"minProperties", "maxProperties",
}

var schemaUnsupported = map[string]string{
	"oneof_required": "composition keywords are not checked by mcpgen; split the tool or implement JSONSchema()",
	"anyof_required": "composition keywords are not checked by mcpgen; split the tool or implement JSONSchema()",
	"oneof_ref":      "composition keywords are not checked by mcpgen; implement JSONSchema() on the type",
	"anyof_ref":      "composition keywords are not checked by mcpgen; implement JSONSchema() on the type",
	"oneof_type":     "composition keywords are not checked by mcpgen; implement JSONSchema() on the type",
	"anyof_type":     "composition keywords are not checked by mcpgen; implement JSONSchema() on the type",
	"nullable":       "null is not accepted for arguments; make the property optional instead",
	"anchor":         "anchors are not used in mcpgen schemas",
}

// parseSchemaTag splits a jsonschema tag the way invopop/jsonschema does
// (commas preceded by a backslash do not split) and checks every key.
func parseSchemaTag(raw string) ([]schemaItem, error) {
	if raw == "" {
		return nil, nil
	}
	var items []schemaItem
	for _, part := range splitUnescapedCommas(raw) {
		if part == "" {
			return nil, fmt.Errorf("empty item")
		}
		k, v, has := strings.Cut(part, "=")
		if r, ok := schemaUnsupported[k]; ok {
			return nil, fmt.Errorf("%q is not supported: %s", k, r)
		}
		if !contains(schemaKeys, k) {
			msg := fmt.Sprintf("unknown key %q", k)
			if s := suggest(k, schemaKeys); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return nil, fmt.Errorf("%s", msg)
		}
		items = append(items, schemaItem{key: k, val: v, hasVal: has})
	}
	return items, nil
}

func splitUnescapedCommas(s string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && s[i+1] == ',' {
			cur.WriteByte(',')
			i++
			continue
		}
		if c == ',' {
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return append(out, cur.String())
}

// vrule is one validator rule, with its alternatives when written a|b.
type vrule struct {
	name, param string
	raw         string // as written, alternatives included
	alts        []vrule
}

// vlevel holds the rules for one level of a value: the field itself (level
// 0), or the elements reached through each `dive`.
type vlevel struct {
	rules []vrule
	keys  []vrule // keys ... endkeys, for maps
}

// parseValidateTag splits a validate tag into levels at each dive.
func parseValidateTag(raw string) ([]vlevel, error) {
	if raw == "" || raw == "-" {
		return nil, nil
	}
	levels := []vlevel{{rules: make([]vrule, 0, strings.Count(raw, ",")+1)}}
	inKeys := false
	for part := range strings.SplitSeq(raw, ",") {
		if part == "" {
			return nil, fmt.Errorf("empty rule")
		}
		cur := &levels[len(levels)-1]
		switch part {
		case "dive":
			if inKeys {
				return nil, fmt.Errorf("dive inside keys ... endkeys")
			}
			levels = append(levels, vlevel{})
			continue
		case "keys":
			if len(cur.rules) > 0 || len(cur.keys) > 0 || len(levels) == 1 {
				return nil, fmt.Errorf("keys must come straight after dive")
			}
			inKeys = true
			continue
		case "endkeys":
			if !inKeys {
				return nil, fmt.Errorf("endkeys without keys")
			}
			inKeys = false
			continue
		}
		r := vrule{raw: part}
		if strings.Contains(part, "|") {
			for _, a := range strings.Split(part, "|") {
				n, p, _ := strings.Cut(a, "=")
				r.alts = append(r.alts, vrule{name: n, param: p, raw: a})
			}
			r.name = "|"
		} else {
			r.name, r.param, _ = strings.Cut(part, "=")
		}
		if inKeys {
			cur.keys = append(cur.keys, r)
		} else {
			cur.rules = append(cur.rules, r)
		}
	}
	if inKeys {
		return nil, fmt.Errorf("keys without endkeys")
	}
	return levels, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns the entry of known closest to s, or "".
func suggest(s string, known []string) string { return annotations.Suggest(s, known) }

// fieldTags are one struct field's tags as typed values: json, jsonschema
// (with jsonschema_description and jsonschema_extras), validate and mcp. One
// scanner, [scanTags], reads them; the rest of the package reads these
// values and goes back to the raw tag only to quote it in an error.
type fieldTags struct {
	raw            reflect.StructTag
	json           jsonTag
	description    string
	hasDescription bool
	schema         []schemaItem
	extras         []schemaItem // jsonschema_extras: x-... keywords, each key=value
	validate       []vlevel
	hasValidate    bool
	mcp            string // the mcp tag, for a blank field's tool metadata
	hasMCP         bool
}

// tagError reports a bad tag of field goName of owner.
func tagError(owner reflect.Type, goName string, sf reflect.StructField, key, msg string) error {
	return &DefinitionError{Type: typeString(owner), Field: goName, Tag: fmt.Sprintf("%s:%q", key, sf.Tag.Get(key)), Msg: msg}
}

// scanTags reads the tags of sf, a field of owner (goName is its Go path),
// and returns one error per bad tag. A field whose json tag is bad is
// skipped by its caller; the other tags' errors are reported with it.
func scanTags(owner reflect.Type, goName string, sf reflect.StructField) (fieldTags, []error) {
	t := fieldTags{raw: sf.Tag}
	var errs []error
	var err error
	jraw, hasJSON := sf.Tag.Lookup("json")
	if t.json, err = parseJSONTag(jraw, hasJSON); err != nil {
		errs = append(errs, tagError(owner, goName, sf, "json", err.Error()))
	} else if t.json.asString {
		errs = append(errs, &DefinitionError{Type: typeString(owner), Field: goName, Tag: fmt.Sprintf("json:%q", jraw), Msg: "the ,string option is not supported: use a string field", Err: errUnsupported})
	}
	t.mcp, t.hasMCP = sf.Tag.Lookup("mcp")
	t.description, t.hasDescription = sf.Tag.Lookup("jsonschema_description")
	if t.schema, err = parseSchemaTag(sf.Tag.Get("jsonschema")); err != nil {
		errs = append(errs, tagError(owner, goName, sf, "jsonschema", err.Error()))
	}
	if extras, ok := sf.Tag.Lookup("jsonschema_extras"); ok {
		if t.extras, err = parseExtrasTag(extras); err != nil {
			errs = append(errs, tagError(owner, goName, sf, "jsonschema_extras", err.Error()))
		}
	}
	var vraw string
	if vraw, t.hasValidate = sf.Tag.Lookup("validate"); t.hasValidate {
		if t.validate, err = parseValidateTag(vraw); err != nil {
			errs = append(errs, tagError(owner, goName, sf, "validate", err.Error()))
		}
	}
	return t, errs
}

// parseExtrasTag reads a jsonschema_extras tag: x-... keywords, key=value,
// separated by commas (a backslash escapes one).
func parseExtrasTag(raw string) ([]schemaItem, error) {
	var items []schemaItem
	for _, part := range splitUnescapedCommas(raw) {
		k, v, has := strings.Cut(part, "=")
		if !has || k == "" {
			return nil, fmt.Errorf("item %q is not key=value", part)
		}
		if !strings.HasPrefix(k, "x-") {
			return nil, fmt.Errorf("extra keyword %q must start with x- (known keywords go in the jsonschema tag)", k)
		}
		items = append(items, schemaItem{key: k, val: v, hasVal: true})
	}
	return items, nil
}
