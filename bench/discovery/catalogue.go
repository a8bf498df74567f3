package discovery

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Labeled are the APIs of the labeled catalogue (769 methods).
var Labeled = []string{
	"gmail/v1", "drive/v3", "calendar/v3", "youtube/v3", "sheets/v4", "tasks/v1", "people/v1", "docs/v1",
	"storage/v1", "bigquery/v2", "forms/v1", "blogger/v3", "books/v1", "pubsub/v1", "dns/v1",
	"secretmanager/v1", "keep/v1", "chat/v1", "meet/v2",
}

// Method is one method of a discovery document, as a tool.
type Method struct {
	Name        string // the method's ID with _ for . (gmail_users_messages_send)
	Group       string // the API's name (gmail)
	Description string
	ReadOnly    bool // an HTTP GET
	Params      []Param
	Body        string  // the request body's schema and its description, "" for none
	BodyFields  []Param // the request body's fields (one level), by name
}

// Param is one parameter of a method.
type Param struct {
	Name, Description, Type string
	Required, Repeated      bool
}

type document struct {
	Name      string                 `json:"name"`
	Methods   map[string]docMethod   `json:"methods"`
	Resources map[string]docResource `json:"resources"`
	Schemas   map[string]struct {
		D          string `json:"description"`
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
	} `json:"schemas"`
}

type docResource struct {
	Methods   map[string]docMethod   `json:"methods"`
	Resources map[string]docResource `json:"resources"`
}

type docMethod struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	HTTPMethod  string `json:"httpMethod"`
	Parameters  map[string]struct {
		Type        string `json:"type"`
		Description string `json:"description"`
		Required    bool   `json:"required"`
		Repeated    bool   `json:"repeated"`
	} `json:"parameters"`
	Request *struct {
		Ref string `json:"$ref"`
	} `json:"request"`
}

// APIDir is the directory of google.golang.org/api in the module cache.
func APIDir() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "google.golang.org/api").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m google.golang.org/api (run go mod download): %w", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("google.golang.org/api is not downloaded: run go mod download")
	}
	return dir, nil
}

// toolName makes a method's ID a tool name: gmail.users.messages.send
// becomes gmail_users_messages_send.
var toolName = strings.NewReplacer(".", "_", "-", "_")

