package sdkpatch

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWithResultTypeCopiesEveryField fails when go-sdk adds an exported
// field to CallToolResult that WithResultType does not copy, and pins what
// it relies on: a result built in Go marshals without resultType, and one
// decoded from JSON keeps it (NeedsInput, MarshalJSON).
func TestWithResultTypeCopiesEveryField(t *testing.T) {
	in := &mcp.CallToolResult{}
	v := reflect.ValueOf(in).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		// A value that is not the zero value, whatever the field's type.
		switch fv := v.Field(i); fv.Kind() {
		case reflect.Bool:
			fv.SetBool(true)
		case reflect.String:
			fv.SetString("x-" + f.Name)
		case reflect.Slice:
			fv.Set(reflect.MakeSlice(fv.Type(), 1, 1))
		case reflect.Map:
			m := reflect.MakeMap(fv.Type())
			m.SetMapIndex(reflect.ValueOf("k").Convert(fv.Type().Key()), reflect.Zero(fv.Type().Elem()))
			fv.Set(m)
		case reflect.Interface:
			fv.Set(reflect.ValueOf("structured"))
		default:
			t.Fatalf("CallToolResult.%s has kind %s: teach this test (and WithResultType) about it", f.Name, fv.Kind())
		}
	}
	in.SetError(errors.New("kept for sending middleware"))
	for _, input := range []bool{false, true} {
		out := WithResultType(in, input)
		ov := reflect.ValueOf(out).Elem()
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				assert.Equal(t, v.Field(i).Interface(), ov.Field(i).Interface(), "field %s", f.Name)
			}
		}
		assert.EqualError(t, out.GetError(), "kept for sending middleware")
		raw, err := json.Marshal(&mcp.CallToolResult{Content: []mcp.Content{}})
		require.NoError(t, err)
		assert.NotContains(t, string(raw), "resultType", "a result built here has none")
		raw, err = json.Marshal(WithResultType(&mcp.CallToolResult{Content: []mcp.Content{}}, input))
		require.NoError(t, err)
		want := map[bool]string{false: `"resultType":"complete"`, true: `"resultType":"input_required"`}[input]
		assert.True(t, strings.Contains(string(raw), want), "%s has %s", raw, want)
	}
	assert.False(t, WithResultType(in, false).NeedsInput())
	assert.True(t, WithResultType(in, true).NeedsInput())
}

// TestCompleteToolsList pins what CompleteToolsList relies on: a
// ListToolsResult built in Go marshals without resultType, and the one it
// returns marshals with "complete", its tools an empty array, each call a
// copy of its own.
func TestCompleteToolsList(t *testing.T) {
	plain, err := json.Marshal(&mcp.ListToolsResult{Tools: []*mcp.Tool{}})
	require.NoError(t, err)
	assert.NotContains(t, string(plain), "resultType")
	a := CompleteToolsList()
	a.Tools = append(a.Tools, &mcp.Tool{Name: "x"})
	b := CompleteToolsList()
	got, err := json.Marshal(b)
	require.NoError(t, err)
	assert.JSONEq(t, `{"tools":[],"resultType":"complete","ttlMs":0,"cacheScope":""}`, string(got))
}
