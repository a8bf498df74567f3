package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/mcptool"
)

// randomDocs is how many random valid documents Fuzz adds to the typical,
// smallest, largest and example ones and to the boundary values.
const randomDocs = 32

// maxReported bounds the broken documents Fuzz prints of each kind of
// breach.
const maxReported = 3

// Fuzz calls the named tool with argument documents derived from its
// published inputSchema and checks mcpgen's contract on each:
//
//   - a document the schema accepts never yields a protocol error, a panic
//     or an internal error (a rule the schema cannot say, such as a
//     validator cross-field rule, may still refuse it);
//   - a document the schema refuses gets an isError "invalid arguments"
//     result that names a path where it breaks the schema, and the tool
//     does not run: only mcpgen's argument check gives that result, so any
//     other answer (success, an error of the tool, an internal error) means
//     the tool ran on arguments its schema refuses, or that a policy
//     (confirmation, rate limit) answered before the arguments were
//     checked.
//
// The documents are valid ones (typical, smallest and largest values, the
// catalogue's example, random mixes), boundary values of every keyword at
// every location (minimum, maximum, exclusive bounds, multipleOf, lengths,
// item counts, formats, patterns, enum members) and near misses (one past
// each bound, a wrong type, null, a missing required or an unknown
// property). An independent JSON Schema 2020-12 validator with format
// assertion (santhosh-tekuri/jsonschema) decides which are valid.
//
// The documents are the same for the same schema and [Seed]. Each broken
// one is printed as it was sent, to become a regression test. The calls go
// through a [Client] made with opts, so the tool runs as a client would
// reach it; a tool that asks the user needs [Elicit]. The tool runs once
// for every valid document: point tools with side effects at test data,
// and mind rate limits, which refuse (and so skip) the calls over them.
func Fuzz(t testing.TB, reg *mcptool.Registry, name string, opts ...Option) {
	t.Helper()
	cfg := newConfig(opts)
	f, err := newFuzzer(reg, name)
	if err != nil {
		t.Fatalf("mcptest: fuzz %s: %v", name, err)
		return
	}
	c := connect(t, reg, cfg)
	if c.Session == nil {
		return
	}
	docs := f.documents(rand.New(rand.NewPCG(uint64(cfg.seed), 0x6d637074)))
	var kinds []string // in the order first seen
	broken := map[string][]string{}
	valid, total := 0, 0
	for _, doc := range docs {
		ok, kind, detail := f.check(c, doc)
		if ok {
			valid++
		}
		if kind != "" {
			if broken[kind] == nil {
				kinds = append(kinds, kind)
			}
			broken[kind] = append(broken[kind], detail)
			total++
		}
	}
	if total > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "mcptest: fuzz %s (seed %d): %d of %d documents broke the contract:", name, cfg.seed, total, len(docs))
		for _, kind := range kinds {
			fmt.Fprintf(&b, "\n%s (%d):", kind, len(broken[kind]))
			for _, d := range broken[kind][:min(len(broken[kind]), maxReported)] {
				b.WriteString("\n" + d)
			}
		}
		t.Errorf("%s", b.String())
		return
	}
	t.Logf("mcptest: fuzz %s (seed %d): %d documents, %d valid, %d invalid: contract kept", name, cfg.seed, len(docs), valid, len(docs)-valid)
}

// FuzzF is [Fuzz] for go test -fuzz: it adds Fuzz's documents to f's seed
// corpus and checks the same contract on every document the fuzzing engine
// derives from them. Documents that are not a JSON object in UTF-8 are
// skipped.
//
//	func FuzzSearch(f *testing.F) { mcptest.FuzzF(f, newRegistry(), "search_pages") }
func FuzzF(f *testing.F, reg *mcptool.Registry, name string, opts ...Option) {
	f.Helper()
	cfg := newConfig(opts)
	fz, err := newFuzzer(reg, name)
	if err != nil {
		f.Fatalf("mcptest: fuzz %s: %v", name, err)
	}
	c := connect(f, reg, cfg)
	for _, doc := range fz.documents(rand.New(rand.NewPCG(uint64(cfg.seed), 0x6d637074))) {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		// JSON text is UTF-8 (RFC 8259); Go's decoder, which the validator
		// uses, would accept invalid bytes as U+FFFD where mcpgen refuses.
		if !bytes.HasPrefix(bytes.TrimLeft(doc, " \t\r\n"), []byte("{")) || !json.Valid(doc) || !utf8.Valid(doc) {
			t.Skip("not a JSON object")
		}
		if _, kind, detail := fz.check(c, doc); kind != "" {
			t.Errorf("mcptest: %s\n%s", kind, detail)
		}
	})
}

