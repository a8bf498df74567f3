// Package wire reads a JSON-RPC request body in one pass: it checks that
// the body is JSON, counts what decoding it will cost ([Cost]), and
// captures the fields that route it (each message's id, method, params'
// members and params._meta's members), as sub-slices of the body.
//
// Keys are matched case-sensitively, as go-sdk's decoder matches them
// (encoding/json would also take "ID" or "Method" for "id" or "method").
// When an object repeats a key, the last one wins, as in encoding/json.
package wire

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Limits caps what [Scan] accepts; a zero field is no cap.
type Limits struct {
	MaxValues int // JSON values in the body: scalars, objects and arrays
	MaxDepth  int // nesting of objects and arrays (the body's own is 1)
	MaxBatch  int // elements of a batch (a body that is a JSON array)
}

// Member is a member of an object: its key, decoded, and its value as it
// is in the body (a sub-slice, not a copy, without surrounding space).
type Member struct {
	Key   string
	Value json.RawMessage
}

// Message is what [Scan] captures of one JSON-RPC message.
type Message struct {
	// Raw is the message as it is in the body, whatever its type.
	Raw json.RawMessage
	// JSONRPC is the value of "jsonrpc" as in the body; nil when absent.
	JSONRPC json.RawMessage
	// ID is the value of "id" as in the body ("null" included); nil when
	// absent.
	ID json.RawMessage
	// Method is "method" decoded when it is a JSON string, else "".
	Method string
	// RawParams is the value of "params" as in the body, whatever its
	// type; nil when absent.
	RawParams json.RawMessage
	// Params are the members of "params" in order, duplicates included;
	// nil unless params is an object (empty, not nil, for {}).
	Params []Member
	// Meta are the members of params' "_meta" in order, duplicates
	// included; nil unless it is an object.
	Meta []Member
	// Response reports that the message has "result" or "error": it is a
	// response, not a request or notification.
	Response bool
}

// Version2 reports whether the message's "jsonrpc" is the string "2.0",
// as go-sdk requires of every message (it answers any other with "invalid
// message version tag").
func (m *Message) Version2() bool {
	v := m.JSONRPC
	if string(v) == `"2.0"` {
		return true // no escapes: the common case, without decoding
	}
	return len(v) >= 2 && v[0] == '"' && decodeString(v[1:len(v)-1]) == "2.0"
}

// Param returns the value of params' member key (the last one when params
// repeats it, as encoding/json decodes it), or nil.
func (m *Message) Param(key string) json.RawMessage { return last(m.Params, key) }

// MetaValue returns the value of params._meta's member key (the last one
// when _meta repeats it), or nil.
func (m *Message) MetaValue(key string) json.RawMessage { return last(m.Meta, key) }

func last(ms []Member, key string) json.RawMessage {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Key == key {
			return ms[i].Value
		}
	}
	return nil
}

// Body is what [Scan] found in a request body.
type Body struct {
	// Messages are the body's messages: the one object, or each element of
	// a batch (an element that is no object has only Raw). Nil when the
	// body is neither an object nor an array.
	Messages []Message
	// Batch reports that the body is a JSON array.
	Batch bool
	// Cost is what the body holds, counted by structure.
	Cost Cost
}

// SyntaxError is a body that is not JSON.
type SyntaxError struct {
	Offset int64 // of the byte where the error was found
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.Msg)
}

// LimitError is a body beyond a cap of [Limits].
type LimitError struct {
	Cap   string // "values", "depth" or "batch"
	Limit int
}

func (e *LimitError) Error() string {
	switch e.Cap {
	case "depth":
		return fmt.Sprintf("request body nests JSON deeper than %d levels (MaxBodyDepth)", e.Limit)
	case "batch":
		return fmt.Sprintf("request body batches more than %d JSON-RPC messages", e.Limit)
	}
	return fmt.Sprintf("request body has more than %d JSON values (MaxBodyValues)", e.Limit)
}

