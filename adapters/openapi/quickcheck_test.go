package mcpopenapi

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/internal/npmtest"
)

// quickSchemas are schemas beside the descriptions' that reach every
// keyword quick compiles and the instances it leaves to the validator.
var quickSchemas = []string{
	`{"type":"integer","minimum":-3,"exclusiveMaximum":5}`,
	`{"type":["integer","null"],"maximum":9223372036854775807,"minimum":-9223372036854775808}`,
	`{"type":"number","exclusiveMinimum":0,"maximum":10}`,
	`{"enum":[1,"1",true,null,[1,2],{"a":1}]}`,
	`{"const":2}`,
	`{"type":"string","minLength":1,"maxLength":3,"not":{"enum":["",".",".."]}}`,
	`{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3}`,
	`{"type":"object","minProperties":1,"maxProperties":2,"additionalProperties":{"type":"string"}}`,
	`{"oneOf":[{"type":"integer"},{"type":"number","minimum":0}]}`,
	`{"anyOf":[{"type":"string"},{"type":"integer","minimum":3}]}`,
	`{"$defs":{"T":{"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#/$defs/T"}},"required":["v"],"additionalProperties":false}},"$ref":"#/$defs/T"}`,
	`{"$defs":{"L":{"$ref":"#/$defs/L"}},"$ref":"#/$defs/L"}`,
	`{"type":"object","properties":{"a":true,"b":false},"additionalProperties":false}`,
	`{"allOf":[{"type":"object","required":["kind"]},{"properties":{"kind":{"const":"Square"}}}]}`,
}

