package mcptool

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/buger/jsonparser"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Large arguments, set aside: go-sdk v1.8.0 decodes a request body several
// times over HTTP, each time through a streaming decoder whose buffer
// doubles, so a call with 1 MiB of arguments costs it 17–29 MiB. For a large
// tools/call on a server a registry serves, NewHTTPHandler cuts the
// arguments out of the body (a subslice, no copy), hands go-sdk the message
// with a placeholder naming them, and the registry's middleware puts them
// back before anything else reads the call. go-sdk then decodes a few
// hundred bytes, and mcpgen's own decoder reads the arguments once.
//
// It is not done for a tool the registry does not know or whose arguments
// go into Mcp-Param-* headers, nor when the request has such headers (go-sdk
// compares those with the arguments it decodes), when the message has the
// arguments twice, or when they are not valid JSON (go-sdk then answers as
// it always does). The registry's middleware runs after any middleware
// added to the server before it was mounted: those see the placeholder.

// setAsideMin is the smallest body whose arguments are set aside.
const setAsideMin = 64 << 10

// setAsideKey names the placeholder's one property.
const setAsideKey = "io.mcpgen/arguments"

var setAside sync.Map // token → []byte, the arguments

// setArgsAside returns body with params.arguments replaced by a
// placeholder, and a func that forgets the arguments if the call never
// took them; ok is false when it leaves body as it is.
func setArgsAside(r *http.Request, srv *mcp.Server, body []byte) (out []byte, drop func(), ok bool) {
	if len(body) < setAsideMin {
		return body, nil, false
	}
	reg := servedOn(srv).reg
	if reg == nil {
		return body, nil, false
	}
	for name := range r.Header {
		if strings.HasPrefix(strings.ToLower(name), "mcp-param-") {
			return body, nil, false
		}
	}
	params, typ, paramsEnd, err := jsonparser.Get(body, "params")
	if err != nil || typ != jsonparser.Object {
		return body, nil, false
	}
	// One pass over params: its name, and where its arguments are (params
	// is a subslice of body, the callback's offset the end of each value).
	var name string
	var args []byte
	argsEnd, count := 0, 0
	err = jsonparser.ObjectEach(params, func(key, value []byte, vt jsonparser.ValueType, end int) error {
		switch string(key) {
		case "name":
			if vt == jsonparser.String {
				name, _ = jsonparser.ParseString(value)
			}
		case "arguments":
			count++
			if vt == jsonparser.Object {
				args, argsEnd = value, end
			}
		}
		return nil
	})
	if err != nil || count != 1 || args == nil {
		return body, nil, false
	}
	// A tool that mirrors arguments into headers: go-sdk checks them
	// against the arguments it decodes, so it must see them.
	if t, known := reg.lookup(name); !known || mirrorsHeaders(t) {
		return body, nil, false
	}
	end := paramsEnd - len(params) + argsEnd
	start := end - len(args)
	if start < 0 || end > len(body) || body[start] != '{' || body[end-1] != '}' || !json.Valid(args) {
		return body, nil, false
	}
	token := rand.Text()
	placeholder := `{"` + setAsideKey + `":"` + token + `"}`
	out = make([]byte, 0, len(body)-len(args)+len(placeholder))
	out = append(out, body[:start]...)
	out = append(out, placeholder...)
	out = append(out, body[end:]...)
	setAside.Store(token, args)
	return out, func() { setAside.Delete(token) }, true
}

// mirrorsHeaders reports whether t's input schema has x-mcp-header
// properties.
func mirrorsHeaders(t *tool) bool {
	raw, ok := t.def.InputSchema.(json.RawMessage)
	return !ok || bytes.Contains(raw, []byte(`"x-mcp-header"`))
}

// takeArgsBack puts set-aside arguments back into call.
func takeArgsBack(call *mcp.CallToolRequest) {
	raw := call.Params.Arguments
	if len(raw) > 128 || !bytes.Contains(raw, []byte(setAsideKey)) {
		return
	}
	var ph map[string]string
	if json.Unmarshal(raw, &ph) != nil || len(ph) != 1 {
		return
	}
	if v, ok := setAside.LoadAndDelete(ph[setAsideKey]); ok {
		call.Params.Arguments = v.([]byte)
	}
}