// Scan reads body in one pass: it checks that it is one JSON value (RFC
// 8259, with space around it and nothing else), counts its cost, and
// captures its messages. The error is a *SyntaxError or a *LimitError, the
// first met; a body beyond a cap is not read further. Scan allocates only
// the Messages and the Member slices, and the strings of keys and methods
// it does not know.
func Scan(body []byte, lim Limits) (Body, error) {
	s := scanner{b: body, lim: lim}
	s.cost.Bytes = len(body)
	var out Body
	s.space()
	if s.i == len(s.b) {
		return out, s.errf("unexpected end of input")
	}
	var err error
	switch s.b[s.i] {
	case '{':
		out.Messages = make([]Message, 1)
		err = s.message(&out.Messages[0], 0)
	case '[':
		out.Batch = true
		out.Messages, err = s.batch()
	default:
		err = s.value(0)
	}
	if err == nil {
		s.space()
		if s.i < len(s.b) {
			err = s.errf("invalid character %s after top-level value", quoteChar(s.b[s.i]))
		}
	}
	out.Cost = s.cost
	return out, err
}

type scanner struct {
	b    []byte
	i    int
	lim  Limits
	cost Cost
}

func (s *scanner) errf(format string, args ...any) error {
	return &SyntaxError{Offset: int64(s.i), Msg: fmt.Sprintf(format, args...)}
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	q := strconv.Quote(string(c))
	return "'" + q[1:len(q)-1] + "'"
}

func (s *scanner) space() { s.i = skipSpace(s.b, s.i) }

// count notes one more value at nesting depth d (0: the body itself), a
// container when open.
func (s *scanner) count(d int, open bool) error {
	s.cost.Values++
	if s.lim.MaxValues > 0 && s.cost.Values > s.lim.MaxValues {
		return &LimitError{Cap: "values", Limit: s.lim.MaxValues}
	}
	if open {
		s.cost.Containers++
		if d+1 > s.cost.MaxDepth {
			s.cost.MaxDepth = d + 1
			if s.lim.MaxDepth > 0 && d+1 > s.lim.MaxDepth {
				return &LimitError{Cap: "depth", Limit: s.lim.MaxDepth}
			}
		}
	}
	return nil
}

// batch scans the array at s.i: each element that is an object is a
// message.
func (s *scanner) batch() ([]Message, error) {
	if err := s.count(0, true); err != nil {
		return nil, err
	}
	s.i++
	s.space()
	msgs := []Message{}
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return msgs, nil
	}
	for {
		s.space()
		if s.i == len(s.b) {
			return msgs, s.errf("unexpected end of input")
		}
		if s.lim.MaxBatch > 0 && len(msgs) == s.lim.MaxBatch {
			return msgs, &LimitError{Cap: "batch", Limit: s.lim.MaxBatch}
		}
		msgs = append(msgs, Message{})
		m := &msgs[len(msgs)-1]
		if s.b[s.i] == '{' {
			if err := s.message(m, 1); err != nil {
				return msgs, err
			}
		} else {
			start := s.i
			if err := s.value(1); err != nil {
				return msgs, err
			}
			m.Raw = s.b[start:s.i]
		}
		if done, err := s.next(']'); done || err != nil {
			return msgs, err
		}
	}
}

// next reads what follows a member or element: a comma (false), or the
// container's end (true).
func (s *scanner) next(end byte) (bool, error) {
	var c byte
	if s.i, c = afterValue(s.b, s.i, end); c != 0 {
		return c == end, nil
	}
	if s.i == len(s.b) {
		return false, s.errf("unexpected end of input")
	}
	if end == '}' {
		return false, s.errf("invalid character %s after object key:value pair", quoteChar(s.b[s.i]))
	}
	return false, s.errf("invalid character %s after array element", quoteChar(s.b[s.i]))
}

// object scans the object at s.i, at depth d, calling member with each
// key (its bytes as in the body, and whether they need decoding) once s.i
// is at the member's value; member scans the value.
func (s *scanner) object(d int, member func(key []byte, plain bool) error) error {
	if err := s.count(d, true); err != nil {
		return err
	}
	s.i++
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.space()
		if s.i == len(s.b) {
			return s.errf("unexpected end of input")
		}
		key, plain, err := s.key()
		if err != nil {
			return err
		}
		if err := member(key, plain); err != nil {
			return err
		}
		if done, err := s.next('}'); done || err != nil {
			return err
		}
	}
}

// raw scans the value at s.i, at depth d, and returns it.
func (s *scanner) raw(d int) (json.RawMessage, error) {
	start := s.i
	err := s.value(d)
	return s.b[start:s.i], err
}

