package mcpreflect

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"
)

// The cases of issue 14 §1 where float64 arithmetic and JSON Schema's exact
// numbers disagreed. Each is also judged by the reference validator in
// TestNumbersAgainstReference.
type numberArgs struct {
	I     int64           `json:"i,omitempty"`
	U     uint            `json:"u,omitempty"`
	U8    uint8           `json:"u8,omitempty"`
	F     float64         `json:"f,omitempty"`
	F32   float32         `json:"f32,omitempty"`
	Min0  float64         `json:"min0,omitempty" jsonschema:"minimum=0"`
	ExMin float64         `json:"ex_min,omitempty" jsonschema:"exclusiveMinimum=0"`
	IMin0 int             `json:"imin0,omitempty" jsonschema:"minimum=0"`
	Cents float64         `json:"cents,omitempty" jsonschema:"multipleOf=0.01"`
	Step  float64         `json:"step,omitempty" jsonschema:"multipleOf=1e-20"`
	Whole int             `json:"whole,omitempty" jsonschema:"multipleOf=1000"`
	Raw   json.RawMessage `json:"raw,omitempty" jsonschema:"description=Kept as sent."`
	Any   json.RawMessage `json:"any,omitempty"`
	Pick  float64         `json:"pick,omitempty" jsonschema:"enum=0.1,enum=2"`
}

var numberCases = []struct {
	doc  string
	ok   bool
	rule string // of the one violation when !ok
}{
	{`{"i":1e-400}`, false, "type"},
	{`{"i":-1e-400}`, false, "type"},
	{`{"i":1.0}`, true, ""},
	{`{"i":1e2}`, true, ""},
	{`{"i":12.5e1}`, true, ""},
	{`{"i":12.55e1}`, false, "type"},
	{`{"i":9223372036854775807}`, true, ""},
	{`{"i":9223372036854775808}`, false, "maximum"},
	{`{"i":-9223372036854775808}`, true, ""},
	{`{"i":-9223372036854775809}`, false, "minimum"},
	{`{"i":100000000000000000000000}`, false, "maximum"},
	{`{"u":18446744073709551615}`, true, ""},
	{`{"u":18446744073709551616}`, false, "maximum"},
	{`{"u":1.8446744073709551615e19}`, true, ""},
	{`{"u":-0}`, true, ""},
	{`{"u":-0.0}`, true, ""},
	{`{"u":-1}`, false, "minimum"},
	{`{"u8":255}`, true, ""},
	{`{"u8":256}`, false, "maximum"},
	{`{"u8":2.55e2}`, true, ""},
	{`{"f":1e400}`, false, "range"},
	{`{"f":-1e400}`, false, "range"},
	{`{"f":1e-400}`, true, ""},
	{`{"f":1.7976931348623157e308}`, true, ""},
	{`{"f":1.7976931348623158e308}`, false, "range"},
	{`{"f32":3.4028235e38}`, true, ""},
	{`{"f32":3.4028236e38}`, false, "maximum"},
	{`{"f32":1e39}`, false, "maximum"},
	{`{"min0":-0}`, true, ""},
	{`{"min0":-1e-400}`, false, "minimum"},
	{`{"ex_min":-0}`, false, "exclusiveMinimum"},
	{`{"ex_min":0}`, false, "exclusiveMinimum"},
	{`{"ex_min":1e-400}`, true, ""},
	{`{"imin0":-0}`, true, ""},
	{`{"cents":0.01}`, true, ""},
	{`{"cents":0.07}`, true, ""},
	{`{"cents":19.99}`, true, ""},
	{`{"cents":1e300}`, true, ""},
	{`{"cents":-5}`, true, ""},
	{`{"cents":0.000000000001}`, false, "multipleOf"},
	{`{"cents":999999.999999999999}`, false, "multipleOf"},
	{`{"cents":999999.99}`, true, ""},
	{`{"cents":0.015}`, false, "multipleOf"},
	{`{"step":3e-20}`, true, ""},
	{`{"step":1}`, true, ""},
	{`{"step":1e-21}`, false, "multipleOf"},
	{`{"whole":5000}`, true, ""},
	{`{"whole":5e3}`, true, ""},
	{`{"whole":5001}`, false, "multipleOf"},
	{`{"raw":{"a":1e400}}`, true, ""},
	{`{"any":[1e400,-0,1e-400]}`, true, ""},
	{`{"pick":0.1}`, true, ""},
	{`{"pick":1e-1}`, true, ""},
	{`{"pick":0.10000000000000001}`, false, "enum"},
	{`{"pick":2.0}`, true, ""},
}

