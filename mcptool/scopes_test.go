package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

type scopedArgs struct {
	_    struct{} `mcp:"readOnly,scopes=notes:read"`
	Text string   `json:"text"`
}

type badScopesArgs struct {
	_ struct{} `mcp:"scopes=notes:read no\"te"`
}

type notesService struct{}

func (notesService) Read(ctx context.Context, in scopedArgs) (string, error)  { return in.Text, nil }
func (notesService) Write(ctx context.Context, in scopedArgs) (string, error) { return in.Text, nil }

func catalogScopes(t *testing.T, reg *mcptool.Registry) map[string][]string {
	t.Helper()
	cat, err := reg.Catalog()
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, cat.Write(&b, "json", ""))
	var c struct {
		Tools []struct {
			Name   string   `json:"name"`
			Scopes []string `json:"scopes"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &c))
	m := map[string][]string{}
	for _, tl := range c.Tools {
		m[tl.Name] = tl.Scopes
	}
	return m
}

func TestScopesFromTagOptionAndRegistry(t *testing.T) {
	fn := func(ctx context.Context, in scopedArgs) (string, error) { return in.Text, nil }
	reg := mcptool.NewRegistry(mcptool.Scopes("notes:admin"), mcptool.NoDescription())
	require.NoError(t, mcptool.Add(reg, "tagged", fn))
	require.NoError(t, mcptool.Add(reg, "optioned", fn, mcptool.Scopes("notes:write", "notes:read")))
	require.NoError(t, mcptool.Add(reg, "open", fn, mcptool.Scopes()))
	require.NoError(t, reg.Add("plain", func(ctx context.Context) (string, error) { return "", nil }))
	require.NoError(t, reg.AddMethods(notesService{}, mcptool.Prefix("notes_"),
		mcptool.Method("Write", mcptool.Scopes("notes:write"))))

	assert.Equal(t, map[string][]string{
		"tagged":      {"notes:read"},                // the tag wins over the registry
		"optioned":    {"notes:write", "notes:read"}, // the option wins over the tag
		"open":        nil,                           // Scopes() says none
		"plain":       {"notes:admin"},               // the registry's default
		"notes_read":  {"notes:read"},
		"notes_write": {"notes:write"}, // per method through AddMethods
	}, catalogScopes(t, reg))

	cat, err := reg.Catalog()
	require.NoError(t, err)
	var md bytes.Buffer
	require.NoError(t, cat.Write(&md, "markdown", ""))
	assert.Contains(t, md.String(), "\n**Hints:** read-only, open world, scopes: notes:write notes:read.\n")
}

func TestScopesErrors(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	err := mcptool.Add(reg, "bad", func(ctx context.Context, in badScopesArgs) (string, error) { return "", nil })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "badScopesArgs._", "names the type and field")
	assert.Contains(t, err.Error(), `"no\"te" is not an OAuth scope`)

	err = mcptool.Add(reg, "bad_option", func(ctx context.Context, in scopedArgs) (string, error) { return "", nil },
		mcptool.Scopes("ok", "not ok"))
	assert.ErrorContains(t, err, `"not ok" is not an OAuth scope`)
}