// message scans the object at s.i, at depth d, into m.
func (s *scanner) message(m *Message, d int) error {
	start := s.i
	err := s.object(d, func(key []byte, plain bool) error {
		switch envelopeField(key, plain) {
		case "jsonrpc":
			v, err := s.raw(d + 1)
			m.JSONRPC = v
			return err
		case "id":
			v, err := s.raw(d + 1)
			m.ID = v
			return err
		case "method":
			vs := s.i
			v, err := s.raw(d + 1)
			if err == nil {
				m.Method = ""
				if v[0] == '"' {
					m.Method = s.text(v[1:len(v)-1], s.plainAt(vs))
				}
			}
			return err
		case "params":
			m.Params, m.Meta = nil, nil
			vs := s.i
			var err error
			if s.b[s.i] == '{' {
				m.Params = make([]Member, 0, 4)
				err = s.params(m, d+1)
			} else {
				err = s.value(d + 1)
			}
			m.RawParams = s.b[vs:s.i]
			return err
		case "result", "error":
			m.Response = true
		}
		return s.value(d + 1)
	})
	m.Raw = s.b[start:s.i]
	return err
}

// envelopeField is the key of a message's member when it is one that
// Scan captures, else "".
func envelopeField(key []byte, plain bool) string {
	if !plain {
		return envelopeField([]byte(decodeString(key)), true)
	}
	switch string(key) {
	case "jsonrpc":
		return "jsonrpc"
	case "id":
		return "id"
	case "method":
		return "method"
	case "params":
		return "params"
	case "result":
		return "result"
	case "error":
		return "error"
	}
	return ""
}

// params scans params' object at s.i, at depth d, into m.
func (s *scanner) params(m *Message, d int) error {
	return s.object(d, func(key []byte, plain bool) error {
		k := s.text(key, plain)
		if k == "_meta" {
			m.Meta = nil
			if s.b[s.i] == '{' {
				vs := s.i
				m.Meta = make([]Member, 0, 4)
				err := s.object(d+1, func(key []byte, plain bool) error {
					k := s.text(key, plain)
					v, err := s.raw(d + 2)
					m.Meta = append(m.Meta, Member{Key: k, Value: v})
					return err
				})
				m.Params = append(m.Params, Member{Key: k, Value: s.b[vs:s.i]})
				return err
			}
		}
		v, err := s.raw(d + 1)
		m.Params = append(m.Params, Member{Key: k, Value: v})
		return err
	})
}

// plainAt reports whether the string at offset i (its opening quote)
// needs no decoding; it was scanned already.
func (s *scanner) plainAt(i int) bool {
	for j := i + 1; j < len(s.b); j++ {
		c := s.b[j]
		if c == '"' {
			return true
		}
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return false
}

// text is the string whose bytes (between the quotes) are b: known names
// without allocating, others copied, escapes and invalid UTF-8 decoded as
// encoding/json decodes them.
func (s *scanner) text(b []byte, plain bool) string {
	if !plain {
		return decodeString(b)
	}
	if k, ok := known(b); ok {
		return k
	}
	return string(b)
}

// decodeString decodes the bytes of a JSON string already validated.
func decodeString(b []byte) string {
	q := make([]byte, 0, len(b)+2)
	q = append(append(append(q, '"'), b...), '"')
	var v string
	_ = json.Unmarshal(q, &v) // valid: scanned
	return v
}

// known returns the name of the protocol b spells, without allocating.
func known(b []byte) (string, bool) {
	switch string(b) {
	case "tools/call":
		return "tools/call", true
	case "tools/list":
		return "tools/list", true
	case "name":
		return "name", true
	case "arguments":
		return "arguments", true
	case "_meta":
		return "_meta", true
	case "task":
		return "task", true
	case "cursor":
		return "cursor", true
	case "requestState":
		return "requestState", true
	case "inputResponses":
		return "inputResponses", true
	case "progressToken":
		return "progressToken", true
	case "taskId":
		return "taskId", true
	case "io.modelcontextprotocol/protocolVersion":
		return "io.modelcontextprotocol/protocolVersion", true
	case "io.modelcontextprotocol/clientInfo":
		return "io.modelcontextprotocol/clientInfo", true
	case "io.modelcontextprotocol/clientCapabilities":
		return "io.modelcontextprotocol/clientCapabilities", true
	case "io.modelcontextprotocol/logLevel":
		return "io.modelcontextprotocol/logLevel", true
	case "tasks/get":
		return "tasks/get", true
	case "tasks/result":
		return "tasks/result", true
	case "tasks/cancel":
		return "tasks/cancel", true
	case "tasks/list":
		return "tasks/list", true
	case "server/discover":
		return "server/discover", true
	case "initialize":
		return "initialize", true
	case "ping":
		return "ping", true
	}
	return "", false
}
