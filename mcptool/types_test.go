package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// fakeMessage looks like a protoc-generated message: a ProtoReflect method
// on its pointer, its fields internal state.
type fakeMessage struct {
	state int    //lint:ignore U1000 internal state, as generated messages have
	Name  string `protobuf:"bytes,1,opt,name=name,proto3" json:"name,omitempty"`
}

func (*fakeMessage) ProtoReflect() any { return nil }

func TestProtoMessageNeedsTypes(t *testing.T) {
	reg := mcptool.NewRegistry()
	for name, fn := range map[string]any{
		"arg":    func(context.Context, *fakeMessage) (string, error) { return "", nil },
		"result": func(context.Context) (*fakeMessage, error) { return nil, nil },
	} {
		err := reg.Add(name, fn, mcptool.NoDescription())
		require.Error(t, err, name)
		assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
		assert.Contains(t, err.Error(), "mcptool_test.fakeMessage")
		assert.Contains(t, err.Error(), "mcpproto.Types()", name)
	}
}

// UnimplementedLibraryServer is what protoc-gen-go-grpc generates for a
// server to embed: a stub of every method.
type UnimplementedLibraryServer struct{}

func (UnimplementedLibraryServer) GetBook(context.Context, *struct{}) (string, error) {
	return "", errors.New("unimplemented")
}
func (UnimplementedLibraryServer) ListBooks(context.Context, *struct{}) (string, error) {
	return "", errors.New("unimplemented")
}
func (UnimplementedLibraryServer) DeleteBook(context.Context, *struct{}) (string, error) {
	return "", errors.New("unimplemented")
}

//lint:ignore U1000 generated servers have it; AddMethods must skip it
func (UnimplementedLibraryServer) mustEmbedUnimplementedLibraryServer() {}

type libraryServer struct {
	UnimplementedLibraryServer
}

func (*libraryServer) GetBook(context.Context, *struct{}) (string, error)  { return "book", nil }
func (libraryServer) ListBooks(context.Context, *struct{}) (string, error) { return "books", nil }

func TestAddMethodsSkipsUnimplementedStubs(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.AddMethods(&libraryServer{}, mcptool.Prefix("lib_"), mcptool.Method("GetBook", mcptool.NoDescription()), mcptool.Method("ListBooks", mcptool.NoDescription())))
	var names []string
	for _, tl := range reg.Tools() {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"lib_get_book", "lib_list_books"}, names, "DeleteBook is the embedded stub")
	res, err := reg.Call(context.Background(), "lib_list_books", nil)
	require.NoError(t, err)
	assert.False(t, res.IsError)
}

// tripleHandler owns type triple: its JSON is a string, so results are wrapped.
type triple struct{ s string }

type tripleHandler struct{ schemaErr error }

func (h tripleHandler) Schema(t reflect.Type) (*jsonschema.Schema, error) {
	if t != reflect.TypeFor[triple]() && t != reflect.TypeFor[*triple]() {
		return nil, nil
	}
	if h.schemaErr != nil {
		return nil, h.schemaErr
	}
	if t.Kind() == reflect.Pointer { // the result: a string
		return &jsonschema.Schema{Type: "string"}, nil
	}
	return &jsonschema.Schema{Type: "object"}, nil
}

func (tripleHandler) Decode(data []byte, dst any) error {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	dst.(*triple).s = string(data)
	return nil
}

func (tripleHandler) Encode(v any) ([]byte, error) {
	return json.Marshal(strings.Repeat(v.(*triple).s, 3))
}

func TestTypeHandlerCallPath(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Types(tripleHandler{}), mcptool.MaxDepth(3))
	require.NoError(t, reg.Add("t", func(_ context.Context, in *triple) (*triple, error) { return in, nil }, mcptool.NoDescription()))
	tl, _ := reg.Tool("t")
	assert.JSONEq(t, `{"type":"object","properties":{"result":{"type":"string"}},"required":["result"],"additionalProperties":false}`, string(tl.OutputSchema.(json.RawMessage)))

	res, err := reg.Call(context.Background(), "t", json.RawMessage(`{"a":1}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"result":"{\"a\":1}{\"a\":1}{\"a\":1}"}`, string(res.StructuredContent.(json.RawMessage)))

	res, err = reg.Call(context.Background(), "t", nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"result":"{}{}{}"}`, string(res.StructuredContent.(json.RawMessage)), "no arguments read as {}")

	res, err = reg.Call(context.Background(), "t", json.RawMessage(`{"a":[1,{"b\"c":{"d":[]}}]}`))
	require.NoError(t, err)
	require.True(t, res.IsError)
	text := textOf(res)
	assert.Equal(t, "invalid arguments:\n- a[1].b\"c: is nested more than 3 levels deep (maxDepth)", text)

	_, err = reg.Call(context.Background(), "t", json.RawMessage(`{"a":`))
	require.Error(t, err, "malformed JSON is a protocol error")

	bad := mcptool.NewRegistry(mcptool.Types(tripleHandler{schemaErr: errors.New("no schema for you")}))
	err = bad.Add("t", func(_ context.Context, in *triple) error { return nil }, mcptool.NoDescription())
	require.Error(t, err)
	var de *mcpreflect.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, err.Error(), "mcptool_test.triple: no schema for you")
}

func TestProtoMessageFieldNeedsTypes(t *testing.T) {
	type args struct {
		Book *fakeMessage `json:"book"`
	}
	err := mcptool.NewRegistry().Add("nested", func(context.Context, args) error { return nil }, mcptool.NoDescription())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mcpproto.Types()")
}

// fakeStream has the methods of a gRPC stream.
type fakeStream interface {
	SendMsg(m any) error
	RecvMsg(m any) error
}

type streamingServer struct{}

func (streamingServer) Ping(context.Context) (string, error)   { return "pong", nil }
func (streamingServer) Watch(*struct{}, fakeStream) error      { return nil }
func (streamingServer) Chat(context.Context, fakeStream) error { return nil }

func TestAddMethodsSkipsStreamingMethods(t *testing.T) {
	var logs strings.Builder
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewTextHandler(&logs, nil))), mcptool.NoDescription())
	require.NoError(t, reg.AddMethods(streamingServer{}))
	require.Len(t, reg.Tools(), 1)
	assert.Equal(t, "ping", reg.Tools()[0].Name)
	assert.Contains(t, logs.String(), "method=Watch")
	assert.Contains(t, logs.String(), "method=Chat")
}
