package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

const typicalCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"calculate_sum","arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`

func TestScanMessage(t *testing.T) {
	b, err := Scan([]byte(typicalCall), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Batch || len(b.Messages) != 1 {
		t.Fatalf("Batch %v, %d messages; want one message", b.Batch, len(b.Messages))
	}
	m := b.Messages[0]
	for _, c := range []struct{ name, got, want string }{
		{"ID", string(m.ID), "7"},
		{"Method", m.Method, "tools/call"},
		{"name", string(m.Param("name")), `"calculate_sum"`},
		{"arguments", string(m.Param("arguments")), `{"a":1,"b":2}`},
		{"protocolVersion", string(m.MetaValue("io.modelcontextprotocol/protocolVersion")), `"2026-07-28"`},
		{"clientInfo", string(m.MetaValue("io.modelcontextprotocol/clientInfo")), `{"name":"bench","version":"1"}`},
		{"Raw", string(m.Raw), typicalCall},
	} {
		if c.got != c.want {
			t.Errorf("%s = %s, want %s", c.name, c.got, c.want)
		}
	}
	if m.Response {
		t.Error("Response for a request")
	}
	want := Cost{Values: 15, Containers: 6, Keys: 14, MaxDepth: 4, Bytes: len(typicalCall)}
	if b.Cost != want {
		t.Errorf("Cost = %+v, want %+v", b.Cost, want)
	}
}

// Keys are matched case-sensitively and decoded; the last of repeated
// keys wins; members keep their order, duplicates included.
func TestScanKeys(t *testing.T) {
	body := `{"ID":1,"Method":"x","\u0069d":2,"method":"a","method":"b\u00e9","params":{"x":1},"params":{"k":1,"k":2,"_meta":{"m":1},"_meta":{"m":2,"m":3}},"result":null}`
	b, err := Scan([]byte(body), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Messages[0]
	if string(m.ID) != "2" || m.Method != "bé" || !m.Response {
		t.Errorf("ID %s, Method %q, Response %v; want 2, bé, true", m.ID, m.Method, m.Response)
	}
	if got := string(m.Param("k")); got != "2" {
		t.Errorf(`Param("k") = %s, want 2`, got)
	}
	if m.Param("x") != nil {
		t.Errorf(`Param("x") = %s from the first params, want nil`, m.Param("x"))
	}
	if got := string(m.MetaValue("m")); got != "3" {
		t.Errorf(`MetaValue("m") = %s, want 3`, got)
	}
	var keys []string
	for _, p := range m.Params {
		keys = append(keys, p.Key)
	}
	if got := strings.Join(keys, ","); got != "k,k,_meta,_meta" {
		t.Errorf("Params keys %s, want k,k,_meta,_meta", got)
	}
	if len(m.Meta) != 2 {
		t.Errorf("Meta %v, want the last _meta's two members", m.Meta)
	}
}

func TestScanBatch(t *testing.T) {
	b, err := Scan([]byte(` [{"id":1,"method":"ping"}, 3, {"id":"x","result":{}}] `), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Batch || len(b.Messages) != 3 {
		t.Fatalf("Batch %v, %d messages; want a batch of 3", b.Batch, len(b.Messages))
	}
	if m := b.Messages[0]; string(m.ID) != "1" || m.Method != "ping" || m.Params != nil || m.RawParams != nil {
		t.Errorf("first: %+v", m)
	}
	if m := b.Messages[1]; string(m.Raw) != "3" || m.ID != nil {
		t.Errorf("second: %+v", m)
	}
	if m := b.Messages[2]; string(m.ID) != `"x"` || !m.Response {
		t.Errorf("third: %+v", m)
	}
}

// Version2 is true only for a "jsonrpc" that decodes to the string "2.0".
func TestScanVersion(t *testing.T) {
	for body, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1}`:            true,
		`{"jsonrpc":"2\u002e0","id":1}`:       true,
		`{"jsonrpc":"1.0","jsonrpc":"2.0"}`:   true, // the last wins
		`{"jsonrpc":"2.0","jsonrpc":"1.0"}`:   false,
		`{"id":1,"method":"tools/call"}`:      false,
		`{"jsonrpc":"1.0"}`:                   false,
		`{"jsonrpc":2}`:                       false,
		`{"jsonrpc":2.0}`:                     false,
		`{"jsonrpc":null}`:                    false,
		`{"jsonrpc":"2.0 "}`:                  false,
		`{"params":{"jsonrpc":"2.0"}}`:        false,
		`{"json\u0072pc":"2.0","method":"x"}`: true,
	} {
		b, err := Scan([]byte(body), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Messages[0].Version2(); got != want {
			t.Errorf("Version2 of %s = %v, want %v", body, got, want)
		}
	}
}

func TestScanErrors(t *testing.T) {
	for _, c := range []struct{ body, err string }{
		{``, "invalid JSON at byte 0: unexpected end of input"},
		{`{"id":1,}`, `invalid JSON at byte 8: invalid character '}' looking for beginning of object key string`},
		{`{"id":01}`, `invalid JSON at byte 7: invalid character '1' after object key:value pair`},
		{`{"a":"\x"}`, `invalid JSON at byte 7: invalid character 'x' in string escape code`},
		{"[\"\x01\"]", `invalid JSON at byte 2: invalid character '\x01' in string literal`},
		{`{"a":tru}`, `invalid JSON at byte 8: invalid character '}' in literal true (expecting 'e')`},
		{`{} x`, `invalid JSON at byte 3: invalid character 'x' after top-level value`},
		{`[1 2]`, `invalid JSON at byte 3: invalid character '2' after array element`},
		{`{"a" 1}`, `invalid JSON at byte 5: invalid character '1' after object key`},
		{`[-]`, `invalid JSON at byte 2: invalid character ']' in numeric literal`},
		{`[1.e5]`, `invalid JSON at byte 3: invalid character 'e' in numeric literal`},
		{`{"a":"\u12g4"}`, `invalid JSON at byte 10: invalid character 'g' in \u hexadecimal character escape`},
		{`[[[`, `invalid JSON at byte 3: unexpected end of input`},
	} {
		_, err := Scan([]byte(c.body), Limits{})
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != c.err {
			t.Errorf("Scan(%q) = %v, want %s", c.body, err, c.err)
		}
		if json.Valid([]byte(c.body)) {
			t.Errorf("%q is valid JSON", c.body)
		}
	}
}

func TestScanLimits(t *testing.T) {
	for _, c := range []struct {
		body string
		lim  Limits
		err  string
	}{
		{`[1,2,3]`, Limits{MaxValues: 3}, "request body has more than 3 JSON values (MaxBodyValues)"},
		{`{"params":{"_meta":{"a":[1]}}}`, Limits{MaxDepth: 3}, "request body nests JSON deeper than 3 levels (MaxBodyDepth)"},
		{`[[[[[]]]]]`, Limits{MaxDepth: 4}, "request body nests JSON deeper than 4 levels (MaxBodyDepth)"},
		{`[{},{},{}]`, Limits{MaxBatch: 2}, "request body batches more than 2 JSON-RPC messages"},
		{`[1,2,3]`, Limits{MaxBatch: 2}, "request body batches more than 2 JSON-RPC messages"},
	} {
		_, err := Scan([]byte(c.body), c.lim)
		var le *LimitError
		if !errors.As(err, &le) || err.Error() != c.err {
			t.Errorf("Scan(%s, %+v) = %v, want %s", c.body, c.lim, err, c.err)
		}
	}
	for _, c := range []struct {
		body string
		lim  Limits
	}{
		{`[1,2,3]`, Limits{MaxValues: 4}},
		{`{"params":{"_meta":{"a":[1]}}}`, Limits{MaxDepth: 4}},
		{`[[[[]]]]`, Limits{MaxDepth: 4}},
		{`[{},{}]`, Limits{MaxBatch: 2}},
		{`{"a":[1,2,3]}`, Limits{MaxBatch: 2}}, // only the body's own array is a batch
	} {
		if _, err := Scan([]byte(c.body), c.lim); err != nil {
			t.Errorf("Scan(%s, %+v) = %v, want no error", c.body, c.lim, err)
		}
	}
}

// A body nested a million deep is scanned without recursion.
func TestScanDeep(t *testing.T) {
	const n = 1 << 20
	body := strings.Repeat(`{"a":[`, n) + strings.Repeat(`]}`, n)
	b, err := Scan([]byte(body), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Cost.MaxDepth != 2*n || b.Cost.Containers != 2*n || b.Cost.Keys != n {
		t.Errorf("Cost = %+v", b.Cost)
	}
}

// FuzzScan checks Scan against encoding/json: a body is accepted iff it is
// valid JSON, and what Scan captures is what encoding/json decodes, with
// keys matched exactly (as a map[string]json.RawMessage does: Scan does
// not match "ID" for "id", which decoding into a struct would).
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		typicalCall, `[]`, `[{"id":1,"method":"ping"},{"id":2,"result":{}}]`, `{"id":null,"method":null,"params":null}`,
		`{"params":{"_meta":[],"a":{"b":[1,2,{"c":"\ud834\udd1e"}]}}}`, "{\"method\":\"\xff\"}", `{"\u0069d":"x"}`,
		`{"id":1e5,"method":"a\"b","params":{"_meta":{"k":-0.5E-3}}}`, `"x"`, `12`, ` {} `, `{"a":[[[[]]]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		const depth = 10000 // encoding/json's own cap
		b, err := Scan(body, Limits{MaxDepth: depth})
		if valid := json.Valid(body); valid != (err == nil) {
			t.Fatalf("Scan: %v; json.Valid: %v", err, valid)
		}
		if err != nil {
			return
		}
		if b.Cost.Bytes != len(body) {
			t.Errorf("Cost.Bytes = %d, want %d", b.Cost.Bytes, len(body))
		}
		trimmed := bytes.TrimLeft(body, " \t\r\n")
		switch trimmed[0] {
		case '{':
			if b.Batch || len(b.Messages) != 1 {
				t.Fatalf("object: Batch %v, %d messages", b.Batch, len(b.Messages))
			}
			checkMessage(t, body, &b.Messages[0])
		case '[':
			var elems []json.RawMessage
			if err := json.Unmarshal(body, &elems); err != nil {
				t.Fatal(err)
			}
			if !b.Batch || len(b.Messages) != len(elems) {
				t.Fatalf("array of %d: Batch %v, %d messages", len(elems), b.Batch, len(b.Messages))
			}
			for i, e := range elems {
				if !bytes.Equal(b.Messages[i].Raw, e) {
					t.Errorf("element %d: Raw %s, want %s", i, b.Messages[i].Raw, e)
				}
				if e[0] == '{' {
					checkMessage(t, e, &b.Messages[i])
				}
			}
		default:
			if b.Batch || b.Messages != nil {
				t.Errorf("scalar: Batch %v, Messages %v", b.Batch, b.Messages)
			}
		}
	})
}

// checkMessage checks m against encoding/json's decoding of msg, an
// object.
func checkMessage(t *testing.T, msg []byte, m *Message) {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg, &fields); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.ID, fields["id"]) || (m.ID == nil) != (fields["id"] == nil) {
		t.Errorf("ID %s, want %s", m.ID, fields["id"])
	}
	if !bytes.Equal(m.JSONRPC, fields["jsonrpc"]) || (m.JSONRPC == nil) != (fields["jsonrpc"] == nil) {
		t.Errorf("JSONRPC %s, want %s", m.JSONRPC, fields["jsonrpc"])
	}
	var version struct {
		V string `json:"jsonrpc"`
	}
	if (json.Unmarshal(msg, &version) == nil && version.V == "2.0") != m.Version2() {
		t.Errorf("Version2 %v for jsonrpc %s", m.Version2(), m.JSONRPC)
	}
	var method string
	if v := fields["method"]; len(v) > 0 && v[0] == '"' {
		if err := json.Unmarshal(v, &method); err != nil {
			t.Fatal(err)
		}
	}
	if m.Method != method {
		t.Errorf("Method %q, want %q", m.Method, method)
	}
	_, result := fields["result"]
	_, rpcErr := fields["error"]
	if m.Response != (result || rpcErr) {
		t.Errorf("Response %v, want %v", m.Response, result || rpcErr)
	}
	if !bytes.Equal(m.RawParams, fields["params"]) {
		t.Errorf("RawParams %s, want %s", m.RawParams, fields["params"])
	}
	params := members(t, fields["params"])
	checkMembers(t, "params", m.Params, params)
	var meta []Member
	for _, p := range params {
		if p.Key == "_meta" {
			meta = members(t, p.Value)
		}
	}
	checkMembers(t, "_meta", m.Meta, meta)
	for _, p := range params {
		if !bytes.Equal(m.Param(p.Key), lastOf(params, p.Key)) {
			t.Errorf("Param(%q) = %s, want %s", p.Key, m.Param(p.Key), lastOf(params, p.Key))
		}
	}
	for _, p := range meta {
		if !bytes.Equal(m.MetaValue(p.Key), lastOf(meta, p.Key)) {
			t.Errorf("MetaValue(%q) = %s, want %s", p.Key, m.MetaValue(p.Key), lastOf(meta, p.Key))
		}
	}
}

// members decodes the members of obj in order, with encoding/json's
// tokenizer; nil unless obj is an object.
func members(t *testing.T, obj json.RawMessage) []Member {
	t.Helper()
	if len(obj) == 0 || obj[0] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	ms := []Member{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, Member{Key: k.(string), Value: v})
	}
	return ms
}

func checkMembers(t *testing.T, what string, got, want []Member) {
	t.Helper()
	if (got == nil) != (want == nil) || len(got) != len(want) {
		t.Fatalf("%s: %d members (nil %v), want %d (nil %v)", what, len(got), got == nil, len(want), want == nil)
	}
	for i := range want {
		if got[i].Key != want[i].Key || !bytes.Equal(got[i].Value, want[i].Value) {
			t.Errorf("%s member %d: %q: %s, want %q: %s", what, i, got[i].Key, got[i].Value, want[i].Key, want[i].Value)
		}
		if !utf8.ValidString(got[i].Key) {
			t.Errorf("%s member %d: key %q is not UTF-8", what, i, got[i].Key)
		}
	}
}

func lastOf(ms []Member, key string) json.RawMessage {
	var v json.RawMessage
	for _, m := range ms {
		if m.Key == key {
			v = m.Value
		}
	}
	return v
}

// BenchmarkScan scans a typical tools/call.
func BenchmarkScan(b *testing.B) {
	body := []byte(typicalCall)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := Scan(body, Limits{MaxValues: 1 << 20, MaxDepth: 64}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalEnvelope is what Scan replaces: encoding/json decoding
// the same body's envelope.
func BenchmarkUnmarshalEnvelope(b *testing.B) {
	body := []byte(typicalCall)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			b.Fatal(err)
		}
	}
}
