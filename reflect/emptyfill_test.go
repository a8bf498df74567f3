package mcpreflect

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// oracleJSON is how results were marshaled before emptyfill.go: json/v2
// with encoding/json's options, but nil slices and maps as [] and {}.
var oracleJSON = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(),
	jsonv2.FormatNilSliceAsNull(false), jsonv2.FormatNilMapAsNull(false))

type (
	efLeaf struct {
		Tags []string `json:"tags"`
		N    int      `json:"n"`
	}
	EfExported struct {
		Items []int          `json:"items"`
		Attrs map[string]int `json:"attrs,omitempty"`
	}
	efHidden struct {
		Hidden []string `json:"hidden"`
		Deep   *efLeaf
	}
	efEmbeds struct {
		EfExported
		efHidden
		*efLeaf
		Own []string `json:"own"`
	}
	efTaggedEmbed struct {
		EfExported `json:"ex,omitzero"`
		efHidden   `json:"hid"`
	}
	// efEmbedOpts: an embedded struct without a name is not a field, and
	// encoding/json does not read its options.
	efEmbedOpts struct {
		EfExported `json:",omitzero"`
		*efLeaf    `json:",omitempty"`
		X          int `json:"x"`
	}
	efConflict struct {
		EfExported
		Items []string `json:"items"` // shadows the embedded one
	}
	efTree struct {
		Name     string             `json:"name"`
		Children []*efTree          `json:"children"`
		Index    map[string]*efTree `json:"index,omitempty"`
		Parent   *efTree            `json:"-"`
	}
	efOmit struct {
		A []int            `json:"a,omitempty"`
		B map[string]int   `json:"b,omitzero"`
		C efLeaf           `json:"c,omitzero"`
		D *efLeaf          `json:"d,omitzero"`
		E efZeroVal        `json:"e,omitzero"`
		F efZeroPtr        `json:"f,omitzero"`
		G *efZeroVal       `json:"g,omitzero"`
		H any              `json:"h,omitempty"`
		I [2][]int         `json:"i,omitzero"`
		J []int            `json:"j,omitzero"`
		K [0][]int         `json:"k,omitempty"`
		L fmt.Stringer     `json:"l,omitzero"`
		M map[string][]int `json:"m,omitempty"`
	}
	// efZeroVal is zero when L is nil (a value-receiver IsZero).
	efZeroVal struct{ L []int }
	// efZeroPtr is zero when its list is empty (a pointer-receiver IsZero).
	efZeroPtr struct{ L []int }

	efMarshalVal  []int              // MarshalJSON on the value: nil is its own "null"
	efMarshalPtr  struct{ L []int }  // MarshalJSON on the pointer
	efMarshalBox  struct{ L []int }  // MarshalJSON on the value
	efText        struct{ L []int }  // MarshalText on the value
	efTextPtr     []string           // MarshalText on the pointer
	efKey         struct{ A, B int } // a TextMarshaler map key
	efBytes       []byte
	efIntKeyed    map[int][]string
	efStringer    struct{ L []int }
	efMarshalOwns struct {
		Val  efMarshalVal            `json:"val"`
		Ptr  efMarshalPtr            `json:"ptr"`
		Ptrs []efMarshalPtr          `json:"ptrs"`
		PP   *efMarshalPtr           `json:"pp"`
		Txt  efText                  `json:"txt"`
		TxtP efTextPtr               `json:"txtp"`
		TxtS []efTextPtr             `json:"txts"`
		Keys map[efKey][]int         `json:"keys"`
		Raw  json.RawMessage         `json:"raw"`
		Byt  []byte                  `json:"byt"`
		Own  efBytes                 `json:"own"`
		Ints efIntKeyed              `json:"ints"`
		MPtr map[string]efMarshalPtr `json:"mptr"` // not addressable: encoded field by field
	}
	efQuoted struct {
		N int    `json:"n,string"`
		S string `json:"s,string"`
		P *int   `json:"p,string"`
		//lint:ignore SA5008 encoding/json ignores the option on a slice: so must the emptier
		L   []int         `json:"l,string"`
		F   float64       `json:"f"`
		F32 float32       `json:"f32"`
		U   uint8         `json:"u"`
		B   bool          `json:"b,omitempty"`
		T   time.Time     `json:"t"`
		A   netip.Addr    `json:"a"`
		D   time.Duration `json:"d"`
	}
	efIfaces struct {
		Any   any            `json:"any"`
		Anys  []any          `json:"anys"`
		ByKey map[string]any `json:"byKey"`
		Str   fmt.Stringer   `json:"str"`
		Mar   json.Marshaler `json:"mar"`
		PAny  *any           `json:"pany"`
	}
	efContainers struct {
		PS    *[]int                      `json:"ps"`
		PPS   **[]string                  `json:"pps"`
		PM    *map[string]int             `json:"pm"`
		Arr   [2][]int                    `json:"arr"`
		ArrS  [2]efLeaf                   `json:"arrs"`
		Deep  map[string]map[int][]string `json:"deep"`
		Mat   [][]int                     `json:"mat"`
		Leafs []efLeaf                    `json:"leafs"`
		PLeaf []*efLeaf                   `json:"pleaf"`
		MLeaf map[string]efLeaf           `json:"mleaf"`
		Keyed map[efKey]int               `json:"keyed"`
		UKey  map[uint16][]int            `json:"ukey"`
		Funcs []efLeaf                    `json:"-"`
		//lint:ignore U1000 an unexported field is not encoded: not copied either
		priv []int
	}
	efFlat struct {
		ID    string  `json:"id"`
		Title string  `json:"title"`
		Score float64 `json:"score"`
		Ptr   *int    `json:"ptr"`
	}
)

