package mcptool

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
)

// One line of the stdio wire: reading it, parsing it, and refusing it when
// it is too deep or not a message.

// maxStdioDepth is the deepest nesting of a line's JSON that go-sdk's
// message decoder accepts.
const maxStdioDepth = 1000

// readLine reads one line of at most max bytes. A longer line is consumed
// and reported as tooLong. err is set at the end of input, which may follow
// a last line without a newline.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// parseLine decodes one line into a message, or says how to answer it: the
// id to answer (nil for null), the JSON-RPC error code and message.
func parseLine(line []byte) (msg jsonrpc.Message, id json.RawMessage, code int64, reason string) {
	line = bytes.TrimSpace(line)
	// go-sdk's decoder stops after the first value; a line is one value.
	if !json.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "parse error: invalid JSON"
	}
	if line[0] != '[' {
		m, err := sdkpatch.DecodeMessage(liftQuery(liftTaskParam(line)), maxStdioDepth)
		if err == nil {
			return m, nil, 0, ""
		}
		reason = err.Error()
	}
	if tooDeep(line, maxStdioDepth) {
		return nil, nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: JSON nested deeper than %d levels", maxStdioDepth)
	}
	if line[0] == '[' {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported"
	}
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &env) == nil && len(env.ID) > 0 && (env.ID[0] == '"' || env.ID[0] == '-' || env.ID[0] >= '0' && env.ID[0] <= '9') {
		id = env.ID
	}
	return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: " + reason
}

// tooDeep reports whether the valid JSON text data nests arrays and objects
// deeper than max.
func tooDeep(data []byte, max int) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			if depth++; depth > max {
				return true
			}
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
}

// errorMessage is a JSON-RPC error response; a nil id is null.
func errorMessage(id json.RawMessage, code int64, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	return data
}
