package sdkpatch

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sjson "github.com/segmentio/encoding/json"
)

// DecodeMessage is [jsonrpc.DecodeMessage] without its cost at start:
// go-sdk decodes through a json.Decoder, which allocates a 32 KB buffer
// for each message and again for its method, four before the first
// tools/list of a stdio session (initialize, notifications/initialized):
// enough to bring a garbage collection to the first answer of most starts
// (mcpgen's bench/README.md). A request is decoded here by the same decoder,
// segmentio's with go-sdk's flag, from the bytes themselves, into go-sdk's
// wireDecode; anything else (a response, a line that could nest deeper
// than maxDepth, go-sdk's limit, any failure) goes to DecodeMessage, so every error
// is go-sdk's own.
func DecodeMessage(data []byte, maxDepth int) (jsonrpc.Message, error) {
	if bytes.Count(data, []byte("{"))+bytes.Count(data, []byte("[")) > maxDepth {
		return jsonrpc.DecodeMessage(data)
	}
	const flags = sjson.DontMatchCaseInsensitiveStructFields
	var msg struct {
		VersionTag string          `json:"jsonrpc"`
		ID         any             `json:"id,omitempty"`
		Method     json.RawMessage `json:"method"`
		Params     json.RawMessage `json:"params,omitempty"`
		Result     json.RawMessage `json:"result,omitempty"`
		Error      *jsonrpc.Error  `json:"error,omitempty"`
	}
	var method string
	if rest, err := sjson.Parse(data, &msg, flags); err != nil || len(rest) > 0 || msg.VersionTag != "2.0" || len(msg.Method) == 0 {
		return jsonrpc.DecodeMessage(data)
	}
	if rest, err := sjson.Parse(msg.Method, &method, flags); err != nil || len(rest) > 0 {
		return jsonrpc.DecodeMessage(data)
	}
	id, err := jsonrpc.MakeID(msg.ID)
	if err != nil {
		return jsonrpc.DecodeMessage(data)
	}
	return &jsonrpc.Request{Method: method, ID: id, Params: msg.Params}, nil
}

// Upstream: go-sdk's internal/json.Unmarshal parsing the bytes it is
// given rather than through a json.Decoder would retire this.