func (z efZeroVal) IsZero() bool  { return z.L == nil }
func (z *efZeroPtr) IsZero() bool { return len(z.L) == 0 }

func (m efMarshalVal) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte(" null "), nil
	}
	return json.Marshal([]int(m))
}

func (m *efMarshalPtr) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	return []byte(fmt.Sprintf(`{ "len" : %d }`, len(m.L))), nil
}

func (m efMarshalBox) MarshalJSON() ([]byte, error) { return json.Marshal(m.L) }

func (m efText) MarshalText() ([]byte, error) {
	return []byte(fmt.Sprint("text", len(m.L), m.L == nil)), nil
}

func (m *efTextPtr) MarshalText() ([]byte, error) {
	return []byte(strings.Join(*m, "+") + fmt.Sprint(*m == nil)), nil
}

func (k efKey) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%d/%d", k.A, k.B)), nil }

func (s efStringer) String() string { return "s" }

// efTypes are the types the differential test marshals, both as values and
// behind a pointer.
var efTypes = []reflect.Type{
	reflect.TypeFor[efLeaf](), reflect.TypeFor[efEmbeds](), reflect.TypeFor[efTaggedEmbed](),
	reflect.TypeFor[efConflict](), reflect.TypeFor[efEmbedOpts](), reflect.TypeFor[docInline](), reflect.TypeFor[efTree](), reflect.TypeFor[efOmit](),
	reflect.TypeFor[efMarshalOwns](), reflect.TypeFor[efQuoted](), reflect.TypeFor[efIfaces](),
	reflect.TypeFor[efContainers](), reflect.TypeFor[efFlat](), reflect.TypeFor[nilResult](),
	reflect.TypeFor[[]efLeaf](), reflect.TypeFor[map[string][]int](), reflect.TypeFor[[][]string](),
	reflect.TypeFor[[]byte](), reflect.TypeFor[efMarshalVal](), reflect.TypeFor[efMarshalPtr](),
	reflect.TypeFor[[]efMarshalPtr](), reflect.TypeFor[efTextPtr](), reflect.TypeFor[[3]*[]int](),
	reflect.TypeFor[efIntKeyed](), reflect.TypeFor[map[efKey]efLeaf](), reflect.TypeFor[[]any](),
	reflect.TypeFor[map[string]any](), reflect.TypeFor[*[]int](), reflect.TypeFor[int](),
	reflect.TypeFor[string](), reflect.TypeFor[[]float64](),
}

