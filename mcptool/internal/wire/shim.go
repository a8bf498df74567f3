// Package wire is a temporary stand-in for the one-pass scanner of branch
// t34scan, with its API; it is deleted when that branch is merged.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Limits caps what a body may hold.
type Limits struct{ MaxValues, MaxDepth int }

// Cost is what decoding a body costs.
type Cost struct{ Values, Containers, Keys, MaxDepth, Bytes int }

// Charge is the cost in bytes.
func (c Cost) Charge() int64 { return int64(c.Bytes) }

// Member is one member of an object.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Message is one JSON-RPC message.
type Message struct {
	ID       json.RawMessage
	Method   string
	Params   []Member
	Meta     []Member
	Response bool
}

// Param returns the raw value of params member key.
func (m *Message) Param(key string) json.RawMessage {
	for _, p := range m.Params {
		if p.Key == key {
			return p.Value
		}
	}
	return nil
}

// MetaValue returns the raw value of _meta member key.
func (m *Message) MetaValue(key string) json.RawMessage {
	for _, p := range m.Meta {
		if p.Key == key {
			return p.Value
		}
	}
	return nil
}

// Body is a scanned body.
type Body struct {
	Messages []Message
	Batch    bool
	Cost     Cost
}

// SyntaxError is malformed JSON.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// LimitError is a body beyond a cap.
type LimitError struct {
	Cap   string
	Limit int
}

func (e *LimitError) Error() string { return fmt.Sprintf("%s above %d", e.Cap, e.Limit) }

// Scan reads body once.
func Scan(body []byte, lim Limits) (Body, error) {
	b := Body{Cost: Cost{Bytes: len(body)}}
	t := bytes.TrimSpace(body)
	var raws []json.RawMessage
	if len(t) > 0 && t[0] == '[' {
		b.Batch = true
		if err := json.Unmarshal(t, &raws); err != nil {
			return b, &SyntaxError{Msg: err.Error()}
		}
	} else {
		if !json.Valid(t) {
			return b, &SyntaxError{Msg: "invalid JSON"}
		}
		raws = []json.RawMessage{t}
	}
	for _, raw := range raws {
		members, err := object(raw)
		if err != nil {
			return b, err
		}
		var m Message
		for _, mb := range members {
			switch mb.Key {
			case "id":
				m.ID = mb.Value
			case "method":
				_ = json.Unmarshal(mb.Value, &m.Method)
			case "params":
				if m.Params, err = object(mb.Value); err != nil {
					m.Params = nil
				}
				for _, p := range m.Params {
					if p.Key == "_meta" {
						m.Meta, _ = object(p.Value)
					}
				}
			case "result", "error":
				m.Response = true
			}
		}
		b.Messages = append(b.Messages, m)
	}
	return b, nil
}

func object(raw json.RawMessage) ([]Member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, &SyntaxError{Msg: err.Error()}
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	var out []Member
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, &SyntaxError{Msg: err.Error()}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, &SyntaxError{Msg: err.Error()}
		}
		out = append(out, Member{Key: k.(string), Value: v})
	}
	return out, nil
}
