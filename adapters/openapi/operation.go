package mcpopenapi

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/invopop/jsonschema"
)

// operation is one fronted operation: how its arguments become a request,
// and the schemas its tool publishes.
type operation struct {
	key    string // the operationId, else "METHOD /path"
	method string
	path   string // the path template
	op     *openapi3.Operation

	params      []param
	body        bool   // the arguments may carry "body"
	contentType string // the request body's media type
	accept      string // the Accept header: the media types of the 2xx responses

	input   []byte // the input schema, JSON
	output  []byte // the output schema of a JSON result; nil: content by media type
	wrapped bool   // the output is {"result": …}: the 2xx JSON is not always an object
}

// param is one parameter and how it is serialized.
type param struct {
	name    string
	in      string // path, query, header
	style   string
	explode bool
}

// bodyName is the argument that holds the request body.
const bodyName = "body"

// operations lists the description's operations in a stable order (path,
// then method).
func (d *Description) operations() []*operation {
	var ops []*operation
	paths := d.doc.Paths.Map()
	keys := make([]string, 0, len(paths))
	for p := range paths {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		item := paths[p]
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions, http.MethodTrace} {
			op := item.GetOperation(m)
			if op == nil {
				continue
			}
			key := op.OperationID
			if key == "" {
				key = m + " " + p
			}
			ops = append(ops, &operation{key: key, method: m, path: p, op: op})
		}
	}
	return ops
}

// build translates the operation's parameters, body and responses; the
// error says everything that cannot be said exactly, at once.
func (o *operation) build(d *Description, item *openapi3.PathItem) error {
	var problems []string
	in := newTranslator(d.v30(), toRequest)
	root := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), AdditionalProperties: jsonschema.FalseSchema}
	seen := map[string]string{}
	params := mergedParams(item.Parameters, o.op.Parameters)
	for _, pr := range params {
		p := pr.Value
		if p == nil {
			problems = append(problems, "an unresolved parameter")
			continue
		}
		at := "parameter " + p.Name + " (" + p.In + ")"
		if p.In == openapi3.ParameterInHeader && (strings.EqualFold(p.Name, "Accept") || strings.EqualFold(p.Name, "Content-Type") || strings.EqualFold(p.Name, "Authorization")) {
			continue // OpenAPI: such header parameters are ignored
		}
		if p.In == openapi3.ParameterInCookie {
			if p.Required {
				problems = append(problems, at+": cookie parameters are not sent")
			}
			continue
		}
		if other, dup := seen[p.Name]; dup || p.Name == bodyName && o.op.RequestBody != nil {
			if !dup {
				other = "the request body"
			}
			problems = append(problems, at+": its name is also "+other+"'s: the tool's arguments would collide")
			continue
		}
		seen[p.Name] = "a " + p.In + " parameter"
		if p.In == openapi3.ParameterInHeader && !validHeaderName(p.Name) {
			problems = append(problems, at+": not an HTTP header name")
			continue
		}
		if p.Content != nil || p.Schema == nil {
			problems = append(problems, at+": a parameter described by content, not a schema, is not supported")
			continue
		}
		style, explode, err := styleOf(p)
		if err != nil {
			problems = append(problems, at+": "+err.Error())
			continue
		}
		s := in.ref(p.Schema, at)
		if p.Description != "" || p.Deprecated {
			if s.Ref != "" {
				s = &jsonschema.Schema{AllOf: []*jsonschema.Schema{s}}
			} else {
				c := *s
				s = &c
			}
			if p.Description != "" {
				s.Description = p.Description
			}
			s.Deprecated = s.Deprecated || p.Deprecated
		}
		if p.In == openapi3.ParameterInPath && mayBeString(p.Schema.Value) {
			// A path parameter is one segment: never empty, . or .. (the
			// request is refused then too; the schema says it).
			s = &jsonschema.Schema{AllOf: []*jsonschema.Schema{s}, Not: &jsonschema.Schema{Enum: []any{"", ".", ".."}}}
			if c := s.AllOf[0]; c.Ref == "" && c.Not == nil && c.AllOf == nil {
				d := *c
				d.Not, s = s.Not, &d
			}
		}
		root.Properties.Set(p.Name, s)
		if p.Required || p.In == openapi3.ParameterInPath {
			root.Required = append(root.Required, p.Name)
		}
		o.params = append(o.params, param{name: p.Name, in: p.In, style: style, explode: explode})
	}
	if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
		mt, media := jsonMedia(rb.Value.Content)
		switch {
		case media == nil && rb.Value.Required:
			problems = append(problems, "request body: only JSON bodies are sent, and this one is "+strings.Join(mediaTypes(rb.Value.Content), ", "))
		case media != nil:
			s := in.ref(media.Schema, "request body")
			if rb.Value.Description != "" && s.Description == "" && s.Ref == "" {
				c := *s
				c.Description = rb.Value.Description
				s = &c
			}
			root.Properties.Set(bodyName, s)
			if rb.Value.Required {
				root.Required = append(root.Required, bodyName)
			}
			o.body, o.contentType = true, mt
		}
	}
	problems = append(problems, in.errs...)
	if len(in.defs) > 0 {
		root.Definitions = in.defs
	}
	var err error
	if o.input, err = json.Marshal(root); err != nil {
		problems = append(problems, err.Error())
	}
	problems = append(problems, o.responses(d)...)
	if len(problems) > 0 {
		return &OperationError{Operation: o.key, Reasons: problems}
	}
	return nil
}

