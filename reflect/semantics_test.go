package mcpreflect

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The decoding rules docs/tags.md states, one test each.

func decodeInto[T any](t *testing.T, doc string) (T, error) {
	t.Helper()
	p, err := PlanFor(tf[T](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var v T
	err = p.Decode([]byte(doc), &v, 0)
	return v, err
}

func mustDecode[T any](t *testing.T, doc string) T {
	t.Helper()
	v, err := decodeInto[T](t, doc)
	if err != nil {
		t.Fatalf("Decode(%s): %v", doc, err)
	}
	return v
}

func wantViolations(t *testing.T, err error, want ...Violation) {
	t.Helper()
	var ae *ArgumentsError
	if !errors.As(err, &ae) {
		t.Fatalf("want *ArgumentsError, got %T %v", err, err)
	}
	if !reflect.DeepEqual(ae.Violations, want) {
		t.Errorf("violations:\n got: %#v\nwant: %#v", ae.Violations, want)
	}
}

func TestNoArgumentsSchema(t *testing.T) {
	for _, rt := range []reflect.Type{nil, tf[emptyArgs](), tf[ZooNoArgs](), tf[*ZooNoArgs]()} {
		p, err := PlanFor(rt, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got, want any
		_ = json.Unmarshal(p.SchemaJSON, &got)
		_ = json.Unmarshal([]byte(`{"type":"object","additionalProperties":false}`), &want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("PlanFor(%v) = %s", rt, p.SchemaJSON)
		}
	}
	// A nested struct without fields is the same closed object.
	type withEmpty struct {
		E ZooNoArgs `json:"e"`
	}
	p, err := PlanFor(tf[withEmpty](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(p.SchemaJSON), `"e":{"additionalProperties":false,"type":"object"}`) {
		t.Errorf("nested empty struct: %s", p.SchemaJSON)
	}
}

// Empty input and null mean no arguments.
func TestEmptyAndNullArguments(t *testing.T) {
	for _, doc := range []string{"", "null", "{}", " {} "} {
		if _, err := decodeInto[ZooNoArgs](t, doc); err != nil {
			t.Errorf("Decode(%q): %v", doc, err)
		}
	}
	_, err := decodeInto[ZooHintsReadOnly](t, "null")
	wantViolations(t, err, Violation{Path: "q", Rule: "required", Msg: "is required but missing"})
}

// The json tag's required means present: an explicit zero value counts.
func TestRequiredMeansPresent(t *testing.T) {
	v := mustDecode[ZooScalars](t, `{"name":"","flag":false,"count":0,"Untagged":0}`)
	if v.Name != "" || v.Flag || v.Count != 0 {
		t.Errorf("got %+v", v)
	}
}

// validate:"required" means validator's required: a string, a slice and a
// map must not be empty, a pointer not nil; a number and a bool need only be
// present (0 and false count).
func TestValidateRequiredRefusesEmpty(t *testing.T) {
	mustDecode[ZooStringRules](t, `{"req":"  "}`) // spaces are not empty, as for validator
	_, err := decodeInto[ZooStringRules](t, `{}`)
	wantViolations(t, err, Violation{Path: "req", Rule: "required", Msg: "is required but missing"})
	_, err = decodeInto[ZooStringRules](t, `{"req":""}`)
	wantViolations(t, err, Violation{Path: "req", Rule: "minLength", Msg: "must be at least 1 character long, got 0"})
	const rest = `"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"`
	_, err = decodeInto[ZooRequiredValues](t, `{"str":"","bytes":"","list":[],"dict":{},`+rest+`}`)
	var ae *ArgumentsError
	if !errors.As(err, &ae) {
		t.Fatalf("want *ArgumentsError, got %v", err)
	}
	var got []string
	for _, v := range ae.Violations {
		got = append(got, v.Path+" "+v.Rule)
	}
	if want := "str minLength|bytes minLength|list minItems|dict minProperties"; strings.Join(got, "|") != want {
		t.Errorf("violations: %s, want %s", strings.Join(got, "|"), want)
	}
	p, err := PlanFor(tf[ZooRequiredValues](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"str":{"type":"string","minLength":1}`,
		`"list":{"items":{"type":"string"},"type":"array","minItems":1}`,
		`"nested":{"additionalProperties":{"type":"string"},"type":"object"}`,
		`-9223372036854775808},"type":"object","minProperties":1}`,
		`"longer":{"type":"string","minLength":3}`,
		`"num":{"type":"integer","maximum":9223372036854775807,"minimum":-9223372036854775808}`,
		`"flag":{"type":"boolean"}`,
	} {
		if !strings.Contains(string(p.SchemaJSON), want) {
			t.Errorf("schema lacks %s:\n%s", want, p.SchemaJSON)
		}
	}
}

// Rules apply to present properties only; an absent optional property is
// not checked, and a present one is checked even when it is a zero value.
func TestRulesApplyToPresentProperties(t *testing.T) {
	mustDecode[ZooNumberRules](t, `{"min":1}`) // eq=7, gt=0 ... all absent
	_, err := decodeInto[ZooNumberRules](t, `{"min":1,"eq":0}`)
	wantViolations(t, err, Violation{Path: "eq", Rule: "const", Msg: "must be 7, got 0"})
	// omitempty in validate does not skip an explicit empty value.
	_, err = decodeInto[ZooEnums](t, `{"color":"red","level":1,"mode":""}`)
	wantViolations(t, err, Violation{Path: "mode", Rule: "enum", Msg: `must be one of "fast", "slow", "very slow", got ""`})
}

// Defaults fill absent optional properties, nested ones included, and never
// override a value sent.
func TestDefaults(t *testing.T) {
	v := mustDecode[ZooDefaults](t, `{}`)
	want := ZooDefaults{Name: "anon", Limit: 20, Ratio: 0.5, Strict: true, Tags: []string{"a", "b"}, Mode: "fast",
		Since: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", v, want)
	}
	v = mustDecode[ZooDefaults](t, `{"strict":false,"limit":5,"tags":[]}`)
	if v.Strict || v.Limit != 5 || len(v.Tags) != 0 || v.Name != "anon" {
		t.Errorf("explicit values: %+v", v)
	}
	s := mustDecode[ZooSearch](t, `{"query":"q","page":{}}`)
	if s.Page.Size != 10 {
		t.Errorf("nested default: %+v", s.Page)
	}
	// Decoding twice reuses no state: the default slice is fresh each time.
	a := mustDecode[ZooDefaults](t, `{}`)
	a.Tags[0] = "changed"
	if b := mustDecode[ZooDefaults](t, `{}`); b.Tags[0] != "a" {
		t.Errorf("default shared between calls: %v", b.Tags)
	}
}

func TestNullIsRejected(t *testing.T) {
	_, err := decodeInto[ZooPointers](t, `{"s":null,"ps":[null]}`)
	wantViolations(t, err,
		Violation{Path: "s", Rule: "type", Msg: "must be a string, got null"},
		Violation{Path: "ps[0]", Rule: "type", Msg: "must be an object, got null"})
	// json.RawMessage takes any JSON value, null included.
	v := mustDecode[ZooRaw](t, `{"payload":null}`)
	if string(v.Payload) != "null" {
		t.Errorf("payload = %s", v.Payload)
	}
}

func TestIntegersAcceptIntegralNumbers(t *testing.T) {
	v := mustDecode[ZooScalars](t, `{"name":"","flag":true,"count":1.0,"big":-1e2,"size":3.00,"Untagged":2E1}`)
	if v.Count != 1 || v.Big != -100 || v.Size != 3 || v.Untagged != 20 {
		t.Errorf("got %+v", v)
	}
	_, err := decodeInto[ZooScalars](t, `{"name":"","flag":true,"count":1.5,"Untagged":0}`)
	wantViolations(t, err, Violation{Path: "count", Rule: "type", Msg: "must be an integer, got 1.5"})
	s := mustDecode[ZooSizedInts](t, `{"i8":-128,"i16":0,"i32":0,"u8":255,"u16":0,"u32":0,"u64":18446744073709551615}`)
	if s.I8 != -128 || s.U8 != 255 || s.U64 != 18446744073709551615 {
		t.Errorf("got %+v", s)
	}
}

func TestDuplicateKeysAreRejected(t *testing.T) {
	_, err := decodeInto[ZooScalars](t, `{"name":"a","name":"b","flag":true,"count":1,"Untagged":0}`)
	wantViolations(t, err, Violation{Path: "name", Rule: "uniqueKeys", Msg: "is given more than once"})
	_, err = decodeInto[ZooMaps](t, `{"labels":{"k":"1","k":"2"}}`)
	wantViolations(t, err, Violation{Path: "labels.k", Rule: "uniqueKeys", Msg: "is given more than once"})
}

func TestUnknownPropertiesAreRejected(t *testing.T) {
	_, err := decodeInto[ZooHintsReadOnly](t, `{"q":"x","qq":1}`)
	wantViolations(t, err, Violation{Path: "qq", Rule: "additionalProperties", Msg: `is not a known argument (did you mean "q"?)`})
	_, err = decodeInto[ZooSearch](t, `{"query":"x","page":{"curser":"c"}}`)
	wantViolations(t, err, Violation{Path: "page.curser", Rule: "additionalProperties", Msg: `is not a known argument (did you mean "cursor"?)`})
	_, err = decodeInto[ZooSearch](t, `{"query":"x","page":{},"zzzzzz":1}`)
	wantViolations(t, err, Violation{Path: "zzzzzz", Rule: "additionalProperties", Msg: `is not a known argument (known: query, filters, page)`})
}

// Every violation is reported at once, with its JSON path and rule.
func TestAllViolationsAtOnce(t *testing.T) {
	_, err := decodeInto[ZooSearch](t, `{"query":"","filters":[{"field":"title","from":0},{"field":"x","from":0},{"field":"body","from":-1,"to":"3"}],"page":{"size":1000}}`)
	wantViolations(t, err,
		Violation{Path: "query", Rule: "minLength", Msg: "must be at least 1 character long, got 0"},
		Violation{Path: "filters[1].field", Rule: "enum", Msg: `must be one of "title", "body", "author", got "x"`},
		Violation{Path: "filters[2].from", Rule: "minimum", Msg: "must be at least 0, got -1"},
		Violation{Path: "filters[2].to", Rule: "type", Msg: "must be an integer, got string"},
		Violation{Path: "page.size", Rule: "maximum", Msg: "must be at most 100, got 1000"},
	)
	want := `invalid arguments:
- query: must be at least 1 character long, got 0 (minLength)
- filters[1].field: must be one of "title", "body", "author", got "x" (enum)
- filters[2].from: must be at least 0, got -1 (minimum)
- filters[2].to: must be an integer, got string (type)
- page.size: must be at most 100, got 1000 (maximum)`
	if err.Error() != want {
		t.Errorf("Error():\n%s\nwant:\n%s", err, want)
	}
}

// Runtime-only validator rules report the same JSON paths, below dives too.
func TestResidualRulePaths(t *testing.T) {
	_, err := decodeInto[ZooDive](t, `{"names":["ab"],"prefixed":["x1","y2","x3","z4"]}`)
	wantViolations(t, err,
		Violation{Path: "prefixed[1]", Rule: "startswith", Msg: "must satisfy startswith=x"},
		Violation{Path: "prefixed[3]", Rule: "startswith", Msg: "must satisfy startswith=x"})
	_, err = decodeInto[ZooSearch](t, `{"query":"q","filters":[{"field":"title","from":0},{"field":"body","from":0},{"field":"title","from":5,"to":1}],"page":{}}`)
	wantViolations(t, err, Violation{Path: "filters[2].to", Rule: "gtefield", Msg: "must satisfy gtefield"})
	_, err = decodeInto[ZooResidual](t, `{"code":"AB-1","pass":"password1","confirm":"password2"}`)
	wantViolations(t, err,
		Violation{Path: "code", Rule: "alphanum", Msg: "must satisfy alphanum"},
		Violation{Path: "confirm", Rule: "eqfield", Msg: "must satisfy eqfield"})
	// Runtime-only rules run after the schema checks of the same property
	// passed... and also when they did not: both are reported.
	_, err = decodeInto[ZooResidual](t, `{"code":"AB","pass":"password1","confirm":"password1","mixed":"abcdefghijk"}`)
	wantViolations(t, err,
		Violation{Path: "mixed", Rule: "maxLength", Msg: "must be at most 10 characters long, got 11"},
		Violation{Path: "mixed", Rule: "contains", Msg: "must satisfy contains=@"})
}

func TestPathsQuoteOddKeys(t *testing.T) {
	_, err := decodeInto[ZooMapRules](t, `{"min":{"a":1},"by_ip":{"10.0.0.1":"nope","x y":"a@example.com"}}`)
	wantViolations(t, err,
		Violation{Path: `by_ip."10.0.0.1"`, Rule: "format", Msg: "must be a valid email"},
		Violation{Path: `by_ip."x y"`, Rule: "format", Msg: "must be a valid ipv4"})
}

func TestSyntaxErrors(t *testing.T) {
	for _, doc := range []string{`{"q":`, `{"q":"x"} x`, `{"q":'x'}`, `{"q":"x",}`, `[1,]`} {
		_, err := decodeInto[ZooHintsReadOnly](t, doc)
		var se *syntaxError
		if !errors.As(err, &se) {
			t.Errorf("Decode(%s): want *syntaxError, got %v", doc, err)
		}
	}
}

func TestMaxDepth(t *testing.T) {
	p, err := PlanFor(tf[ZooTree](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"value":0}`
	for i := 0; i < 10; i++ {
		doc = `{"value":0,"children":[` + doc + `]}`
	}
	var v ZooTree
	if err := p.Decode([]byte(doc), &v, 32); err != nil {
		t.Fatalf("depth 21 under a limit of 32: %v", err)
	}
	err = p.Decode([]byte(doc), &v, 8)
	var ae *ArgumentsError
	if !errors.As(err, &ae) || len(ae.Violations) != 1 || ae.Violations[0].Rule != "maxDepth" {
		t.Errorf("over the limit: %v", err)
	}
}

func TestEmbeddedPointerAllocation(t *testing.T) {
	id := `"123e4567-e89b-12d3-a456-426614174000"`
	v := mustDecode[ZooEmbedded](t, `{"id":`+id+`}`)
	if v.ZooAudit != nil {
		t.Errorf("embedded pointer allocated without its fields: %+v", v.ZooAudit)
	}
	v = mustDecode[ZooEmbedded](t, `{"id":`+id+`,"by":"me","version":"v9","secret":"s"}`)
	if v.ZooAudit == nil || v.By != "me" || v.Version != "v9" || v.ZooBase.Version != 0 || v.Secret != "s" {
		t.Errorf("got %+v", v)
	}
}

func TestPlanCache(t *testing.T) {
	a, _ := PlanFor(tf[ZooSearch](), Options{})
	b, _ := PlanFor(tf[*ZooSearch](), Options{})
	c, _ := PlanFor(tf[ZooSearch](), Options{KeepDefs: true})
	if a != b {
		t.Error("T and *T have different plans")
	}
	if a == c {
		t.Error("KeepDefs shares a plan with the default options")
	}
}

// Hints of the mcp tag become MCP annotations, with every hint spelled out.
func TestHints(t *testing.T) {
	p, err := PlanFor(tf[ZooHintsReadOnly](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := toolAnnotations(p.Tool.Hints)
	if a.Title != "Read, only" || !a.ReadOnlyHint || a.DestructiveHint != nil || *a.OpenWorldHint {
		t.Errorf("annotations %+v", a)
	}
	p, _ = PlanFor(tf[ZooHintsWrite](), Options{})
	a = toolAnnotations(p.Tool.Hints)
	if a.ReadOnlyHint || !*a.DestructiveHint || !a.IdempotentHint || !*a.OpenWorldHint {
		t.Errorf("annotations %+v", a)
	}
}

func TestOutputResults(t *testing.T) {
	o, err := OutputFor(tf[[]ZooPoint](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := o.Result([]ZooPoint{{1, 2}})
	if err != nil || string(r.StructuredContent.(json.RawMessage)) != `{"result":[{"x":1,"y":2}]}` {
		t.Errorf("wrapped: %v %v", r, err)
	}
	r, _ = o.Result([]ZooPoint(nil))
	if string(r.StructuredContent.(json.RawMessage)) != `{"result":[]}` {
		t.Errorf("nil slice: %s", r.StructuredContent)
	}
	o, _ = OutputFor(tf[*ZooResult](), Options{})
	if _, err := o.Result((*ZooResult)(nil)); !errors.Is(err, errNilResult) {
		t.Errorf("nil pointer: %v", err)
	}
	o, _ = OutputFor(tf[string](), Options{})
	r, _ = o.Result("hi")
	if o.SchemaJSON != nil || r.StructuredContent != nil || r.Content[0].(*mcp.TextContent).Text != "hi" {
		t.Errorf("string result: %+v", r)
	}
}

// A runtime-only rule never judges a value that failed its type check: the
// decoder left a zero value there, not what the caller sent.
func TestResidualSkipsUndecodedValues(t *testing.T) {
	_, err := decodeInto[ZooSearch](t, `{"query":"q","filters":[{"field":"title","from":5,"to":"x"}],"page":{}}`)
	wantViolations(t, err, Violation{Path: "filters[0].to", Rule: "type", Msg: "must be an integer, got string"})
	_, err = decodeInto[ZooResidual](t, `{"code":5,"pass":"password1","confirm":"password1"}`)
	wantViolations(t, err, Violation{Path: "code", Rule: "type", Msg: "must be a string, got number"})
	_, err = decodeInto[ZooDive](t, `{"names":["ab"],"prefixed":["x1",7]}`)
	wantViolations(t, err, Violation{Path: "prefixed[1]", Rule: "type", Msg: "must be a string, got number"})
}

type docInlineBase struct {
	A string `json:"a"`
}

type docInline struct {
	docInlineBase `json:"base,inline"`
	B             string `json:"b"`
}

type docNamedEmbed struct {
	docInlineBase `json:"base"`
}

// Claims of docs/tags.md that its examples do not show.
func TestDocsClaims(t *testing.T) {
	t.Run("inline promotes a named embedded struct", func(t *testing.T) {
		v := mustDecode[docInline](t, `{"a":"x","b":"y"}`)
		if v.A != "x" || v.B != "y" {
			t.Errorf("got %+v", v)
		}
		v2 := mustDecode[docNamedEmbed](t, `{"base":{"a":"x"}}`)
		if v2.A != "x" {
			t.Errorf("got %+v", v2)
		}
	})
	t.Run("-0 is an integer", func(t *testing.T) {
		v := mustDecode[ZooScalars](t, `{"name":"","flag":true,"count":-0,"Untagged":-0.0}`)
		if v.Count != 0 || v.Untagged != 0 {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("eq on a bool is const", func(t *testing.T) {
		type args struct {
			Sure bool `json:"sure" validate:"eq=true"`
		}
		p, err := PlanFor(tf[args](), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(p.SchemaJSON), `"sure":{"type":"boolean","const":true}`) {
			t.Errorf("schema %s", p.SchemaJSON)
		}
		_, err = decodeInto[args](t, `{"sure":false}`)
		wantViolations(t, err, Violation{Path: "sure", Rule: "const", Msg: "must be true"})
	})
	t.Run("description precedence", func(t *testing.T) {
		type args struct {
			A string `json:"a"`
			B string `json:"b" jsonschema_description:"from the tag"`
			C string `json:"c" jsonschema_description:"from the tag" jsonschema:"description=from jsonschema"`
		}
		p, err := PlanFor(tf[args](), Options{comments: func(_ reflect.Type, f string) string { return "comment of " + f }})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"a":{"type":"string","description":"comment of A"}`,
			`"b":{"type":"string","description":"from the tag"}`, `"c":{"type":"string","description":"from jsonschema"}`} {
			if !strings.Contains(string(p.SchemaJSON), want) {
				t.Errorf("want %s in %s", want, p.SchemaJSON)
			}
		}
	})
	t.Run("64-bit overflow", func(t *testing.T) {
		_, err := decodeInto[ZooSizedInts](t, `{"i8":0,"i16":0,"i32":0,"u8":0,"u16":0,"u32":0,"u64":18446744073709551616}`)
		wantViolations(t, err, Violation{Path: "u64", Rule: "maximum", Msg: "must be at most 18446744073709551615, got 18446744073709551616"})
	})
	t.Run("at most 64 violations", func(t *testing.T) {
		doc := `{"names":[` + strings.Repeat(`"",`, 100) + `""]}`
		_, err := decodeInto[ZooDive](t, doc)
		var ae *ArgumentsError
		if !errors.As(err, &ae) || len(ae.Violations) != 64 {
			t.Errorf("got %v", err)
		}
	})
	t.Run("rules on time.Time run at call time", func(t *testing.T) {
		type args struct {
			At time.Time `json:"at" validate:"gt"`
		}
		p, err := PlanFor(tf[args](), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(p.SchemaJSON), `"at":{"type":"string","format":"date-time"}`) {
			t.Errorf("schema %s", p.SchemaJSON)
		}
		_, err = decodeInto[args](t, `{"at":"2000-01-01T00:00:00Z"}`)
		wantViolations(t, err, Violation{Path: "at", Rule: "gt", Msg: "must satisfy gt"})
		mustDecode[args](t, `{"at":"`+time.Now().Add(time.Hour).UTC().Format(time.RFC3339)+`"}`)
	})
}

// encoding/json, which encodes results, has no inline option: a result
// type asking for it is refused at registration, naming the field and tag,
// instead of publishing promoted fields and sending them under the name.
func TestOutputRefusesInline(t *testing.T) {
	_, err := OutputFor(reflect.TypeFor[docInline](), Options{})
	var de *DefinitionError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v, want a *DefinitionError", err)
	}
	for _, want := range []string{"docInline", "docInlineBase", `json:"base,inline"`, "inline is not honored in a result"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if _, err := OutputFor(reflect.TypeFor[docNamedEmbed](), Options{}); err != nil {
		t.Errorf("a named embedded struct without inline: %v", err)
	}
}