// TestQuickAgreement: for every schema the Petstore and shapes
// descriptions publish (inputs and outputs) and those above, quick's
// verdict on generated and mutated instances is the validator's whenever
// quick decides, and it decides most of them.
func TestQuickAgreement(t *testing.T) {
	var schemas []string
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, f := range files {
		d, err := Load(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range d.operations() {
			if o.build(d, d.doc.Paths.Value(o.path)) != nil {
				continue
			}
			schemas = append(schemas, string(o.input))
			if o.output != nil {
				schemas = append(schemas, string(o.output))
			}
		}
	}
	schemas = append(schemas, quickSchemas...)
	rng := rand.New(rand.NewPCG(1, 2))
	compiled, decided, said := 0, 0, map[verdict]int{}
	for _, raw := range schemas {
		c, err := compile([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if c.quick == nil {
			t.Logf("not compiled by quick: %s", raw)
			continue
		}
		compiled++
		for range 300 {
			v := generate(rng, c.tree, c.tree, 0)
			if rng.IntN(3) == 0 {
				v = mutate(rng, v)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := sjs.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			got := c.quick.check(inst, 0)
			said[got]++
			if got == unknown {
				continue
			}
			decided++
			if want := c.s.Validate(inst) == nil; want != (got == valid) {
				t.Errorf("schema %s\ninstance %s: quick says valid=%v, the validator %v", raw, b, got == valid, want)
			}
		}
	}
	t.Logf("%d of %d schemas compiled; verdicts: %d valid, %d invalid, %d unknown", compiled, len(schemas), said[valid], said[invalid], said[unknown])
	if compiled < len(schemas)*3/4 || said[valid] < decided/5 || said[invalid] < decided/5 || said[unknown] == 0 {
		t.Errorf("quick should compile most schemas and decide both ways: %d of %d compiled, %v", compiled, len(schemas), said)
	}
}

// TestGitHubQuick: GitHub's REST description's schemas (inputs and
// outputs), 20 generated and mutated instances each: quick agrees with the
// validator whenever it decides.
func TestGitHubQuick(t *testing.T) {
	_, dir := npmtest.Install(t, "openapi-github", 20, "@octokit/openapi@23.0.2")
	d, err := Load(context.Background(), filepath.Join(dir, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	schemas, compiled, decided := 0, 0, 0
	for _, o := range d.operations() {
		if o.build(d, d.doc.Paths.Value(o.path)) != nil {
			continue
		}
		for _, raw := range [][]byte{o.input, o.output} {
			if raw == nil {
				continue
			}
			schemas++
			c, err := compile(raw)
			if err != nil {
				t.Fatal(err)
			}
			if c.quick == nil {
				continue
			}
			compiled++
			for range 20 {
				v := generate(rng, c.tree, c.tree, 0)
				if rng.IntN(3) == 0 {
					v = mutate(rng, v)
				}
				b, _ := json.Marshal(v)
				inst, err := sjs.UnmarshalJSON(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				got := c.quick.check(inst, 0)
				if got == unknown {
					continue
				}
				decided++
				if want := c.s.Validate(inst) == nil; want != (got == valid) {
					t.Errorf("%s: %s: quick says valid=%v, the validator %v", o.key, b, got == valid, want)
				}
			}
		}
	}
	t.Logf("%d schemas, %d compiled by quick, %d verdicts decided", schemas, compiled, decided)
	if compiled < schemas/2 || decided < compiled*5 {
		t.Errorf("quick should compile most of GitHub's schemas and decide most instances")
	}
}

var (
	genStrings = []string{"", ".", "..", "a", "Tom", "héllo", "Square", "Circle", "abcd", "1", "2020-01-02T03:04:05Z"}
	genNumbers = []string{"0", "-0", "1", "2", "3", "5", "-1", "-3", "-4", "7", "10", "11", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "2147483648", "1.0", "1e2", "0.5", "-1.5e-3", "3.000", "1E400"}
)

// generate makes an instance after schema s, mostly valid.
func generate(rng *rand.Rand, root, s any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok || depth > 6 {
		return scalarOf(rng, "")
	}
	if ref, ok := m["$ref"].(string); ok && rng.IntN(4) > 0 {
		cur := root
		for _, seg := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			if ref == "#" {
				break
			}
			cur = cur.(map[string]any)[seg]
		}
		return generate(rng, root, cur, depth+1)
	}
	if e, ok := m["enum"].([]any); ok && rng.IntN(5) > 0 {
		return e[rng.IntN(len(e))]
	}
	if c, ok := m["const"]; ok && rng.IntN(5) > 0 {
		return c
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if l, ok := m[k].([]any); ok && rng.IntN(4) > 0 {
			return generate(rng, root, l[rng.IntN(len(l))], depth+1)
		}
	}
	var typ string
	switch t := m["type"].(type) {
	case string:
		typ = t
	case []any:
		typ, _ = t[rng.IntN(len(t))].(string)
	}
	if typ == "" && m["properties"] != nil {
		typ = "object"
	}
	switch typ {
	case "object":
		obj := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		for name, p := range props {
			if rng.IntN(5) > 0 {
				obj[name] = generate(rng, root, p, depth+1)
			}
		}
		if rng.IntN(6) == 0 {
			obj["extra"] = scalarOf(rng, "")
		}
		return obj
	case "array":
		arr := []any{}
		for range rng.IntN(4) {
			arr = append(arr, generate(rng, root, m["items"], depth+1))
		}
		return arr
	}
	return scalarOf(rng, typ)
}

// scalarOf is a value of JSON type typ, any when typ is "".
func scalarOf(rng *rand.Rand, typ string) any {
	if typ == "" {
		typ = []string{"null", "boolean", "string", "number", "integer", "object", "array"}[rng.IntN(7)]
	}
	switch typ {
	case "null":
		return nil
	case "boolean":
		return rng.IntN(2) == 0
	case "string":
		return genStrings[rng.IntN(len(genStrings))]
	case "integer", "number":
		return json.Number(genNumbers[rng.IntN(len(genNumbers))])
	case "object":
		return map[string]any{"a": scalarOf(rng, "string")}
	}
	return []any{scalarOf(rng, "integer")}
}

// mutate changes one value in v: replaced, a key dropped or added.
func mutate(rng *rand.Rand, v any) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 && rng.IntN(2) == 0 {
			for k, e := range x {
				switch rng.IntN(3) {
				case 0:
					delete(x, k)
				case 1:
					x[k] = mutate(rng, e)
				default:
					x[k] = scalarOf(rng, "")
				}
				return x
			}
		}
		x["zz"] = scalarOf(rng, "")
		return x
	case []any:
		if len(x) > 0 {
			i := rng.IntN(len(x))
			x[i] = mutate(rng, x[i])
			return x
		}
	}
	return scalarOf(rng, "")
}