// mergedParams are an operation's parameters with its path item's, the
// operation's winning (by name and location).
func mergedParams(common, own openapi3.Parameters) openapi3.Parameters {
	out := append(openapi3.Parameters{}, own...)
	for _, c := range common {
		if c.Value == nil || own.GetByInAndName(c.Value.In, c.Value.Name) == nil {
			out = append(out, c)
		}
	}
	return out
}

// styleOf is a parameter's serialization style and explode flag, with
// OpenAPI's defaults; a style this adapter does not write is an error.
func styleOf(p *openapi3.Parameter) (string, bool, error) {
	style := p.Style
	if style == "" {
		style = map[string]string{"path": "simple", "header": "simple", "query": "form"}[p.In]
	}
	explode := style == "form"
	if p.Explode != nil {
		explode = *p.Explode
	}
	ok := false
	switch p.In {
	case "path", "header":
		ok = style == "simple"
	case "query":
		ok = style == "form" || style == "deepObject" || (!explode && (style == "spaceDelimited" || style == "pipeDelimited"))
	}
	if !ok {
		return "", false, fmt.Errorf("style %q (explode %v) in %s is not supported", style, explode, p.In)
	}
	return style, explode, nil
}

// responses sets the Accept header and the output schema: the JSON
// schemas of the 2xx responses (null for one without content), or none
// when a 2xx response is of another media type (its content is then
// mapped by its type).
func (o *operation) responses(d *Description) []string {
	out := newTranslator(d.v30(), toResponse)
	var alts []*jsonschema.Schema
	var accept []string
	structured, empty := true, false
	if o.op.Responses == nil {
		structured = false
	} else {
		codes := o.op.Responses.Map()
		keys := make([]string, 0, len(codes))
		for c := range codes {
			keys = append(keys, c)
		}
		sort.Strings(keys)
		for _, code := range keys {
			if !(len(code) == 3 && code[0] == '2') {
				continue
			}
			r := codes[code].Value
			if r == nil || len(r.Content) == 0 {
				empty = true
				continue
			}
			for _, mt := range mediaTypes(r.Content) {
				if !contains(accept, mt) {
					accept = append(accept, mt)
				}
			}
			_, media := jsonMedia(r.Content)
			if media == nil || media.Schema == nil || len(r.Content) > 1 {
				structured = false
				continue
			}
			alts = append(alts, out.ref(media.Schema, "response "+code))
		}
	}
	o.accept = strings.Join(accept, ", ")
	if !structured || len(alts) == 0 {
		return nil
	}
	if empty {
		alts = append(alts, &jsonschema.Schema{Type: "null"})
	}
	var s *jsonschema.Schema
	if len(alts) == 1 {
		s = alts[0]
	} else {
		s = &jsonschema.Schema{AnyOf: alts}
	}
	if !isObject(s, out.defs) {
		w := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), Required: []string{"result"}, AdditionalProperties: jsonschema.FalseSchema}
		w.Properties.Set("result", s)
		s, o.wrapped = w, true
	}
	if len(out.defs) > 0 {
		s.Definitions = out.defs
	}
	if s.Ref != "" {
		// A root $ref with $defs beside it is fine in 2020-12, but mcpgen
		// reads a root $ref as an object: keep the root a plain schema.
		s = &jsonschema.Schema{Type: "object", AllOf: []*jsonschema.Schema{{Ref: s.Ref}}, Definitions: s.Definitions}
	}
	var problems []string
	problems = append(problems, out.errs...)
	var err error
	if o.output, err = json.Marshal(s); err != nil {
		problems = append(problems, err.Error())
	}
	return problems
}

// isObject reports whether every value s accepts is a JSON object (the
// result is then structuredContent as it is, else wrapped as {"result": …}).
func isObject(s *jsonschema.Schema, defs jsonschema.Definitions) bool {
	if s.Ref != "" {
		name := strings.TrimPrefix(s.Ref, "#/$defs/")
		if d := defs[name]; d != nil && d != s {
			return isObject(d, defs)
		}
		return false
	}
	return s.Type == "object"
}

// jsonMedia picks the JSON media type of content: application/json, else
// any +json type.
func jsonMedia(content openapi3.Content) (string, *openapi3.MediaType) {
	if m := content["application/json"]; m != nil {
		return "application/json", m
	}
	for _, mt := range mediaTypes(content) {
		base, _, err := mime.ParseMediaType(mt)
		if err == nil && (base == "application/json" || strings.HasSuffix(base, "+json")) {
			return mt, content[mt]
		}
	}
	return "", nil
}

func mediaTypes(content openapi3.Content) []string {
	out := make([]string, 0, len(content))
	for mt := range content {
		out = append(out, mt)
	}
	sort.Strings(out)
	return out
}

func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// OperationError says why an operation cannot be fronted exactly.
type OperationError struct {
	Operation string   // the operationId, else "METHOD /path"
	Reasons   []string // each thing that cannot be said, with its place
}

func (e *OperationError) Error() string {
	if len(e.Reasons) == 1 {
		return e.Operation + ": " + e.Reasons[0]
	}
	var b strings.Builder
	b.WriteString(e.Operation + ":")
	for i, r := range e.Reasons {
		b.WriteString(" (" + strconv.Itoa(i+1) + ") " + r)
	}
	return b.String()
}

// mayBeString reports whether a value of schema s may be a string.
func mayBeString(s *openapi3.Schema) bool {
	return s == nil || s.Type == nil || len(s.Type.Slice()) == 0 || s.Type.Includes("string")
}