// Load reads the methods of the APIs (paths such as "gmail/v1"; nil: every
// API of the module), sorted by name.
func Load(dir string, apis []string) ([]Method, error) {
	var files []string
	if apis == nil {
		var err error
		if files, err = filepath.Glob(filepath.Join(dir, "*", "v*", "*-api.json")); err != nil {
			return nil, err
		}
	}
	for _, a := range apis {
		name, _, _ := strings.Cut(a, "/")
		files = append(files, filepath.Join(dir, a, name+"-api.json"))
	}
	seen := map[string]bool{}
	var out []Method
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var d document
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		var walk func(ms map[string]docMethod, rs map[string]docResource)
		walk = func(ms map[string]docMethod, rs map[string]docResource) {
			for _, m := range ms {
				name := toolName.Replace(m.ID)
				if len(name) > 128 || seen[name] {
					continue
				}
				seen[name] = true
				out = append(out, method(d, name, m))
			}
			for _, r := range rs {
				walk(r.Methods, r.Resources)
			}
		}
		walk(d.Methods, d.Resources)
	}
	slices.SortFunc(out, func(a, b Method) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func method(d document, name string, m docMethod) Method {
	out := Method{Name: name, Group: d.Name, Description: m.Description, ReadOnly: m.HTTPMethod == "GET"}
	for n, p := range m.Parameters {
		out.Params = append(out.Params, Param{Name: n, Description: p.Description, Type: p.Type, Required: p.Required, Repeated: p.Repeated})
	}
	slices.SortFunc(out.Params, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
	if m.Request != nil && m.Request.Ref != "" {
		out.Body = "The request body: a " + m.Request.Ref + ". " + d.Schemas[m.Request.Ref].D
		for n, p := range d.Schemas[m.Request.Ref].Properties {
			out.BodyFields = append(out.BodyFields, Param{Name: n, Description: p.Description, Type: p.Type})
		}
		slices.SortFunc(out.BodyFields, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
	}
	return out
}

// ArgType is the argument struct of m, made at run time: a field per
// parameter (json name, description, required), and body for the request:
// a struct of its fields (those that are objects or arrays as raw JSON).
func (m Method) ArgType() reflect.Type {
	fields := []reflect.StructField{}
	for i, p := range m.Params {
		t := paramType(p.Type, reflect.TypeFor[string]())
		if p.Repeated {
			t = reflect.SliceOf(t)
		}
		js := p.Name + ",omitempty"
		tag := ""
		if p.Required {
			js, tag = p.Name, ` validate:"required"`
		}
		fields = append(fields, reflect.StructField{
			Name: "F" + strconv.Itoa(i), Type: t,
			Tag: reflect.StructTag(fmt.Sprintf(`json:%q jsonschema_description:%q`, js, oneLine(p.Description)) + tag),
		})
	}
	if m.Body != "" {
		body := reflect.TypeFor[json.RawMessage]()
		if len(m.BodyFields) > 0 {
			var bf []reflect.StructField
			for i, p := range m.BodyFields {
				bf = append(bf, reflect.StructField{Name: "F" + strconv.Itoa(i), Type: paramType(p.Type, reflect.TypeFor[json.RawMessage]()),
					Tag: reflect.StructTag(fmt.Sprintf(`json:%q jsonschema_description:%q`, p.Name+",omitempty", oneLine(p.Description)))})
			}
			body = reflect.PointerTo(reflect.StructOf(bf))
		}
		fields = append(fields, reflect.StructField{Name: "Body", Type: body,
			Tag: reflect.StructTag(fmt.Sprintf(`json:"body,omitempty" jsonschema_description:%q`, oneLine(m.Body)))})
	}
	return reflect.StructOf(fields)
}

// paramType is the Go type of a discovery type, other for any other type
// (an object or an array, whose own schema is not expanded).
func paramType(t string, other reflect.Type) reflect.Type {
	switch t {
	case "boolean":
		return reflect.TypeFor[bool]()
	case "integer":
		return reflect.TypeFor[int64]()
	case "number":
		return reflect.TypeFor[float64]()
	case "string":
		return reflect.TypeFor[string]()
	default:
		return other
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Register adds each method to reg as a tool answering "ok": its
// arguments' type made at run time (ArgType), its group the API's.
func Register(reg *mcptool.Registry, methods []Method) error {
	for _, m := range methods {
		in := m.ArgType()
		fn := reflect.MakeFunc(reflect.FuncOf([]reflect.Type{reflect.TypeFor[context.Context](), in}, []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[error]()}, false),
			func([]reflect.Value) []reflect.Value {
				return []reflect.Value{reflect.ValueOf("ok"), reflect.Zero(reflect.TypeFor[error]())}
			}).Interface()
		opts := []mcptool.Option{mcptool.Description(m.Description), mcptool.Group(m.Group)}
		if m.ReadOnly {
			opts = append(opts, mcptool.ReadOnly(true))
		}
		if err := reg.Add(m.Name, fn, opts...); err != nil {
			return err
		}
	}
	return nil
}

// NewRegistry returns a registry of methods, with more options: in
// discovery mode when discovery is set. Its types are made at run time, so
// it keeps their plans in a cache of its own.
func NewRegistry(methods []Method, discovery bool, more ...mcptool.RegistryOption) (*mcptool.Registry, error) {
	opts := append([]mcptool.RegistryOption{mcptool.PlanCache(&mcpreflect.Cache{}), mcptool.NoDescription()}, more...)
	if discovery {
		opts = append(opts, mcptool.Discovery())
	}
	reg := mcptool.NewRegistry(opts...)
	return reg, Register(reg, methods)
}