// TestEmptyFillMatchesJSONv2 is the differential test of marshalEmpty
// (encoding/json, nil slices and maps made empty first) against what
// results were marshaled with before (json/v2 with encoding/json's
// options and FormatNilSliceAsNull(false), FormatNilMapAsNull(false)):
// random values of many types, with nil, empty and full slices, maps,
// pointers and interfaces at every depth, byte for byte. The values are
// not changed by it.
func TestEmptyFillMatchesJSONv2(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, typ := range efTypes {
		for _, top := range []reflect.Type{typ, reflect.PointerTo(typ)} {
			e := emptierFor(top, false)
			for i := range 300 {
				v := efRandom(rnd, top, 0)
				before, _ := json.Marshal(v.Interface())
				want, panicked, werr := efOracle(v.Interface())
				if panicked != nil {
					t.Fatalf("%s #%d: json/v2 panics: %v\n%#v", top, i, panicked, v.Interface())
				}
				got, gerr := marshalEmpty(e, v.Interface())
				if (werr != nil) != (gerr != nil) {
					t.Fatalf("%s #%d: error %v, json/v2's %v", top, i, gerr, werr)
				}
				if string(got) != string(want) {
					t.Fatalf("%s #%d:\n got %s\nwant %s", top, i, got, want)
				}
				if after, _ := json.Marshal(v.Interface()); string(after) != string(before) {
					t.Fatalf("%s #%d: the value was changed:\n%s\n%s", top, i, before, after)
				}
			}
		}
	}
}

func efOracle(v any) (b []byte, panicked any, err error) {
	defer func() { panicked = recover() }()
	b, err = jsonv2.Marshal(v, oracleJSON)
	return b, nil, err
}

// efStrings has what encoding/json escapes. Not invalid UTF-8: see
// TestEmptyFillInvalidUTF8.
var efStrings = []string{"", "a", "<a&b>", "\u2028\u2029", "\x00\x1f\b\f\n\r\t\"\\", "é😀", "\U0001F600", "\uFFFD", "z"}

var efFloats = []float64{0, math.Copysign(0, -1), 1, -1.5, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1, 1.0 / 3}