func TestExactNumbers(t *testing.T) {
	p, err := PlanFor(tf[numberArgs](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := compileSchema(t, "numbers", p.SchemaJSON)
	for _, c := range numberCases {
		v := judge(t, p, s, []byte(c.doc))
		if (v.schemaErr == nil) != (c.ok || c.rule == "range") { // float64's range is not published
			t.Errorf("%s: the reference validator says %v, the case %v", c.doc, v.schemaErr, c.ok)
		}
		if c.ok {
			if v.decodeErr != nil {
				t.Errorf("%s: %v", c.doc, v.decodeErr)
			}
			continue
		}
		vs := violations(v.decodeErr)
		if len(vs) != 1 || vs[0].Rule != c.rule {
			t.Errorf("%s: want one %s violation, got %v", c.doc, c.rule, v.decodeErr)
		}
	}
}

// The value stored is the Go type's nearest value to the number sent.
func TestNumbersStored(t *testing.T) {
	got := mustDecode[numberArgs](t, `{"i":1.5e1,"u":18446744073709551615,"u8":2.55e2,"f":1e-400,"f32":0.1,"min0":-0,"cents":19.99,"raw":{"a":1e400}}`)
	if got.I != 15 || got.U != math.MaxUint64 || got.U8 != 255 || got.F != 0 || got.F32 != float32(0.1) || got.Cents != 19.99 || string(got.Raw) != `{"a":1e400}` {
		t.Errorf("got %+v", got)
	}
	if !math.Signbit(got.Min0) {
		t.Errorf("-0 lost its sign: %v", got.Min0)
	}
}

// A huge exponent costs no more than a short number.
func TestHugeExponents(t *testing.T) {
	p, err := PlanFor(tf[numberArgs](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, doc := range []string{`{"cents":1e999999999999}`, `{"cents":1e-999999999999}`, `{"step":1e99999999999999999999}`,
		`{"i":1e999999999999}`, `{"whole":1e-999999999999}`, `{"pick":1e999999999}`} {
		_, err := p.DecodeValue([]byte(doc))
		if err == nil {
			t.Errorf("%s: accepted", doc)
		}
	}
	// The full validator (here: a JSONSchema() type) is given no number
	// beyond its exponent limit.
	pc, err := PlanFor(tf[ZooCustom](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = pc.DecodeValue([]byte(`{"fg":"#000000","range":[1e1000001,0e-20000]}`))
	wantViolations(t, err,
		Violation{Path: "range[0]", Rule: "type", Msg: `must be a number with a decimal exponent within ±10000, got "1e1000001"`},
		Violation{Path: "range[1]", Rule: "type", Msg: `must be a number with a decimal exponent within ±10000, got "0e-20000"`})
	if _, err := pc.DecodeValue([]byte(`{"fg":"#000000","range":[1e9999,1]}`)); err == nil {
		t.Error("1e9999 is accepted as an int64")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestParseDec(t *testing.T) {
	for _, c := range []struct {
		a, b string
		cmp  int
	}{
		{"0", "-0", 0}, {"0.0", "0e10", 0}, {"1", "1.0", 0}, {"1", "1e0", 0}, {"10", "1e1", 0}, {"0.01", "1e-2", 0},
		{"-1", "1", -1}, {"-2", "-1", -1}, {"0.5", "1", -1}, {"99", "100", -1}, {"1e-400", "0", 1}, {"-1e-400", "0", -1},
		{"1.7976931348623157e308", "1.7976931348623158e308", -1}, {"123.456", "12345.6e-2", 0}, {"1e99999999999999999999", "1e400", 1},
	} {
		if got := cmpDec(parseDec([]byte(c.a)), parseDec([]byte(c.b))); got != c.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.a, c.b, got, c.cmp)
		}
		if got := cmpDec(parseDec([]byte(c.b)), parseDec([]byte(c.a))); got != -c.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.b, c.a, got, -c.cmp)
		}
	}
}

// A leap second is a valid date-time string, but no time.Time.
func TestLeapSecond(t *testing.T) {
	type args struct {
		S  string    `json:"s,omitempty" jsonschema:"format=date-time"`
		C  string    `json:"c,omitempty" jsonschema:"format=time"`
		At time.Time `json:"at,omitzero"`
	}
	got := mustDecode[args](t, `{"s":"2016-12-31T15:59:60-08:00","c":"23:59:60Z"}`)
	if got.S != "2016-12-31T15:59:60-08:00" || got.C != "23:59:60Z" {
		t.Errorf("got %+v", got)
	}
	for _, doc := range []string{`{"s":"2016-12-31T23:58:60Z"}`, `{"c":"22:59:60Z"}`} {
		if _, err := decodeInto[args](t, doc); err == nil {
			t.Errorf("%s: a leap second not at 23:59 UTC is accepted", doc)
		}
	}
	_, err := decodeInto[args](t, `{"at":"2016-12-31T23:59:60Z"}`)
	wantViolations(t, err, Violation{Path: "at", Rule: "format", Msg: "must be a valid date-time"})
}

// The uint64 fast path of multipleOf and the exact one agree.
func TestMultipleOfFastPath(t *testing.T) {
	steps := []string{"0.01", "0.25", "5", "1e-20", "0.3", "7e2", "1.5", "0.0625", "3"}
	vals := []string{"0", "-0", "0.01", "19.99", "0.015", "1e300", "1e-300", "999999.999999999999", "0.000000000001",
		"1.75", "3", "700", "7e2", "2100", "-4.5", "0.9", "0.125", "1234567890123456789", "12345678901234567890123", "0.1875", "6e-20"}
	for _, st := range steps {
		m, ok := newBound(st)
		if !ok || !m.short {
			t.Fatalf("%s: no short form", st)
		}
		for _, x := range vals {
			v := numVal{lit: []byte(x)}
			got := v.multipleOf(&m, 0, false)
			want := isMultiple(parseDec([]byte(x)), m.dec)
			if got != want {
				t.Errorf("%s multipleOf %s: fast %v, exact %v", x, st, got, want)
			}
		}
	}
}

// TestUntypedBigNumbers checks that a number beyond float64's range, nested
// in a value the schema leaves untyped, is taken as sent (a json.Number)
// while every other number is the float64 encoding/json gives.
func TestUntypedBigNumbers(t *testing.T) {
	type args struct {
		M   map[string]any `json:"m,omitempty"`
		A   []any          `json:"a,omitempty"`
		Obj any            `json:"obj,omitempty" jsonschema:"type=object"`
	}
	p, err := DefaultCache().Plan(reflect.TypeFor[args](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var in args
	doc := `{"m":{"big":[1e400,2.5],"small":1e-400},"a":[-1e400,{"x":3}],"obj":{"k":{"deep":[[1E+999]]},"n":7}}`
	if err := p.Decode([]byte(doc), &in, 0); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(in)
	want := `{"m":{"big":[1e400,2.5],"small":0},"a":[-1e400,{"x":3}],"obj":{"k":{"deep":[[1E+999]]},"n":7}}`
	if string(got) != want {
		t.Errorf("decoded\n%s\nwant\n%s", got, want)
	}
	if _, ok := in.M["big"].([]any)[0].(json.Number); !ok {
		t.Errorf("1e400 is a %T, want json.Number", in.M["big"].([]any)[0])
	}
	if _, ok := in.M["big"].([]any)[1].(float64); !ok {
		t.Errorf("2.5 is a %T, want float64", in.M["big"].([]any)[1])
	}
	if _, ok := in.Obj.(map[string]any)["n"].(float64); !ok {
		t.Errorf("7 is a %T, want float64", in.Obj.(map[string]any)["n"])
	}
	// Still refused: what the schema refuses, and what is not JSON.
	for _, bad := range []string{`{"obj":[1e400]}`, `{"m":{"x":1e400`} {
		if err := p.Decode([]byte(bad), &in, 0); err == nil {
			t.Errorf("Decode(%s) = nil, want an error", bad)
		}
	}
}
