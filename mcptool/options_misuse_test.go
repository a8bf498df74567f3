package mcptool_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

type misuseArgs struct {
	Q string `json:"q"`
}

type misuseService struct{}

func (misuseService) Search(context.Context, misuseArgs) (string, error) { return "", nil }

// TestRegistryOptionMisuse: a misused registry option is no panic in
// NewRegistry but an error, naming the option, from every registration.
func TestRegistryOptionMisuse(t *testing.T) {
	fn := func(_ context.Context, in misuseArgs) (string, error) { return in.Q, nil }
	for name, c := range map[string]struct {
		opts []mcptool.RegistryOption
		want []string
	}{
		"short StateKey":   {[]mcptool.RegistryOption{mcptool.StateKey(make([]byte, 16))}, []string{"StateKey", "16 bytes"}},
		"empty StateKey":   {[]mcptool.RegistryOption{mcptool.StateKey([]byte{})}, []string{"StateKey", "0 bytes"}},
		"long StateKey":    {[]mcptool.RegistryOption{mcptool.StateKey(make([]byte, 33))}, []string{"StateKey", "33 bytes"}},
		"nil option":       {[]mcptool.RegistryOption{mcptool.ExposeErrors(), nil}, []string{"option 2 is nil"}},
		"nil type handler": {[]mcptool.RegistryOption{mcptool.Types(nil)}, []string{"Types", "handler 1 is nil"}},
		"all at once": {[]mcptool.RegistryOption{nil, mcptool.StateKey([]byte("k"))},
			[]string{"option 1 is nil", "StateKey: the key is 1 bytes"}},
	} {
		t.Run(name, func(t *testing.T) {
			var reg *mcptool.Registry
			require.NotPanics(t, func() { reg = mcptool.NewRegistry(c.opts...) })
			errs := map[string]error{
				"Registry.Add":        reg.Add("search", fn, mcptool.Description("Searches.")),
				"Add[In, Out]":        mcptool.Add(reg, "search", fn, mcptool.Description("Searches.")),
				"Registry.AddMethods": reg.AddMethods(misuseService{}),
			}
			for via, err := range errs {
				require.Error(t, err, via)
				assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err), via)
				for _, w := range c.want {
					assert.Contains(t, err.Error(), w, via)
				}
			}
			assert.Empty(t, reg.Tools(), "a misconfigured registry serves no tool")
		})
	}
	// Well used, the same options register.
	reg := mcptool.NewRegistry(mcptool.StateKey(make([]byte, 32)), mcptool.ExposeErrors())
	require.NoError(t, reg.Add("search", fn, mcptool.Description("Searches.")))
}

// TestNilOptionIsAnError: a nil tool or AddMethods option is an error, not
// a panic.
func TestNilOptionIsAnError(t *testing.T) {
	reg := mcptool.NewRegistry()
	fn := func(_ context.Context, in misuseArgs) (string, error) { return in.Q, nil }
	err := reg.Add("search", fn, mcptool.Description("Searches."), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "option 2 is nil")
	err = mcptool.Add(reg, "search", fn, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "option 1 is nil")
	err = reg.AddMethods(misuseService{}, mcptool.Prefix("x_"), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "option 2 is nil")
	assert.Empty(t, reg.Tools())
}