// efRandom returns a random value of t: at depth 0 to 5, nil slices, maps,
// pointers and interfaces as often as empty and full ones.
func efRandom(rnd *rand.Rand, t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	deep := depth > 4
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(rnd.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t == reflect.TypeFor[time.Duration]() {
			v.SetInt(rnd.Int64N(1e12))
		} else {
			v.SetInt(int64(rnd.IntN(300) - 150))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(rnd.IntN(256)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(efFloats[rnd.IntN(len(efFloats))])
	case reflect.String:
		v.SetString(efStrings[rnd.IntN(len(efStrings))])
	case reflect.Slice:
		switch n := rnd.IntN(4); {
		case n == 0 || deep:
		case n == 1:
			v.Set(reflect.MakeSlice(t, 0, 0))
		default:
			s := reflect.MakeSlice(t, n-1, n-1)
			for i := range n - 1 {
				s.Index(i).Set(efRandom(rnd, t.Elem(), depth+1))
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range t.Len() {
			v.Index(i).Set(efRandom(rnd, t.Elem(), depth+1))
		}
	case reflect.Map:
		switch n := rnd.IntN(4); {
		case n == 0 || deep:
		case n == 1:
			v.Set(reflect.MakeMap(t))
		default:
			m := reflect.MakeMap(t)
			for range n {
				m.SetMapIndex(efRandom(rnd, t.Key(), depth+1), efRandom(rnd, t.Elem(), depth+1))
			}
			v.Set(m)
		}
	case reflect.Pointer:
		if rnd.IntN(3) > 0 && !deep {
			p := reflect.New(t.Elem())
			p.Elem().Set(efRandom(rnd, t.Elem(), depth+1))
			v.Set(p)
		}
	case reflect.Interface:
		if deep {
			break
		}
		var choices []reflect.Type
		switch {
		case t == reflect.TypeFor[fmt.Stringer]():
			choices = []reflect.Type{reflect.TypeFor[efStringer](), reflect.TypeFor[*efStringer]()}
		case t == reflect.TypeFor[json.Marshaler]():
			// Not *efMarshalPtr: see TestEmptyFillNilMarshaler.
			choices = []reflect.Type{reflect.TypeFor[efMarshalVal](), reflect.TypeFor[efMarshalBox]()}
		default:
			choices = []reflect.Type{reflect.TypeFor[[]int](), reflect.TypeFor[map[string][]string](),
				reflect.TypeFor[efLeaf](), reflect.TypeFor[*efLeaf](), reflect.TypeFor[float64](),
				reflect.TypeFor[[]any](), reflect.TypeFor[efMarshalPtr](), reflect.TypeFor[*efMarshalPtr](),
				reflect.TypeFor[efTextPtr](), reflect.TypeFor[*[]int](), reflect.TypeFor[string]()}
		}
		if n := rnd.IntN(len(choices) + 1); n < len(choices) {
			v.Set(efRandom(rnd, choices[n], depth+1))
		}
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(rnd.Int64N(1e10), rnd.Int64N(1e9)).UTC()))
			break
		}
		if t == reflect.TypeFor[netip.Addr]() {
			if rnd.IntN(2) == 0 {
				v.Set(reflect.ValueOf(netip.MustParseAddr("2001:db8::1")))
			}
			break
		}
		for i := range t.NumField() {
			f := v.Field(i)
			if !f.CanSet() {
				f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem()
			}
			f.Set(efRandom(rnd, t.Field(i).Type, depth+1))
		}
	}
	return v
}

// TestEmptyFillCostsNothingWithoutContainers: a type with no slice, map or
// interface to encode has no emptier; one whose slices are all set is
// marshaled without a copy.
func TestEmptyFillCostsNothingWithoutContainers(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeFor[efFlat](), reflect.TypeFor[*efFlat](), reflect.TypeFor[*efMarshalPtr](),
		reflect.TypeFor[json.RawMessage](), reflect.TypeFor[efMarshalVal](), reflect.TypeFor[[0][]int](),
		reflect.TypeFor[struct {
			L []int `json:"-"`
			m map[string]int
		}](),
	} {
		if e := emptierFor(typ, false); e != nil {
			t.Errorf("%s has an emptier", typ)
		}
	}
	if emptierFor(reflect.TypeFor[[]efMarshalPtr](), false).elem != nil {
		t.Error("the elements of []efMarshalPtr marshal themselves: nothing below them is changed")
	}
	if emptierFor(reflect.TypeFor[efMarshalPtr](), false) == nil {
		t.Error("an efMarshalPtr that is not addressable is encoded field by field: its nil L is changed")
	}

	full := efContainers{Mat: [][]int{{1}}, Leafs: []efLeaf{{Tags: []string{"a"}}}}
	e := emptierFor(reflect.TypeFor[*efContainers](), false)
	var w emptyWalk
	if !e.needs(reflect.ValueOf(&full), &w) {
		t.Fatal("nil fields not found")
	}
	leafs := efLeafList{{Tags: []string{"a"}}, {Tags: []string{}}}
	e, rv := emptierFor(reflect.TypeFor[efLeafList](), false), reflect.ValueOf(leafs)
	allocs := testing.AllocsPerRun(100, func() {
		var w emptyWalk
		if e.needs(rv, &w) {
			t.Fatal("nothing is nil")
		}
	})
	if allocs != 0 {
		t.Errorf("the walk of a value with nothing nil: %v allocations", allocs)
	}
}

