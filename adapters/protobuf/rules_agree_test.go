package mcpproto_test

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"buf.build/go/protovalidate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// leftToProtovalidate lists, by rule ID prefix, the rules rules.go says are
// not mirrored into the schema: a document that breaks only these is valid
// under the published schema and refused by the tool.
var leftToProtovalidate = []string{
	"string.min_bytes", "string.max_bytes", "string.len_bytes",
	"string.uri", "string.ip", "string.address", "string.host_and_port", "string.protobuf_",
	"bytes.", "timestamp.", "duration.",
	"int32.gt_lt_exclusive", // an exclusive range ("outside")
	"even",                  // CEL
}

// ruleValues are argument values for each field of testpb.Rules: valid
// ones, invalid ones, the boundaries, and the other JSON forms protojson
// reads (integers as strings, enums by number).
var ruleValues = map[string][]any{
	"sLen":         {"abc", "ab", "abcd", "日本語", ""},
	"sMinMax":      {"ab", "a", "abcd", "abcde"},
	"sBytes":       {"ab", "a", "éé", "ééé"},
	"sPattern":     {"abc", "ABC", "", "a1"},
	"sAffix":       {"a.*+z", "a.+z", "ax*+z", "a.*+zz", "a.**+z"},
	"sNotContains": {"good", "isbad", "BAD"},
	"sIn":          {"x", "y", "z", ""},
	"sNotIn":       {"x", "z", ""},
	"sConst":       {"k", "K", ""},
	"email":        {"a@example.com", "nobody", ".a@b.c", "a b@c.d", "a@-b.c", "a@b", ""},
	"hostname":     {"example.com", "example.com.", "a-.com", "123", "a.123", "123.a", strings.Repeat("a.", 126) + "a", strings.Repeat("a.", 126) + "ab", strings.Repeat("a.", 127), ""},
	"ipv4":         {"1.2.3.4", "01.2.3.4", "256.1.1.1", "1.2.3", "255.255.255.255", ""},
	"uuid":         {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000", "xyz"},
	"tuuid":        {"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-426614174000"},
	"ulid":         {"01ARZ3NDEKTSV4RRFFQ69G5FAV", "81ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FAU", "01arz3ndektsv4rrffq69g5fav"},
	"headerName":   {"X-Api", ":path", "bad header", ""},
	"headerValue":  {"ok value", "bad\nvalue", "tab\tok", ""},
	"fqn":          {"a.b", "1a"},
	"uri":          {"https://example.com", "not a uri"},
	"ip":           {"::1", "1.2.3.4", "x"},
	"ipv6":         {"::1", "1.2.3.4"},
	"hostPort":     {"a.com:80", "a.com"},
	"bLen":         {"AQ==", "", "AQIDBA=="},
	"bConst":       {"AQI=", "AQ=="},
	"i32":          {4, 5, -4, -5, "4", "5", 0, 4.0, "4.0", "4e0", "0.4e1", "5.0"},
	"i64":          {5, 6, 0, "0", "-0", -5, "6", "5", "0.0", "0e3", "5.0"},
	"u32":          {1, 3, 4, "2", "4", "2.0", "3e0", 2.0},
	"u64":          {7, "7", 8, "8", "7.0", "70e-1", "0.7e1"},
	"si32":         {-1, 0, "-1", "0"},
	"si64":         {0, -1, "-1"},
	"fx32":         {9, 10, "10"},
	"fx64":         {11, 10, "10", "11"},
	"sfx32":        {-1, 1, 0, "-1", "0"},
	"sfx64":        {0, 1, "1", "-1", "0", "1.0", "-1e0"},
	"dbl":          {0.5, 1.5, 1.0, 0.49, "1.0", "NaN", "Infinity"},
	"finite":       {1.0, "NaN", "Infinity", "-Infinity", "1.5"},
	"flt":          {1.5, 1.0, -1, "1.5", -2, "1.50", "15e-1"},
	"outside":      {-1, 11, 5},
	"flag":         {true, false},
	"colorIn":      {"COLOR_RED", "COLOR_GREEN", "COLOR_UNSPECIFIED", 1, 2, 0, 7},
	"colorNotIn":   {"COLOR_GREEN", 2, "COLOR_RED", 9},
	"colorConst":   {"COLOR_RED", 1, "COLOR_GREEN", 0},
	"colorDefined": {"COLOR_RED", 9, 0},
	"tags":         {[]any{"a"}, []any{"a", "a"}, []any{"a", "b", "c", "d"}, []any{""}, []any{}},
	"nums":         {[]any{1, 2}, []any{1, 1}, []any{1, "1"}, []any{0}, []any{"2"}, []any{-1}},
	"colors":       {[]any{"COLOR_RED"}, []any{}, []any{9}, []any{1, "COLOR_RED"}},
	"counts":       {map[string]any{"ab": 1}, map[string]any{"a": 1}, map[string]any{"ab": -1}, map[string]any{"ab": 1, "cd": 2, "ef": 3}, map[string]any{"ab": "1"}, map[string]any{"ab": "-1"}},
	"byNum":        {map[string]any{"1": "ok"}, map[string]any{"0": "ok"}, map[string]any{"1": "long"}, map[string]any{"+1": "ok"}, map[string]any{"01": "ok"}, map[string]any{"1.0": "ok"}},
	"must":         {map[string]any{}, nil, map[string]any{"flag": true}},
	"zeroOk":       {"", "ab", "abc"},
	"never":        {"", "a"},
	"at":           {"2026-01-01T00:00:00Z", "1969-12-31T00:00:00Z"},
	"took":         {"1s", "61s"},
	"detail":       {map[string]any{"@type": "type.googleapis.com/google.protobuf.Duration", "value": "1s"}, map[string]any{"@type": "type.googleapis.com/google.protobuf.Empty", "value": map[string]any{}}},
	"a":            {"x", nil},
	"b":            {1, nil},
	"left":         {"l", nil},
	"right":        {"r", nil},
	"even":         {2, 3},
}

// TestRuleAgreement holds three verdicts on documents for testpb.Rules, a
// message with a field for every family of protovalidate's standard rules,
// to each other: protovalidate's (after protojson), the published input
// schema's under an independent JSON Schema 2020-12 validator, and the
// tool's. The tool always agrees with protovalidate. The schema agrees
// with it, or the schema takes a document protovalidate refuses for a rule
// rules.go lists as not mirrored (leftToProtovalidate), a numeric rule
// broken by a number in its string form, or a repeated unique broken by
// one value in two JSON forms. The schema never refuses what protovalidate
// takes.
func TestRuleAgreement(t *testing.T) {
	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, reg.Add("rules", echo[testpb.Rules]))
	tl, _ := reg.Tool("rules")
	schema := compileSchema(t, tl.InputSchema.(json.RawMessage))
	validator, err := protovalidate.New()
	require.NoError(t, err)
	md := (&testpb.Rules{}).ProtoReflect().Descriptor()
	for name := range ruleValues {
		require.NotNil(t, md.Fields().ByJSONName(name), "testpb.Rules has no field %s", name)
	}
	base := map[string]any{"a": "x", "must": map[string]any{}, "colorIn": 1, "colors": []any{"COLOR_RED"}}

	verdicts := map[string]int{}
	check := func(doc map[string]any) {
		t.Helper()
		raw, err := json.Marshal(doc)
		require.NoError(t, err)
		schemaOK := validJSON(schema, string(raw)) == nil
		var m testpb.Rules
		pvOK, explained := true, true
		var rules []string
		if err := protojson.Unmarshal(raw, &m); err != nil {
			pvOK, explained = false, false
			rules = append(rules, "protojson: "+err.Error())
		} else if err := validator.Validate(&m); err != nil {
			pvOK = false
			var ve *protovalidate.ValidationError
			require.True(t, errAs(err, &ve), "%v", err)
			for _, v := range ve.Violations {
				id := v.Proto.GetRuleId()
				rules = append(rules, id)
				var top protoreflect.FieldDescriptor // the field of the arguments the rule is on
				if els := v.Proto.GetField().GetElements(); len(els) > 0 {
					top = md.Fields().ByNumber(protoreflect.FieldNumber(els[0].GetFieldNumber()))
				}
				fd := v.FieldDescriptor
				if fd == nil && top != nil && top.IsMap() { // a map's key or value
					fd = top.MapValue()
					if v.Proto.GetForKey() {
						fd = top.MapKey()
					}
				}
				if !notMirrored(id, fd, top, v.Proto.GetForKey(), doc) {
					explained = false
				}
			}
		}
		res := call(t, reg, "rules", string(raw))
		if !res.IsError != pvOK {
			t.Errorf("%s: the tool says ok=%v, protovalidate ok=%v (%v): %s", raw, !res.IsError, pvOK, rules, text(res))
		}
		switch {
		case schemaOK == pvOK:
			verdicts["agree"]++
		case !schemaOK:
			t.Errorf("%s: the schema refuses what protovalidate takes: %v", raw, validJSON(schema, string(raw)))
		case !explained:
			t.Errorf("%s: the schema takes what protovalidate refuses for a rule the schema says: %v", raw, rules)
		default:
			verdicts["left to protovalidate"]++
		}
	}
	check(base)
	// Every value of every field, alone.
	for _, name := range slices.Sorted(maps.Keys(ruleValues)) {
		for _, v := range ruleValues[name] {
			doc := maps.Clone(base)
			doc[name] = v
			check(doc)
		}
	}
	// And random combinations of a few.
	rng := rand.New(rand.NewPCG(27, 4))
	names := slices.Sorted(maps.Keys(ruleValues))
	for range 1500 {
		doc := maps.Clone(base)
		for range 1 + rng.IntN(4) {
			name := names[rng.IntN(len(names))]
			vals := ruleValues[name]
			doc[name] = vals[rng.IntN(len(vals))]
		}
		if rng.IntN(10) == 0 {
			delete(doc, "a")
		}
		check(doc)
	}
	t.Logf("verdicts: %v", verdicts)
	require.Greater(t, verdicts["left to protovalidate"], 0)
}