// fuzzer holds one tool's published schema and the validator compiled
// from it.
type fuzzer struct {
	name    string
	schema  map[string]any
	oracle  *sjs.Schema
	example json.RawMessage
}

func newFuzzer(reg *mcptool.Registry, name string) (*fuzzer, error) {
	if reg == nil {
		return nil, fmt.Errorf("no registry")
	}
	def, ok := reg.Tool(name)
	if !ok {
		return nil, fmt.Errorf("no tool named %q", name)
	}
	raw, err := json.Marshal(def.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("inputSchema: %w", err)
	}
	fz, err := compileFuzzer(name, raw)
	if err != nil {
		return nil, err
	}
	if cat, err := catalogTools(reg); err == nil {
		for _, ct := range cat {
			if ct.Name == name {
				fz.example = ct.Example
			}
		}
	}
	return fz, nil
}

// compileFuzzer reads a published inputSchema and compiles the validator.
func compileFuzzer(name string, raw []byte) (*fuzzer, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var schema map[string]any
	if err := dec.Decode(&schema); err != nil {
		return nil, fmt.Errorf("inputSchema: %w", err)
	}
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("inputSchema: %w", err)
	}
	c := sjs.NewCompiler()
	c.DefaultDraft(sjs.Draft2020)
	c.AssertFormat()
	const url = "mem:///inputSchema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("inputSchema: %w", err)
	}
	oracle, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("the published inputSchema is not valid JSON Schema 2020-12: %w", err)
	}
	return &fuzzer{name: name, schema: schema, oracle: oracle}, nil
}

// documents generates the argument documents, without repeats, in a
// deterministic order.
func (f *fuzzer) documents(rng *rand.Rand) [][]byte {
	g := &generator{root: f.schema, rng: rng}
	var docs [][]byte
	seen := map[string]bool{}
	addDoc := func(v any) {
		b, err := json.Marshal(v)
		if err != nil || seen[string(b)] {
			return
		}
		seen[string(b)] = true
		docs = append(docs, b)
	}
	if len(f.example) > 0 && string(f.example) != "null" {
		var ex any
		dec := json.NewDecoder(bytes.NewReader(f.example))
		dec.UseNumber()
		if dec.Decode(&ex) == nil {
			addDoc(ex)
		}
	}
	// The boundary values and near misses change one location of a valid
	// document: the first of the generated ones the validator accepts.
	base := g.value(f.schema, typical, 0)
	candidates := []any{base, g.value(f.schema, low, 0), g.value(f.schema, high, 0)}
	for range randomDocs {
		candidates = append(candidates, g.value(f.schema, mixed, 0))
	}
	chosen := false
	for _, v := range candidates {
		addDoc(v)
		if !chosen && f.accepts(v) {
			base, chosen = v, true
		}
	}
	for _, e := range g.edits(f.schema, base, nil, 0) {
		if len(e.loc) == 0 && e.val == nil {
			continue // null arguments mean none: {}
		}
		addDoc(apply(base, e))
	}
	return docs
}

// accepts reports whether the validator accepts v.
func (f *fuzzer) accepts(v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return false
	}
	verr, decided := f.judge(inst)
	return decided && verr == nil
}

// judge validates inst with the oracle. decided is false when the oracle
// cannot tell: santhosh-tekuri/jsonschema v6.0.3 panics comparing a number
// whose exponent math/big cannot hold (1e9999999999) with a bound.
func (f *fuzzer) judge(inst any) (verr error, decided bool) {
	defer func() {
		if recover() != nil {
			verr, decided = nil, false
		}
	}()
	return f.oracle.Validate(inst), true
}

