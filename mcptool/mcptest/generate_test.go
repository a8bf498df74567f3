package mcptest

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// keywordZoo uses every keyword mcpgen publishes.
const keywordZoo = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["name", "count", "kind", "tags", "point"],
  "properties": {
    "name":   {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[a-z]+$"},
    "count":  {"type": "integer", "minimum": 1, "maximum": 100, "multipleOf": 2},
    "ratio":  {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    "kind":   {"type": "string", "enum": ["a", "b"]},
    "fixed":  {"const": "v1"},
    "email":  {"type": "string", "format": "email"},
    "site":   {"type": "string", "format": "uri"},
    "id":     {"type": "string", "format": "uuid"},
    "when":   {"type": "string", "format": "date-time"},
    "ip":     {"type": "string", "format": "ipv4"},
    "tags":   {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3, "uniqueItems": true},
    "pair":   {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "boolean"}], "items": false},
    "point":  {"$ref": "#/$defs/Point"},
    "note":   {"type": ["string", "null"]},
    "either": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 3}]},
    "one":    {"oneOf": [{"type": "integer", "maximum": 5}, {"type": "integer", "minimum": 3}]},
    "labels": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}, "maxProperties": 2}
  },
  "$defs": {
    "Point": {"type": "object", "additionalProperties": false, "required": ["x"],
              "properties": {"x": {"type": "integer"}, "next": {"$ref": "#/$defs/Point"}}}
  }
}`

// keywords returns the keywords of the errors of err ("false" for a false
// schema).
func keywords(err error) []string {
	var ve *sjs.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []string
	var walk func(e *sjs.ValidationError)
	walk = func(e *sjs.ValidationError) {
		if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
			out = append(out, kp[0])
		} else if _, ok := e.ErrorKind.(*kind.FalseSchema); ok {
			out = append(out, "false")
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// TestGeneratorCoversKeywords checks that the documents include valid ones
// and, for every keyword of the zoo, one that breaks it.
func TestGeneratorCoversKeywords(t *testing.T) {
	f, err := compileFuzzer("zoo", []byte(keywordZoo))
	if err != nil {
		t.Fatal(err)
	}
	docs := f.documents(rand.New(rand.NewPCG(1, 2)))
	broken := map[string]bool{}
	valid := 0
	for _, doc := range docs {
		inst, err := sjs.UnmarshalJSON(bytes.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.oracle.Validate(inst); err != nil {
			for _, k := range keywords(err) {
				broken[k] = true
			}
			if testing.Verbose() && bytes.Count(doc, []byte(":")) > 6 {
				t.Logf("%s: %v", doc, keywords(err))
			}
		} else {
			valid++
		}
	}
	if valid < 10 {
		t.Errorf("only %d of %d documents are valid", valid, len(docs))
	}
	for _, k := range []string{"type", "minLength", "maxLength", "pattern", "minimum", "maximum", "multipleOf",
		"exclusiveMinimum", "exclusiveMaximum", "enum", "const", "format", "minItems", "maxItems", "uniqueItems",
		"required", "additionalProperties", "false", "anyOf", "oneOf", "maxProperties"} {
		if !broken[k] {
			t.Errorf("no document breaks %s", k)
		}
	}
	t.Logf("%d documents, %d valid; broken keywords: %v", len(docs), valid, slices.Sorted(func(yield func(string) bool) {
		for k := range broken {
			if !yield(k) {
				return
			}
		}
	}))
}

// TestGeneratorDeterministic checks that a seed gives the same documents
// and another seed others.
func TestGeneratorDeterministic(t *testing.T) {
	f, err := compileFuzzer("zoo", []byte(keywordZoo))
	if err != nil {
		t.Fatal(err)
	}
	gen := func(seed uint64) string {
		return string(bytes.Join(f.documents(rand.New(rand.NewPCG(seed, 0x6d637074))), []byte("\n")))
	}
	if a, b := gen(1), gen(1); a != b {
		t.Error("seed 1 gave two different document sets")
	}
	if gen(1) == gen(2) {
		t.Error("seeds 1 and 2 gave the same documents")
	}
}

func TestFromPattern(t *testing.T) {
	g := &generator{rng: rand.New(rand.NewPCG(1, 1))}
	for _, p := range []string{`^[a-z]{2}-[0-9]+$`, `^(foo|bar)\.txt$`, `^\d{3}-\d{4}$`, `^[A-Z][a-z]*( [A-Z][a-z]*)?$`, `x?y+z*`} {
		re := mustCompile(t, p)
		for _, m := range []mode{typical, low, high} {
			s, ok := g.fromPattern(p, m)
			if !ok || !re.MatchString(s) {
				t.Errorf("pattern %s, mode %d: generated %q (ok %v)", p, m, s, ok)
			}
		}
	}
	if _, ok := g.fromPattern(`^(?!x)`, typical); ok {
		t.Error("an unsupported pattern was generated from")
	}
}

func mustCompile(t *testing.T, p string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

// TestGeneratorRecursion checks that a type that requires itself does not
// make the generator recurse without end.
func TestGeneratorRecursion(t *testing.T) {
	f, err := compileFuzzer("loop", []byte(`{"type":"object","required":["next"],"properties":{"next":{"$ref":"#"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if docs := f.documents(rand.New(rand.NewPCG(1, 2))); len(docs) == 0 {
		t.Error("no documents")
	}
}