// notMirrored reports a violation the published schema does not say, by
// the documented reasons: fd is the field (or map key or value) the rule
// is on, top the field of the arguments that holds it.
func notMirrored(id string, fd, top protoreflect.FieldDescriptor, forKey bool, doc map[string]any) bool {
	for _, p := range leftToProtovalidate {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	if fd == nil || top == nil {
		return false
	}
	if forKey {
		return fd.Kind() != protoreflect.StringKind // integer keys' rules
	}
	v := doc[top.JSONName()]
	numeric := fd.Kind() != protoreflect.StringKind && fd.Kind() != protoreflect.BytesKind &&
		fd.Kind() != protoreflect.BoolKind && fd.Kind() != protoreflect.EnumKind && fd.Kind() != protoreflect.MessageKind
	if numeric && hasString(v) {
		return true // a number in its string form
	}
	if id == "repeated.unique" {
		return hasString(v) && hasNumber(v) // one value in two JSON forms
	}
	return false
}

func hasString(v any) bool {
	switch x := v.(type) {
	case string:
		return true
	case []any:
		return slices.ContainsFunc(x, hasString)
	case map[string]any:
		return slices.ContainsFunc(slices.Collect(maps.Values(x)), hasString)
	}
	return false
}

func hasNumber(v any) bool {
	switch x := v.(type) {
	case int, float64:
		return true
	case []any:
		return slices.ContainsFunc(x, hasNumber)
	}
	return false
}
