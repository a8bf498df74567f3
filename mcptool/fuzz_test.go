package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Fuzz targets of the call path: argument decoding (FuzzCallArguments) and
// result marshalling (FuzzResultMarshal). Seeds are in testdata/fuzz and in
// the f.Add calls; run one with
//
//	go test -run '^$' -fuzz '^FuzzCallArguments$' -fuzztime 60s ./mcptool

// --- the argument zoo

type fzScalars struct {
	Name  string  `json:"name"`
	Flag  bool    `json:"flag"`
	Count int     `json:"count"`
	Big   int64   `json:"big,omitempty"`
	Small int8    `json:"small,omitempty"`
	Size  uint16  `json:"size,omitempty"`
	Ratio float64 `json:"ratio,omitempty"`
	Tiny  float32 `json:"tiny,omitempty"`
}

type fzFilter struct {
	Field string `json:"field" validate:"oneof=title body author"`
	From  int    `json:"from" validate:"gte=0"`
	To    int    `json:"to,omitempty" validate:"omitempty,gtefield=From"`
}

type fzPage struct {
	Size   int    `json:"size,omitempty" validate:"omitempty,min=1,max=100"`
	Cursor string `json:"cursor,omitempty" validate:"omitempty,max=16"`
}

type fzSearch struct {
	Query   string     `json:"query" validate:"required,min=1,max=64"`
	Filters []fzFilter `json:"filters,omitempty" validate:"max=5,dive"`
	Page    fzPage     `json:"page,omitzero"`
	Tags    []string   `json:"tags,omitempty" validate:"omitempty,max=4,unique"`
}

type fzMaps struct {
	Labels map[string]string   `json:"labels,omitempty" validate:"omitempty,max=6"`
	ByID   map[int]string      `json:"by_id,omitempty"`
	Ports  map[uint16]bool     `json:"ports,omitempty"`
	Groups map[string][]string `json:"groups,omitempty"`
}

type fzPoint struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type fzPointers struct {
	S  *string    `json:"s,omitempty"`
	N  *int       `json:"n,omitempty" validate:"omitempty,min=1"`
	P  *fzPoint   `json:"p,omitempty"`
	Ps []*fzPoint `json:"ps,omitempty"`
}

type fzSpecial struct {
	When  time.Time       `json:"when,omitzero"`
	Blob  []byte          `json:"blob,omitempty"`
	Raw   json.RawMessage `json:"raw,omitempty"`
	Any   any             `json:"any,omitempty" jsonschema:"type=array"`
	Three [3]int          `json:"three,omitzero"`
}

type fzNode struct {
	Name     string   `json:"name"`
	Children []fzNode `json:"children,omitempty"`
}

type fzTree struct {
	Root fzNode `json:"root"`
}

type fzBounds struct {
	Level  int     `json:"level,omitempty" jsonschema:"default=3" validate:"omitempty,min=1,max=5"`
	Code   string  `json:"code,omitempty" validate:"omitempty,len=3,alphanum"`
	Email  string  `json:"email,omitempty" validate:"omitempty,email"`
	Mode   string  `json:"mode,omitempty" jsonschema:"enum=fast,enum=slow"`
	Weight float64 `json:"weight,omitempty" validate:"omitempty,gt=0,lte=10"`
}

type fzShallow struct {
	_    struct{} `mcp:"maxDepth=3"`
	Data any      `json:"data,omitempty" jsonschema:"type=object"`
}

// fzTool is one tool of the zoo; agree marks those whose decoding must agree
// with encoding/json wherever both accept the input (no defaults, no types
// whose text forms the two parse differently).
type fzTool struct {
	name  string
	agree reflect.Type
}

var fzZoo = []fzTool{
	{"scalars", reflect.TypeFor[fzScalars]()},
	{"search", reflect.TypeFor[fzSearch]()},
	{"maps", reflect.TypeFor[fzMaps]()},
	{"pointers", reflect.TypeFor[fzPointers]()},
	{"special", nil},
	{"tree", reflect.TypeFor[fzTree]()},
	{"bounds", nil},
	{"shallow", nil},
	{"none", nil},
	{"generic", reflect.TypeFor[fzScalars]()},
	{"generic_ptr", reflect.TypeFor[fzSearch]()},
}

// fzLogFail is a slog handler that records error-level logs: the registry
// logs internal errors and panics there, and the fuzzer must find none.
type fzLogFail struct {
	mu   sync.Mutex
	msgs []string
}

