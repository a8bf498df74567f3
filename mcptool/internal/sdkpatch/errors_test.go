package sdkpatch

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pins what MethodNotFound and ResponseCode work around: go-sdk rewords a
// handler's -32601 and sends code 0 for a plain error, such as its refusal
// of a request before initialize.
func TestGoSDKErrorWording(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok {
				switch call.Params.Name {
				case "plain":
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the reason"}
				case "kept":
					return nil, MethodNotFound("the reason")
				case "go":
					return nil, errors.New("a plain error")
				}
			}
			return next(ctx, method, req)
		}
	})
	w := connect(t, srv)

	before := w.call("early", "tools/list", `{}`)
	r := decode(t, before)
	if r.Error == nil || r.Error.Code != 0 || !strings.Contains(r.Error.Message, beforeInitialize) {
		t.Errorf("a request before initialize: %s; want code 0 with %q (ResponseCode can go when this changes)", before, beforeInitialize)
	}
	if fixed := responseCode(t, before); fixed.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(fixed.Message, beforeInitialize) {
		t.Errorf("ResponseCode: %+v, want -32600", fixed)
	}

	// As a transport's Write sees it: the handler's error itself.
	if out := ResponseCode(&jsonrpc.Response{Error: errors.New("x")}); !errors.Is(out.Error, &jsonrpc.Error{Code: jsonrpc.CodeInternalError}) {
		t.Errorf("ResponseCode of a plain error: %v", out.Error)
	}

	w.initialize("2025-11-25")
	for _, tc := range []struct {
		tool, wire string
		code       int64
	}{
		{"plain", `method not found: "tools/call"`, jsonrpc.CodeMethodNotFound}, // go-sdk's rewording
		{"kept", "the reason", jsonrpc.CodeMethodNotFound},
		{"go", "a plain error", 0},
	} {
		b := w.call(tc.tool, "tools/call", `{"name":"`+tc.tool+`","arguments":{}}`)
		r := decode(t, b)
		if r.Error == nil || r.Error.Code != tc.code || r.Error.Message != tc.wire {
			t.Errorf("%s: %s, want code %d %q", tc.tool, b, tc.code, tc.wire)
		}
		if tc.code == 0 {
			if fixed := responseCode(t, b); fixed.Code != jsonrpc.CodeInternalError || fixed.Message != tc.wire {
				t.Errorf("ResponseCode: %+v, want -32603 %q", fixed, tc.wire)
			}
		}
	}
}

// responseCode is the error ResponseCode makes of a response's JSON, as a
// transport would decode and pass it.
func responseCode(t *testing.T, b []byte) *jsonrpc.Error {
	t.Helper()
	m, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonrpc.EncodeMessage(ResponseCode(m.(*jsonrpc.Response)))
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Error *jsonrpc.Error }
	if err := json.Unmarshal(out, &r); err != nil || r.Error == nil {
		t.Fatalf("%s: %v", out, err)
	}
	return r.Error
}
