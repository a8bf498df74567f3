package sdkpatch

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result fields go-sdk has no field for. go-sdk v1.8.0's result types are
// fixed structs: ServerCapabilities has no "tasks" (the 2025-11-25 core
// tasks' capability) and Tool has no "execution" (its taskSupport). A
// receiving middleware can return any mcp.Result in place of go-sdk's, and
// go-sdk sends it marshalled as it is (TestGoSDKSendsMiddlewareResults); so
// the result goes out as go-sdk's own JSON with the missing member added.
// TestGoSDKLacksResultFields fails when go-sdk grows either field.
//
// Retire when go-sdk's ServerCapabilities has Tasks and its Tool has
// Execution (the 2025-11-25 schema's).

// WithCapability returns res, marshalled as go-sdk marshals it, with
// capabilities[name] set to value (a JSON value).
func WithCapability(res *mcp.InitializeResult, name string, value json.RawMessage) mcp.Result {
	return &withCapability{res, name, value}
}

type withCapability struct {
	*mcp.InitializeResult
	name  string
	value json.RawMessage
}

func (w *withCapability) MarshalJSON() ([]byte, error) {
	return withMembers(w.InitializeResult, func(m map[string]json.RawMessage) error {
		caps := map[string]json.RawMessage{}
		if raw, ok := m["capabilities"]; ok {
			if err := json.Unmarshal(raw, &caps); err != nil {
				return err
			}
		}
		if caps == nil { // "capabilities": null
			caps = map[string]json.RawMessage{}
		}
		caps[w.name] = w.value
		var err error
		m["capabilities"], err = json.Marshal(caps)
		return err
	})
}

// WithToolField returns res, marshalled as go-sdk marshals it, with the
// member field set to values[name] (a JSON value) in each tool whose name
// values holds. res is returned as it is when values is empty.
func WithToolField(res *mcp.ListToolsResult, field string, values map[string]json.RawMessage) mcp.Result {
	if len(values) == 0 {
		return res
	}
	return &withToolField{res, field, values}
}

type withToolField struct {
	*mcp.ListToolsResult
	field  string
	values map[string]json.RawMessage
}

func (w *withToolField) MarshalJSON() ([]byte, error) {
	rest := *w.ListToolsResult
	rest.Tools = nil // marshalled once, below
	return withMembers(&rest, func(m map[string]json.RawMessage) error {
		tools := make([]json.RawMessage, 0, len(w.Tools))
		for _, t := range w.Tools {
			var b []byte
			var err error
			if v, ok := w.values[t.Name]; ok {
				b, err = withMembers(t, func(tm map[string]json.RawMessage) error {
					tm[w.field] = v
					return nil
				})
			} else {
				b, err = json.Marshal(t)
			}
			if err != nil {
				return err
			}
			tools = append(tools, b)
		}
		var err error
		m["tools"], err = json.Marshal(tools)
		return err
	})
}

// withMembers returns v marshalled as go-sdk marshals it, with the members
// of its JSON object changed by set.
func withMembers(v any, set func(m map[string]json.RawMessage) error) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if err := set(m); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}