func (h *fzLogFail) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (h *fzLogFail) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.String())
		return true
	})
	h.msgs = append(h.msgs, b.String())
	return nil
}
func (h *fzLogFail) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *fzLogFail) WithGroup(string) slog.Handler      { return h }

func (h *fzLogFail) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.msgs
	h.msgs = nil
	return m
}

func fzRegistry(tb testing.TB) (*mcptool.Registry, *fzLogFail) {
	tb.Helper()
	logs := &fzLogFail{}
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(logs)))
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(reg.Add("scalars", func(in fzScalars) (fzScalars, error) { return in, nil }))
	must(reg.Add("search", func(_ context.Context, in fzSearch) (fzSearch, error) { return in, nil }))
	must(reg.Add("maps", func(in *fzMaps) (*fzMaps, error) { return in, nil }))
	must(reg.Add("pointers", func(in fzPointers) (fzPointers, error) { return in, nil }))
	must(reg.Add("special", func(in fzSpecial) (fzSpecial, error) { return in, nil }))
	must(reg.Add("tree", func(in fzTree) (fzTree, error) { return in, nil }))
	must(reg.Add("bounds", func(in fzBounds) (fzBounds, error) { return in, nil }))
	must(reg.Add("shallow", func(in fzShallow) (fzShallow, error) { return in, nil }))
	must(reg.Add("none", func() (string, error) { return "ok", nil }))
	must(mcptool.Add(reg, "generic", func(_ context.Context, in fzScalars) (fzScalars, error) { return in, nil }))
	must(mcptool.Add(reg, "generic_ptr", func(_ context.Context, in *fzSearch) (*fzSearch, error) { return in, nil }))
	return reg, logs
}

func FuzzCallArguments(f *testing.F) {
	for i, seed := range []string{
		`{"name":"a","flag":true,"count":3,"big":-9007199254740993,"small":-128,"size":65535,"ratio":1.5e-300,"tiny":3.4e38}`,
		`{"query":"go","filters":[{"field":"title","from":1,"to":2}],"page":{"size":10,"cursor":"x"},"tags":["a","b"]}`,
		`{"labels":{"__proto__":"x"},"by_id":{"-1":"a","42":"b"},"ports":{"65535":true},"groups":{"g":["a"]}}`,
		`{"s":"x","n":1,"p":{"x":1,"y":2},"ps":[{"x":3,"y":4}]}`,
		`{"when":"2024-02-29T12:00:00Z","blob":"aGVsbG8=","raw":{"a":[1,2]},"any":[null,{"b":"\u00e9"}],"three":[1,2,3]}`,
		`{"root":{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}}`,
		`{"level":5,"code":"ab1","email":"a@b.co","mode":"fast","weight":10}`,
		`{"data":{"a":{"b":{"c":1}}}}`,
		``,
		`null`,
		`{"count":1.0,"big":1e3}`,
		`{"query":"go","tags":["a","a"]}`,
	} {
		f.Add(uint8(i%len(fzZoo)), []byte(seed))
	}
	for _, hostile := range []string{
		"{\"name\":\"\xff\"}", `{"name":"a","name":"b"}`, `{"count":NaN}`, `{"count":1e400}`, `{"a":1} x`,
		`[` + strings.Repeat("[", 100), `{"root":` + strings.Repeat(`{"name":"x","children":[`, 40) + `]}`, `{"\u006eame":"x"}`,
		`{"labels":{"k":"1","k":"2"}}`, `{"s":null}`, "\xef\xbb\xbf{}", `{"size":-1}`, `{"blob":"not base64"}`,
	} {
		for i := range fzZoo {
			f.Add(uint8(i), []byte(hostile))
		}
	}
	reg, logs := fzRegistry(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tool := fzZoo[int(which)%len(fzZoo)]
		res, err := reg.Call(context.Background(), tool.name, data)
		if msgs := logs.take(); len(msgs) > 0 {
			t.Fatalf("%s %q: internal error logged: %v", tool.name, data, msgs)
		}
		valid := len(bytes.Trim(data, " \t\r\n")) == 0 || json.Valid(data) // empty or JSON whitespace: no arguments
		if err != nil {
			var e *mcptool.Error
			if !errors.As(err, &e) || e.Code != mcptool.CodeMalformedArguments {
				t.Fatalf("%s %q: a protocol error that is not CodeMalformedArguments: %T %v", tool.name, data, err, err)
			}
			if res != nil {
				t.Fatalf("%s %q: both a result and an error", tool.name, data)
			}
			if e.JSONRPC().Code != -32602 {
				t.Fatalf("JSON-RPC code %d", e.JSONRPC().Code)
			}
			if valid {
				t.Fatalf("%s %q: json.Valid accepts it, the decoder calls it malformed: %v", tool.name, data, err)
			}
			return
		}
		if res == nil || len(res.Content) == 0 {
			t.Fatalf("%s %q: a result without content: %+v", tool.name, data, res)
		}
		tc, ok := res.Content[0].(*mcp.TextContent)
		if !ok {
			t.Fatalf("%s: content %T", tool.name, res.Content[0])
		}
		if strings.HasPrefix(tc.Text, "internal error") {
			t.Fatalf("%s %q: %s", tool.name, data, tc.Text)
		}
		if !valid {
			// Not JSON, and yet no protocol error: only because the size
			// limit refused the arguments before they were read.
			if !res.IsError || !strings.Contains(tc.Text, "more than the") {
				t.Fatalf("%s %q: json.Valid rejects it, and the call gave isError=%v %q", tool.name, data, res.IsError, tc.Text)
			}
			return
		}
		if res.IsError {
			if !strings.HasPrefix(tc.Text, "invalid arguments") {
				t.Fatalf("%s %q: an isError result that is not about the arguments: %q", tool.name, data, tc.Text)
			}
			return
		}
		// Success: the echoed value is valid JSON, and structuredContent is
		// exactly the text block.
		if res.StructuredContent != nil {
			raw, ok := res.StructuredContent.(json.RawMessage)
			if !ok || string(raw) != tc.Text || !json.Valid(raw) {
				t.Fatalf("%s: structuredContent %T %q, text %q", tool.name, res.StructuredContent, res.StructuredContent, tc.Text)
			}
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("%s: the result does not marshal: %v", tool.name, err)
		}
		// Where encoding/json accepts the same input, both decoders agree on
		// the value (mcpgen is stricter: duplicate and case-folded keys,
		// nulls for non-pointers, invalid UTF-8 are refused).
		if tool.agree != nil {
			ref := reflect.New(tool.agree)
			in := data
			if len(in) == 0 {
				in = []byte("null")
			}
			if json.Unmarshal(in, ref.Interface()) != nil {
				return
			}
			want, err := json.Marshal(ref.Interface())
			if err != nil {
				t.Fatal(err)
			}
			if !fzJSONEqual(t, want, []byte(tc.Text)) {
				t.Fatalf("%s %q: mcpgen decoded %s, encoding/json %s", tool.name, data, tc.Text, want)
			}
		}
	})
}

func fzJSONEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// --- the result marshaller

type fzRecord struct {
	A string `json:"a"`
	B string `json:"b,omitempty"`
	N int64  `json:"n"`
}

type fzResultKey struct{}

type fzValues struct {
	s1, s2 string
	n      int64
}

func fzFrom(ctx context.Context) fzValues { return ctx.Value(fzResultKey{}).(fzValues) }

// fzValid is what json.Marshal makes of s: every byte of invalid UTF-8
// becomes U+FFFD.
func fzValid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func fzResultRegistry(tb testing.TB) *mcptool.Registry {
	tb.Helper()
	reg := mcptool.NewRegistry(quiet())
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(reg.Add("text", func(ctx context.Context) (string, error) { return fzFrom(ctx).s1, nil }))
	must(reg.Add("record", func(ctx context.Context) (fzRecord, error) {
		v := fzFrom(ctx)
		return fzRecord{A: v.s1, B: v.s2, N: v.n}, nil
	}))
	must(reg.Add("record_ptr", func(ctx context.Context) (*fzRecord, error) {
		v := fzFrom(ctx)
		return &fzRecord{A: v.s2, B: v.s1, N: -v.n}, nil
	}))
	must(reg.Add("list", func(ctx context.Context) ([]string, error) {
		v := fzFrom(ctx)
		if v.n%5 == 0 {
			return nil, nil // a nil slice is sent as []
		}
		return []string{v.s1, v.s2}, nil
	}))
	must(reg.Add("list_text", func(ctx context.Context) ([]string, error) {
		v := fzFrom(ctx)
		return []string{v.s1, v.s2}, nil
	}, mcptool.NoOutputSchema()))
	must(reg.Add("counts", func(ctx context.Context) (map[string]int, error) {
		v := fzFrom(ctx)
		if v.n%7 == 0 {
			return nil, nil // a nil map is sent as {}
		}
		return map[string]int{v.s1: int(v.n), v.s2: int(-v.n)}, nil
	}))
	return reg
}

