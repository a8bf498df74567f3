package mcpreflect

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
)

// TestDocsTags checks every example of docs/tags.md. An example is a ```go
// block of struct fields, followed by one of:
//
//   - a ```json block: the schemas of those properties (or, when it is an
//     object with "type" and "additionalProperties", the whole input schema;
//     or, for a `_` field with an mcp tag, the tool annotations);
//     optionally followed by a ```json call block of arguments and a ```text
//     block with Decode's error ("ok" when none);
//   - a ```text block: the registration error, with "Args" standing for the
//     argument type.
//
// A ```go block that is not only fields (a type declaration) is not checked.
func TestDocsTags(t *testing.T) {
	raw, err := os.ReadFile("../docs/tags.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := fences(string(raw))
	checked := 0
	for i := 0; i < len(blocks); i++ {
		b := blocks[i]
		if b.info != "go" && b.info != "go fragment" {
			continue
		}
		fields, ok := docFields(t, b)
		if !ok {
			continue
		}
		if i+1 >= len(blocks) || (blocks[i+1].info != "json" && blocks[i+1].info != "text") {
			t.Errorf("line %d: a go example without a json or text block after it", b.line)
			continue
		}
		typ := reflect.StructOf(fields)
		next := blocks[i+1]
		i++
		checked++
		p, err := PlanFor(typ, Options{})
		if next.info == "text" {
			want := strings.TrimSpace(next.body)
			if !strings.HasPrefix(want, "Args") {
				t.Errorf("line %d: an error example must start with Args", next.line)
				continue
			}
			want = typ.String() + strings.TrimPrefix(want, "Args")
			if err == nil {
				t.Errorf("line %d: want the error\n%s\ngot none", next.line, want)
			} else if err.Error() != want {
				t.Errorf("line %d: error\n got: %s\nwant: %s", next.line, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("line %d: %v", b.line, err)
			continue
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(next.body), &want); err != nil {
			t.Errorf("line %d: %v", next.line, err)
			continue
		}
		var got map[string]any
		_ = json.Unmarshal(p.SchemaJSON, &got)
		switch {
		case fields[0].Name == "_":
			a, _ := json.Marshal(toolAnnotations(p.Tool.Hints))
			var ga map[string]any
			_ = json.Unmarshal(a, &ga)
			if !reflect.DeepEqual(ga, want) {
				t.Errorf("line %d: annotations\n got: %s\nwant: %s", next.line, a, compact(next.body))
			}
		case want["type"] == "object" && want["additionalProperties"] != nil:
			if !reflect.DeepEqual(got, want) {
				t.Errorf("line %d: schema\n got: %s\nwant: %s", next.line, p.SchemaJSON, compact(next.body))
			}
		default:
			props, _ := got["properties"].(map[string]any)
			for k, w := range want {
				if !reflect.DeepEqual(props[k], w) {
					g, _ := json.Marshal(props[k])
					wj, _ := json.Marshal(w)
					t.Errorf("line %d: property %q\n got: %s\nwant: %s", next.line, k, g, wj)
				}
			}
			if len(props) != len(want) {
				t.Errorf("line %d: %d properties, the example shows %d: %s", next.line, len(props), len(want), p.SchemaJSON)
			}
		}
		if i+2 < len(blocks) && blocks[i+1].info == "json call" && blocks[i+2].info == "text" {
			call, result := blocks[i+1], blocks[i+2]
			i += 2
			_, err := p.DecodeValue([]byte(call.body))
			got := "ok"
			if err != nil {
				got = err.Error()
			}
			if want := strings.TrimSpace(result.body); got != want {
				t.Errorf("line %d: Decode(%s)\n got: %s\nwant: %s", call.line, compact(call.body), got, want)
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d examples checked", checked)
	}
	t.Logf("%d examples checked", checked)
}

type fence struct {
	info, body string
	line       int
}

func fences(doc string) []fence {
	var out []fence
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		f := fence{info: strings.TrimSpace(strings.TrimPrefix(lines[i], "```")), line: i + 1}
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		f.body = strings.Join(body, "\n")
		out = append(out, f)
	}
	return out
}

func compact(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

var (
	fieldLine    = regexp.MustCompile("^(\\w+)\\s+(\\S+)(?:\\s+`([^`]*)`)?$")
	embeddedLine = regexp.MustCompile(`^\*?[A-Z]\w*$`)
)

// docFields parses a block of struct fields; ok is false when the block is
// something else.
func docFields(t *testing.T, b fence) (fields []reflect.StructField, ok bool) {
	for _, line := range strings.Split(b.body, "\n") {
		if i := strings.Index(line, "//"); i >= 0 && !strings.Contains(line[:i], "`") {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if embeddedLine.MatchString(line) {
			rt, ok := docType(line)
			if !ok {
				t.Errorf("line %d: unknown type %s", b.line, line)
				return nil, false
			}
			fields = append(fields, reflect.StructField{Name: baseType(rt).Name(), Type: rt, Anonymous: true})
			continue
		}
		m := fieldLine.FindStringSubmatch(line)
		if m == nil {
			return nil, false
		}
		rt, ok := docType(m[2])
		if !ok {
			t.Errorf("line %d: unknown type %s", b.line, m[2])
			return nil, false
		}
		f := reflect.StructField{Name: m[1], Type: rt, Tag: reflect.StructTag(m[3])}
		if m[1] == "_" {
			f.PkgPath = "github.com/mcpgen/mcpgen/reflect"
		}
		fields = append(fields, f)
	}
	return fields, len(fields) > 0
}

// The named types the examples use.

type docColor string

func (docColor) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: "^#[0-9a-f]{6}$"}
}

type docCurrency string

func (docCurrency) JSONSchemaExtend(s *jsonschema.Schema) { s.Pattern = "^[A-Z]{3}$" }

var docTypes = func() map[string]reflect.Type {
	type Page struct {
		Size   int    `json:"size"`
		Cursor string `json:"cursor,omitempty"`
	}
	type Node struct {
		Val  string `json:"val"`
		Next *Node  `json:"next,omitempty"`
	}
	type Base struct {
		ID string `json:"id"`
	}
	type Audit struct {
		By string `json:"by,omitempty"`
	}
	return map[string]reflect.Type{
		"struct{}": tf[struct{}](), "string": tf[string](), "bool": tf[bool](), "byte": tf[byte](), "any": tf[any](),
		"int": tf[int](), "int8": tf[int8](), "int16": tf[int16](), "int32": tf[int32](), "int64": tf[int64](),
		"uint": tf[uint](), "uint8": tf[uint8](), "uint16": tf[uint16](), "uint32": tf[uint32](), "uint64": tf[uint64](),
		"float32": tf[float32](), "float64": tf[float64](),
		"time.Time": tf[time.Time](), "json.RawMessage": tf[json.RawMessage](),
		"Color": tf[docColor](), "Currency": tf[docCurrency](),
		"Page": tf[Page](), "Node": tf[Node](), "Base": tf[Base](), "Audit": tf[Audit](),
	}
}()

// docType parses a Go type expression of the examples.
func docType(s string) (reflect.Type, bool) {
	switch {
	case strings.HasPrefix(s, "*"):
		e, ok := docType(s[1:])
		if !ok {
			return nil, false
		}
		return reflect.PointerTo(e), true
	case strings.HasPrefix(s, "[]"):
		e, ok := docType(s[2:])
		if !ok {
			return nil, false
		}
		return reflect.SliceOf(e), true
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		n, err := strconv.Atoi(s[1:end])
		e, ok := docType(s[end+1:])
		if err != nil || !ok {
			return nil, false
		}
		return reflect.ArrayOf(n, e), true
	case strings.HasPrefix(s, "map["):
		end := strings.IndexByte(s, ']')
		k, ok1 := docType(s[4:end])
		v, ok2 := docType(s[end+1:])
		if !ok1 || !ok2 {
			return nil, false
		}
		return reflect.MapOf(k, v), true
	}
	t, ok := docTypes[s]
	return t, ok
}
