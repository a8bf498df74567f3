package mcpproto

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"buf.build/go/protovalidate"
	"github.com/invopop/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"google.golang.org/protobuf/reflect/protoreflect"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// inputSchema is a message's published input schema, and the same schema
// compiled by a JSON Schema validator, which names every way arguments
// protojson refused break it.
type inputSchema struct {
	schema   *jsonschema.Schema
	compiled *sjs.Schema
	tree     any // the schema as JSON (UseNumber), the compiler's resource too: to read the keyword a violation names
	md       protoreflect.MessageDescriptor
}

func newInputSchema(md protoreflect.MessageDescriptor, s *jsonschema.Schema) (*inputSchema, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw)) // UseNumber: also the tree renderer reads
	if err != nil {
		return nil, err
	}
	c := sjs.NewCompiler()
	c.DefaultDraft(sjs.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mcpproto://input.json", doc); err != nil {
		return nil, err
	}
	compiled, err := c.Compile("mcpproto://input.json")
	if err != nil {
		return nil, err
	}
	return &inputSchema{schema: s, compiled: compiled, tree: doc, md: md}, nil
}

var printer = message.NewPrinter(language.English)

// mayUseProtoNames reports whether data may name a field by its .proto name
// where it differs from its JSON name: one of those names, quoted, is in
// it, or an escape that could spell one. A cheap test before the schema
// decides.
func (ti *typeInfo) mayUseProtoNames(data []byte) bool {
	ti.once.Do(func() { ti.aliases = protoNames(ti.md, map[protoreflect.FullName]bool{}, nil) })
	if len(ti.aliases) == 0 {
		return false
	}
	if bytes.IndexByte(data, '\\') >= 0 {
		return true
	}
	for _, a := range ti.aliases {
		if bytes.Contains(data, a) {
			return true
		}
	}
	return false
}

// protoNames appends the quoted .proto names of the fields of md and of the
// messages it reaches that differ from their JSON names.
func protoNames(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool, out [][]byte) [][]byte {
	if seen[md.FullName()] || wellKnown(md) != nil {
		return out
	}
	seen[md.FullName()] = true
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if string(fd.Name()) != fd.JSONName() {
			out = append(out, []byte(strconv.Quote(string(fd.Name()))))
		}
		if fd.IsMap() {
			fd = fd.MapValue()
		}
		if fd.Message() != nil {
			out = protoNames(fd.Message(), seen, out)
		}
	}
	return out
}

// check validates data, JSON, against the schema: nil when it holds, else
// every violation.
func (in *inputSchema) check(data []byte) error {
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil // not JSON: protojson says so
	}
	verr := in.compiled.Validate(doc)
	if verr == nil {
		return nil
	}
	return in.explain(doc, verr, errors.New("invalid arguments"))
}

// violations explains why protojson refused data (perr): every way it
// breaks the published schema, by JSON path; when it breaks none (JSON
// Schema cannot say everything: a key given twice, an Any of a type not
// linked in), protojson's own reason.
func (in *inputSchema) violations(data []byte, perr error) error {
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return perr // not JSON: a protocol error
	}
	return in.explain(doc, in.compiled.Validate(doc), perr)
}

// explain is violations' error for doc, the arguments decoded, given the
// validator's verdict on it (verr, nil when it holds).
func (in *inputSchema) explain(doc any, verr, perr error) error {
	var out []mcpreflect.Violation
	if verr != nil {
		var ve *sjs.ValidationError
		if errors.As(verr, &ve) {
			r := &renderer{in: in, doc: doc}
			r.walk(ve, nil)
			out = r.out
		}
	}
	if len(out) == 0 {
		msg := strings.TrimPrefix(perr.Error(), "proto:")
		msg = strings.TrimSpace(strings.ReplaceAll(msg, "\u00a0", " "))
		out = append(out, mcpreflect.Violation{Rule: "protojson", Msg: msg})
	}
	// The validator's order is its own: by path, then rule.
	slices.SortStableFunc(out, func(a, b mcpreflect.Violation) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Rule, b.Rule))
	})
	return &mcpreflect.ArgumentsError{Violations: dedupe(out)}
}

func dedupe(vs []mcpreflect.Violation) []mcpreflect.Violation {
	seen := map[mcpreflect.Violation]bool{}
	out := vs[:0]
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// jsonPath renders an instance location as mcpgen names paths:
// books[2].title.
func jsonPath(doc any, loc []string) string {
	var b strings.Builder
	for _, seg := range loc {
		if arr, ok := doc.([]any); ok {
			b.WriteString("[" + seg + "]")
			if i, err := strconv.Atoi(seg); err == nil && i < len(arr) {
				doc = arr[i]
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
		if m, ok := doc.(map[string]any); ok {
			doc = m[seg]
		}
	}
	return b.String()
}

// validationViolations turns protovalidate's verdict into violations named
// by JSON path (protovalidate names fields by their .proto names), each
// field by the name the arguments (data) gave it: its JSON name or its
// original name.
func validationViolations(md protoreflect.MessageDescriptor, data []byte, err error) error {
	var ve *protovalidate.ValidationError
	if !errors.As(err, &ve) {
		return err // a compilation or runtime error of the rules: the tool's fault
	}
	var doc any
	_ = json.Unmarshal(data, &doc) // valid: protojson read it
	out := make([]mcpreflect.Violation, 0, len(ve.Violations))
	for _, v := range ve.Violations {
		p := v.Proto
		rule := p.GetRuleId()
		if rule == "" {
			rule = "protovalidate"
		}
		out = append(out, mcpreflect.Violation{Path: fieldPath(md, doc, p.GetField().GetElements()), Rule: rule, Msg: p.GetMessage()})
	}
	return &mcpreflect.ArgumentsError{Violations: out}
}
