//lint:file-ignore SA1019 roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol: capsDecode decodes the client's capabilities and log level as go-sdk does.

package mcptool

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC messages as the wires encode and decode them: responses and
// errors, a request's id, _meta and strings, and the checks that keep
// a decode the same as go-sdk's.

// capsDecode reports whether raw decodes to the client's capabilities as
// go-sdk decodes them, not null.
func capsDecode(raw json.RawMessage) bool {
	if string(raw) == "{}" {
		return true // none: the common case, without decoding
	}
	var caps *struct { // as go-sdk decodes them
		mcp.ClientCapabilities
		Roots *mcp.RootCapabilities `json:"roots,omitempty"`
	}
	return json.Unmarshal(raw, &caps) == nil && caps != nil
}

// jsonStringIs reports whether raw is the JSON string s.
func jsonStringIs(raw json.RawMessage, s string) bool {
	if len(raw) == len(s)+2 && raw[0] == '"' && string(raw[1:len(raw)-1]) == s {
		return true // no escapes: the common case, without decoding
	}
	var v string
	return json.Unmarshal(raw, &v) == nil && v == s
}

// idAndMeta returns msg's id and params' _meta as go-sdk decodes them,
// each value decoded once (wire's Decoded). With clientInfo (the
// 2026-07-28 wire), ok is also false when the client's identity in _meta
// does not decode to an *mcp.Implementation as go-sdk decodes it.
func idAndMeta(msg *wire.Message, clientInfo bool) (jsonrpc.ID, mcp.Meta, bool) {
	v, meta, ok := msg.Decoded()
	if !ok {
		return jsonrpc.ID{}, nil, false
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil || !id.IsValid() {
		return jsonrpc.ID{}, nil, false
	}
	if !clientInfo {
		return id, meta, true
	}
	var raw json.RawMessage
	for _, mb := range msg.Meta {
		if mb.Key == mcp.MetaKeyClientInfo {
			raw = mb.Value // the last, as encoding/json decodes it
		}
	}
	if raw == nil {
		return id, meta, true
	}
	if o, ok := meta[mcp.MetaKeyClientInfo].(map[string]any); ok {
		plain := true
		for k, x := range o {
			if _, ok := x.(string); !ok || strings.EqualFold(k, "icons") {
				plain = false
				break
			}
		}
		if plain {
			return id, meta, true // strings into its string fields: the common case, without decoding
		}
	}
	var info *mcp.Implementation
	if json.Unmarshal(raw, &info) != nil {
		return jsonrpc.ID{}, nil, false
	}
	return id, meta, true
}

// unmarshalString decodes the JSON string raw into s, as json.Unmarshal
// does, without its machinery when raw needs no unescaping.
func unmarshalString(raw json.RawMessage, s *string) error {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && plainASCII(raw[1:len(raw)-1]) {
		*s = string(raw[1 : len(raw)-1])
		return nil
	}
	return json.Unmarshal(raw, s)
}

// plainASCII reports whether b, the inside of a JSON string, is its text.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c == '"' || c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}

// messageID is the request's id as go-sdk decodes it.
func messageID(raw json.RawMessage) (jsonrpc.ID, bool) {
	v, ok := wire.DecodeAny(raw)
	if !ok && json.Unmarshal(raw, &v) != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(v)
	return id, err == nil && id.IsValid()
}

// encoder encodes a response into its buffer; a handler's encoders are
// reused (modern.encoders), each by one response at a time.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newEncoder() *encoder {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

// put returns e to pool for reuse, unless a large response grew its
// buffer.
func (e *encoder) put(pool *sync.Pool) {
	if e.buf.Cap() > 64<<10 {
		return
	}
	e.buf.Reset()
	pool.Put(e)
}

// encode appends v, as go-sdk encodes values on the wire.
func (e *encoder) encode(v any) error {
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	e.buf.Truncate(e.buf.Len() - 1) // Encode's newline
	return nil
}

// result appends res, as e.encode would. A tools/call result is its own
// MarshalJSON's output, which json.Encoder would only copy (compacting
// what json.Marshal wrote compact already, without escaping more).
func (e *encoder) result(res mcp.Result) error {
	call, ok := res.(*mcp.CallToolResult)
	if !ok || call == nil {
		return e.encode(res)
	}
	b, err := call.MarshalJSON()
	if err != nil {
		return err
	}
	e.buf.Write(b)
	return nil
}

// response encodes the response to id carrying res, as
// jsonrpc.EncodeMessage would, encoding res once: a tools/call result
// without _meta gets the server's identity (info) written in, the first
// member as go-sdk's encoding of the result puts it, instead of set in a
// map; any other result gets impl set in its _meta.
func (e *encoder) response(id jsonrpc.ID, res mcp.Result, impl *mcp.Implementation, info []byte) error {
	e.buf.WriteString(`{"jsonrpc":"2.0","id":`)
	switch v := id.Raw().(type) {
	case int64:
		e.buf.Write(strconv.AppendInt(e.buf.AvailableBuffer(), v, 10))
	default:
		if err := e.encode(v); err != nil {
			return err
		}
	}
	e.buf.WriteString(`,"result":`)
	call, splice := res.(*mcp.CallToolResult)
	splice = splice && call != nil && call.Meta == nil && info != nil
	if !splice && impl != nil {
		meta := res.GetMeta()
		if meta == nil {
			meta = map[string]any{}
		}
		if _, ok := meta[mcp.MetaKeyServerInfo]; !ok {
			meta[mcp.MetaKeyServerInfo] = impl
			res.SetMeta(meta)
		}
	}
	start := e.buf.Len()
	if err := e.result(res); err != nil {
		return err
	}
	if splice {
		// {X} becomes {"_meta":{…},X}: the member is appended, then
		// rotated to the front of X}.
		rest := e.buf.Len() - start - 1 // X}
		e.buf.Write(info)
		if rest > 1 {
			e.buf.WriteByte(',')
		}
		b := e.buf.Bytes()[start+1:]
		slices.Reverse(b[:rest])
		slices.Reverse(b[rest:])
		slices.Reverse(b)
	}
	e.buf.WriteByte('}')
	return nil
}

// errorStatus is the HTTP status SEP-2575 gives a JSON-RPC error on the
// 2026-07-28 wire, 0 for an error that travels as any response.
func errorStatus(err error) int {
	if err == nil {
		return 0
	}
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		return 0
	}
	switch je.Code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, mcp.CodeUnsupportedProtocolVersion, mcp.CodeMissingRequiredClientCapabilities:
		return http.StatusBadRequest
	}
	return 0
}

// marshalWire encodes v as go-sdk puts values on the wire: without HTML
// escaping.
func marshalWire(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// encodeResponse appends to e the response to id as go-sdk's session
// encodes it: res, or err. With codes, an error go-sdk would send with
// code 0 gets a JSON-RPC code, as StdioTransport gives go-sdk's own
// responses (sdkpatch.ResponseCode).
func encodeResponse(e *encoder, id jsonrpc.ID, res mcp.Result, err error, codes bool) error {
	if err == nil && res != nil {
		if e.response(id, res, nil, nil) == nil {
			return nil
		}
		e.buf.Reset()
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot encode the result"}
	}
	resp := &jsonrpc.Response{ID: id, Error: err}
	if codes {
		resp = sdkpatch.ResponseCode(resp)
	}
	data, eerr := jsonrpc.EncodeMessage(resp)
	if eerr != nil {
		return eerr
	}
	e.buf.Write(data)
	return nil
}

// writeJSONRPCError writes err as go-sdk's handler writes an error it
// answers with a status of its own.
func writeJSONRPCError(w http.ResponseWriter, status int, id jsonrpc.ID, err *jsonrpc.Error) {
	data, eerr := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: err})
	if eerr != nil {
		http.Error(w, "cannot encode the response", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
