package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

type genArgs struct {
	_     struct{} `mcp:"title=Greeter,readOnly,openWorld=false"`
	Name  string   `json:"name" validate:"min=1"`
	Times int      `json:"times,omitempty" jsonschema:"default=1" validate:"omitempty,max=3"`
}

// genArgsPtr is a named pointer type: Add must hand the function exactly In.
type genArgsPtr *genArgs

func genGreet(in genArgs) string {
	s := ""
	for range in.Times {
		s += "hi " + in.Name + ";"
	}
	return s
}

func TestGenericAdd(t *testing.T) {
	r := mcptool.NewRegistry()
	var gotCtx context.Context
	require.NoError(t, mcptool.Add(r, "greet", func(ctx context.Context, in genArgs) (string, error) {
		gotCtx = ctx
		return genGreet(in), nil
	}, mcptool.Description("Greets.")))
	require.NoError(t, mcptool.Add(r, "greet_ptr", func(ctx context.Context, in *genArgs) (string, error) {
		if in == nil {
			return "", errors.New("nil argument")
		}
		return genGreet(*in), nil
	}))
	require.NoError(t, mcptool.Add(r, "greet_named_ptr", func(ctx context.Context, in genArgsPtr) (string, error) {
		return genGreet(*in), nil
	}))
	require.NoError(t, r.Add("greet_reflect", func(ctx context.Context, in genArgs) (string, error) {
		return genGreet(in), nil
	}))
	require.NoError(t, r.Add("greet_reflect_named_ptr", func(in genArgsPtr) (string, error) {
		return genGreet(*in), nil
	}))

	// Both registration paths produce the same definition.
	generic, reflected := regTool(t, r, "greet"), regTool(t, r, "greet_reflect")
	delete(generic, "name")
	delete(generic, "description")
	delete(reflected, "name")
	assert.Equal(t, reflected, generic)
	def, _ := r.Tool("greet")
	assert.Equal(t, "Greeter", def.Title)
	assert.Equal(t, "Greets.", def.Description)
	assert.Equal(t, true, regTool(t, r, "greet_ptr")["annotations"].(map[string]any)["readOnlyHint"])

	ctx := context.WithValue(context.Background(), regCtxKey{}, "v")
	for _, name := range []string{"greet", "greet_ptr", "greet_named_ptr", "greet_reflect", "greet_reflect_named_ptr"} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, "hi ann;", regOK(t, r, name, `{"name":"ann"}`), "default times=1")
			assert.Equal(t, "hi bo;hi bo;", regOK(t, r, name, `{"name":"bo","times":2}`))
			assert.Equal(t, "", regOK(t, r, name, `{"name":"cy","times":0}`), "explicit 0 is not the default")
			msg := regFail(t, r, name, `{"name":"","times":4}`)
			assert.Contains(t, msg, "name:")
			assert.Contains(t, msg, "times:")
			_, err := r.Call(ctx, name, json.RawMessage(`{"name":`))
			assert.Equal(t, mcptool.CodeMalformedArguments, mcptool.CodeOf(err))
		})
	}
	_, err := r.Call(ctx, "greet", json.RawMessage(`{"name":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, "v", gotCtx.Value(regCtxKey{}), "the call's context reaches the function")
}

func TestGenericAddResults(t *testing.T) {
	type None struct{}
	type Out struct {
		Sum int `json:"sum"`
	}
	r := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(r, "struct", func(ctx context.Context, _ None) (Out, error) { return Out{Sum: 3}, nil }))
	require.NoError(t, mcptool.Add(r, "ints", func(ctx context.Context, _ None) ([]int, error) { return nil, nil }))
	require.NoError(t, mcptool.Add(r, "content", func(ctx context.Context, _ None) (mcp.Content, error) { return mcptool.Text("c"), nil }))
	require.NoError(t, mcptool.Add(r, "any", func(ctx context.Context, _ None) (any, error) { return "dyn", nil }))
	require.NoError(t, mcptool.Add(r, "fails", func(ctx context.Context, _ None) (Out, error) { return Out{Sum: 1}, mcptool.Errorf("no sum today") }))

	res := regCall(t, r, "struct", "")
	assert.JSONEq(t, `{"sum":3}`, regText(t, res))
	assert.JSONEq(t, `{"sum":3}`, regMarshal(t, res.StructuredContent))
	assert.Contains(t, regTool(t, r, "struct"), "outputSchema")

	res = regCall(t, r, "ints", "")
	assert.JSONEq(t, `{"result":[]}`, regMarshal(t, res.StructuredContent))
	assert.Equal(t, "c", regOK(t, r, "content", ""))
	assert.NotContains(t, regTool(t, r, "content"), "outputSchema")
	assert.Equal(t, "dyn", regOK(t, r, "any", ""))
	assert.Equal(t, "no sum today", regFail(t, r, "fails", ""), "the value returned with an error is dropped")
	assert.Regexp(t, `^internal error \(ref [0-9a-f]{12}\)$`, regFailQuiet(t, "nil_ptr", func(r *mcptool.Registry) error {
		return mcptool.Add(r, "nil_ptr", func(ctx context.Context, _ None) (*Out, error) { return nil, nil })
	}))
}

// regFailQuiet registers a tool on a registry with a discarded log and
// returns the text of its isError result.
func regFailQuiet(t *testing.T, name string, add func(*mcptool.Registry) error) string {
	t.Helper()
	var buf bytes.Buffer
	r := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewTextHandler(&buf, nil))))
	require.NoError(t, add(r))
	return regFail(t, r, name, "")
}

func TestGenericAddRejects(t *testing.T) {
	type In struct {
		A int `json:"a"`
	}
	r := mcptool.NewRegistry()

	err := mcptool.Add[In, string](r, "nil_fn", nil)
	assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
	var de *mcpreflect.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, err.Error(), "nil function")

	tests := []struct {
		name    string
		add     func() error
		msgPart string
	}{
		{"int In", func() error {
			return mcptool.Add(r, "x", func(context.Context, int) (string, error) { return "", nil })
		}, "must be a struct"},
		{"pointer to pointer In", func() error {
			return mcptool.Add(r, "x", func(context.Context, **In) (string, error) { return "", nil })
		}, "must be a struct"},
		{"map In", func() error {
			return mcptool.Add(r, "x", func(context.Context, map[string]any) (string, error) { return "", nil })
		}, "must be a struct"},
		{"any In", func() error {
			return mcptool.Add(r, "x", func(context.Context, any) (string, error) { return "", nil })
		}, "must be a struct"},
		{"chan Out", func() error {
			return mcptool.Add(r, "x", func(context.Context, In) (chan int, error) { return nil, nil })
		}, "chan"},
		{"bad tag", func() error {
			return mcptool.Add(r, "x", func(context.Context, struct {
				_ struct{} `mcp:"readOnly,idempotent"`
			}) (string, error) {
				return "", nil
			})
		}, "meaningless hint combination"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.add()
			require.Error(t, err)
			assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
			var de *mcpreflect.DefinitionError
			assert.ErrorAs(t, err, &de)
			assert.Contains(t, err.Error(), tt.msgPart)
		})
	}
	assert.Equal(t, 0, len(r.Tools()))
}
