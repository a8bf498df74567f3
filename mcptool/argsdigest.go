package mcptool

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"io"
)

// argsDigest identifies a call's arguments in the requestState issued for
// it (input.go), so that a state presented with other arguments is refused.
// It is exact: two arguments share a digest only when they are the same
// JSON tokens in the same order, whitespace aside. A string counts by its
// code points (escapes decoded, as the plan and encoding/json decode them);
// a number by its text (2^53 and 2^53+1 differ, and so do 1 and 1.0, which
// a json.RawMessage field tells apart); members in the order sent,
// duplicates kept (a decoder that takes the last of two, or folds case,
// reads {"a":1,"A":2} and {"A":2,"a":1} differently). Arguments that are
// not one JSON value are digested as they are.
func argsDigest(args json.RawMessage) []byte {
	h := sha256.New()
	if canon, ok := canonicalTokens(args); ok {
		h.Write([]byte{'j'})
		h.Write(canon)
	} else {
		h.Write([]byte{'r'})
		h.Write(args)
	}
	return h.Sum(nil)
}

// canonicalTokens encodes the tokens of the JSON value args so that the
// encoding of two token sequences is the same only when they are: each
// token a tag byte, strings and numbers followed by their length and
// bytes. ok is false when args is not one JSON value.
func canonicalTokens(args []byte) (canon []byte, ok bool) {
	if !json.Valid(args) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	canon = make([]byte, 0, len(args)+8)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return canon, true
		}
		if err != nil {
			return nil, false
		}
		switch v := tok.(type) {
		case json.Delim:
			canon = append(canon, byte(v))
		case string:
			canon = binary.AppendUvarint(append(canon, 's'), uint64(len(v)))
			canon = append(canon, v...)
		case json.Number:
			canon = binary.AppendUvarint(append(canon, 'n'), uint64(len(v)))
			canon = append(canon, v...)
		case bool:
			if v {
				canon = append(canon, 't')
			} else {
				canon = append(canon, 'f')
			}
		case nil:
			canon = append(canon, 'z')
		default:
			return nil, false
		}
	}
}