func FuzzResultMarshal(f *testing.F) {
	for _, s := range []struct {
		s1, s2 string
		n      int64
	}{
		{"hello", "world", 1},
		{"", "", 0},
		{"<script>&amp;</script>", "\u2028\u2029", 35},
		{"\xff\xfe", "\xff", -1},
		{"a\x00b", "\"quoted\"\\", 1 << 62},
		{"é🎉", "\ud7ff", -1 << 63},
		{"same", "same", 7},
		{`{"result":1}`, `]`, 10},
		{"\xed\xa0\x80", "\xc0\xaf", 3},
		{strings.Repeat("x", 1000), "\t\n\r", 2},
		{"\x80", "\x81", 4},
	} {
		f.Add(s.s1, s.s2, s.n)
	}
	reg := fzResultRegistry(f)
	f.Fuzz(func(t *testing.T, s1, s2 string, n int64) {
		ctx := context.WithValue(context.Background(), fzResultKey{}, fzValues{s1, s2, n})
		for _, name := range []string{"text", "record", "record_ptr", "list", "list_text", "counts"} {
			res, err := reg.Call(ctx, name, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res.Content == nil || len(res.Content) != 1 {
				t.Fatalf("%s: content %v", name, res.Content)
			}
			tc, ok := res.Content[0].(*mcp.TextContent)
			if !ok {
				t.Fatalf("%s: content %T", name, res.Content[0])
			}
			if res.IsError {
				t.Fatalf("%s: isError %q", name, tc.Text)
			}
			wire, err := json.Marshal(res)
			if err != nil || !json.Valid(wire) {
				t.Fatalf("%s: the result does not marshal: %v", name, err)
			}
			if name == "text" {
				if tc.Text != s1 || res.StructuredContent != nil {
					t.Fatalf("text: %q, structured %v", tc.Text, res.StructuredContent)
				}
				continue
			}
			if name == "list_text" {
				if res.StructuredContent != nil {
					t.Fatalf("list_text: NoOutputSchema, yet structuredContent %s", res.StructuredContent)
				}
				var got []string
				if err := json.Unmarshal([]byte(tc.Text), &got); err != nil {
					t.Fatalf("list_text: the text is not the list's JSON: %q: %v", tc.Text, err)
				}
				if want := []string{fzValid(s1), fzValid(s2)}; !reflect.DeepEqual(got, want) {
					t.Fatalf("list_text: %q, want %q", got, want)
				}
				continue
			}
			raw, ok := res.StructuredContent.(json.RawMessage)
			if !ok {
				t.Fatalf("%s: structuredContent %T", name, res.StructuredContent)
			}
			if string(raw) != tc.Text {
				t.Fatalf("%s: structuredContent %q and text %q differ", name, raw, tc.Text)
			}
			if !json.Valid(raw) || len(raw) == 0 || raw[0] != '{' {
				t.Fatalf("%s: structuredContent is not a JSON object: %q", name, raw)
			}
			switch name {
			case "record", "record_ptr":
				want := fzRecord{A: fzValid(s1), B: fzValid(s2), N: n}
				if name == "record_ptr" {
					want = fzRecord{A: fzValid(s2), B: fzValid(s1), N: -n}
				}
				var got fzRecord
				if err := json.Unmarshal(raw, &got); err != nil || got != want {
					t.Fatalf("%s: %+v (%v), want %+v", name, got, err, want)
				}
			case "list":
				var got struct{ Result []string }
				if err := json.Unmarshal(raw, &got); err != nil || got.Result == nil {
					t.Fatalf("list: %q: %v", raw, err)
				}
				want := []string{}
				if n%5 != 0 {
					want = []string{fzValid(s1), fzValid(s2)}
				}
				if !reflect.DeepEqual(got.Result, want) {
					t.Fatalf("list: %q, want %q", got.Result, want)
				}
			case "counts":
				var got map[string]int
				if err := json.Unmarshal(raw, &got); err != nil || got == nil {
					t.Fatalf("counts: %q: %v", raw, err)
				}
				want := map[string]int{}
				if n%7 != 0 {
					want[fzValid(s1)] = int(n)
					want[fzValid(s2)] = int(-n)
				}
				if fzValid(s1) == fzValid(s2) && s1 != s2 {
					// Two keys that differ only in invalid UTF-8 marshal to
					// the same JSON key: encoding/json's rule, kept as is.
					return
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("counts: %v, want %v", got, want)
				}
			}
		}
	})
}