type efLeafList []efLeaf

// TestEmptyFillNilMarshaler pins a difference from json/v2: a nil pointer
// in an interface field of type json.Marshaler is encoding/json's (the
// pointer's MarshalJSON, here null); json/v2 v1.27.2 panics on it.
func TestEmptyFillNilMarshaler(t *testing.T) {
	v := efIfaces{Mar: (*efMarshalPtr)(nil)}
	got, err := marshalEmpty(emptierFor(reflect.TypeFor[efIfaces](), false), v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"any":null,"anys":[],"byKey":{},"str":null,"mar":null,"pany":null}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, panicked, _ := efOracle(v); panicked == nil {
		t.Log("json/v2 no longer panics on a nil pointer in a json.Marshaler interface")
	}
}

// efMarshalTo has json/v2's method only.
type efMarshalTo struct {
	L []int `json:"l"`
}

func (efMarshalTo) MarshalJSONTo(enc *jsontext.Encoder) error {
	return enc.WriteToken(jsontext.String("v2"))
}

// TestEmptyFillNoMarshalJSONTo pins a difference from json/v2: its
// MarshalJSONTo method is not encoding/json's, so it is not called.
func TestEmptyFillNoMarshalJSONTo(t *testing.T) {
	v := efMarshalTo{}
	got, err := marshalEmpty(emptierFor(reflect.TypeFor[efMarshalTo](), false), v)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := jsonv2.Marshal(v, oracleJSON)
	if string(got) != `{"l":[]}` || string(old) != `"v2"` {
		t.Errorf("got %s, json/v2 %s", got, old)
	}
}

// TestEmptyFillInvalidUTF8 pins the other difference from json/v2 found:
// encoding/json writes a byte of invalid UTF-8 as \ufffd, json/v2 as the
// character U+FFFD itself. Both are the same string.
func TestEmptyFillInvalidUTF8(t *testing.T) {
	v := efLeaf{Tags: []string{"a\xffb"}}
	got, err := marshalEmpty(emptierFor(reflect.TypeFor[efLeaf](), false), v)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := jsonv2.Marshal(v, oracleJSON)
	if string(got) != `{"tags":["a\ufffdb"],"n":0}` || string(old) != "{\"tags\":[\"a\uFFFDb\"],\"n\":0}" {
		t.Errorf("got %s, json/v2 %s", got, old)
	}
	var a, b efLeaf
	if json.Unmarshal(got, &a) != nil || json.Unmarshal(old, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("%s and %s differ", got, old)
	}
}

// TestEmptyFillCycle: a cycle through pointers is encoding/json's error,
// not a walk without end.
func TestEmptyFillCycle(t *testing.T) {
	a := &efTree{Name: "a"}
	a.Children = []*efTree{a, a}
	a.Index = map[string]*efTree{"self": a}
	_, err := marshalEmpty(emptierFor(reflect.TypeFor[*efTree](), false), a)
	var unsupported *json.UnsupportedValueError
	if !errors.As(err, &unsupported) {
		t.Fatalf("a cycle: %v, want encoding/json's UnsupportedValueError", err)
	}
}

// TestEmptyFillDeep: a chain longer than encoding/json's cycle-detection
// depth, with a nil slice at its end, is filled all the way down.
func TestEmptyFillDeep(t *testing.T) {
	root := &efTree{Name: "0"}
	n := root
	for i := range 1500 {
		c := &efTree{Name: fmt.Sprint(i + 1)}
		n.Children = []*efTree{c}
		n = c
	}
	got, err := marshalEmpty(emptierFor(reflect.TypeFor[*efTree](), false), root)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(got), `{"name":"1500","children":[]}`+strings.Repeat("]}", 1500)) {
		t.Errorf("the deepest node: …%s", got[len(got)-100:])
	}
	if n.Children != nil {
		t.Error("the value was changed")
	}
}