// check calls the tool with doc and returns whether the schema accepts
// doc, and the kind of breach of the contract and its details ("" when
// there is none).
func (f *fuzzer) check(c *Conn, doc []byte) (valid bool, kind, detail string) {
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return false, "", ""
	}
	verr, decided := f.judge(inst)
	valid = decided && verr == nil
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	res, err := c.call(ctx, f.name, json.RawMessage(doc))
	docKind := "invalid"
	switch {
	case !decided:
		docKind = "undecidable"
	case valid:
		docKind = "valid"
	}
	details := func(why, result string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "  document: %s\n", doc)
		if why != "" {
			fmt.Fprintf(&b, "  why:      %s\n", why)
		}
		fmt.Fprintf(&b, "  result:   %s\n", strings.ReplaceAll(result, "\n", "\n            "))
		fmt.Fprintf(&b, "  replay:   c.Call(%q, json.RawMessage(`%s`))", f.name, doc)
		return b.String()
	}
	if err != nil {
		return valid, "a protocol error for a " + docKind + " document", details("", err.Error())
	}
	text := textOf(res.Content)
	refused := res.IsError && strings.HasPrefix(text, "invalid arguments")
	switch {
	case res.IsError && isInternal(text):
		return valid, "an internal error for a " + docKind + " document",
			details("a panic, or an error not meant for the model: the registry's logger has it under the ref", text)
	case !decided:
		// Only the two answers above break the contract for a document
		// the oracle cannot judge.
	case valid && refused:
		if rules := schemaRules(text); len(rules) > 0 {
			return valid, "refused a document the published schema accepts", details("refused for "+strings.Join(rules, ", "), text)
		}
	case !valid && !refused:
		return valid, "a document the published schema refuses was not refused for its arguments (the tool ran, or a policy answered before the arguments were checked)",
			details(oneLine(verr.Error()), text)
	case !valid:
		want := oraclePaths(verr, inst)
		if !namesAny(reportedPaths(text), want) {
			return valid, "refused, but names none of the paths the schema refuses", details("the schema refuses "+strings.Join(want, ", "), text)
		}
	}
	return valid, "", ""
}

func textOf(content []mcp.Content) string {
	var parts []string
	for _, c := range content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func isInternal(text string) bool { return strings.HasPrefix(text, "internal error") }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// strictRules are the keywords that both mcpgen and the validator check
// the same way. A valid document refused only for other rules (validator
// rules a schema cannot say, duplicate keys, base64 content, format
// details of special types) is no contract breach.
var strictRules = []string{
	"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
	"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxProperties",
	"minProperties", "required", "additionalProperties", "anyOf", "oneOf", "prefixItems", "items",
}

// schemaRules returns the strict rules of a refusal's violations: lines
// "- path: message (rule)".
func schemaRules(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		open := strings.LastIndexByte(line, '(')
		if !strings.HasPrefix(line, "- ") || open < 0 || !strings.HasSuffix(line, ")") {
			continue
		}
		rule := line[open+1 : len(line)-1]
		if slices.Contains(strictRules, rule) && !slices.Contains(out, rule) {
			out = append(out, rule)
		}
	}
	return out
}

// reportedPaths returns the paths of a refusal's violations, "" for the
// arguments object itself.
func reportedPaths(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "- ")
		if !ok {
			continue
		}
		p, _, ok := cutPath(rest)
		if !ok {
			continue
		}
		if p == "(arguments)" {
			p = ""
		}
		out = append(out, p)
	}
	return out
}

// cutPath splits "path: message" where the path may hold quoted names.
func cutPath(s string) (path, msg string, ok bool) {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && inQuote:
			i++
		case s[i] == '"':
			inQuote = !inQuote
		case s[i] == ':' && !inQuote && strings.HasPrefix(s[i:], ": "):
			return s[:i], s[i+2:], true
		}
	}
	return "", "", false
}

// oraclePaths renders the instance locations of the validator's innermost
// errors the way mcpgen names paths: a.b[0].c.
func oraclePaths(err error, inst any) []string {
	ve, ok := err.(*sjs.ValidationError)
	if !ok {
		return []string{""}
	}
	var out []string
	var walk func(e *sjs.ValidationError)
	walk = func(e *sjs.ValidationError) {
		if len(e.Causes) == 0 {
			if p := renderLoc(e.InstanceLocation, inst); !slices.Contains(out, p) {
				out = append(out, p)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

func renderLoc(loc []string, inst any) string {
	var b strings.Builder
	v := inst
	for _, seg := range loc {
		switch x := v.(type) {
		case []any:
			i, _ := strconv.Atoi(seg)
			b.WriteString("[" + seg + "]")
			if i < len(x) {
				v = x[i]
			}
			continue
		case map[string]any:
			v = x[seg]
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if plainName(seg) {
			b.WriteString(seg)
		} else {
			b.WriteString(strconv.Quote(seg))
		}
	}
	return b.String()
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// namesAny reports whether a reported path is at, above or below one the
// validator refuses.
func namesAny(reported, want []string) bool {
	for _, r := range reported {
		for _, w := range want {
			if under(r, w) || under(w, r) {
				return true
			}
		}
	}
	return false
}

// under reports whether path is at or below prefix.
func under(path, prefix string) bool {
	if prefix == "" || path == prefix {
		return true
	}
	return strings.HasPrefix(path, prefix) && (path[len(prefix)] == '.' || path[len(prefix)] == '[')
}
