package annotations_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

func TestParseScopes(t *testing.T) {
	tl, err := annotations.Parse("readOnly,scopes=notes:read  notes:write ,timeout=1s")
	require.NoError(t, err)
	assert.Equal(t, []string{"notes:read", "notes:write"}, tl.Scopes)

	tl, err = annotations.Parse("scopes='a,b c'")
	require.NoError(t, err)
	assert.Equal(t, []string{"a,b", "c"}, tl.Scopes, "a quoted value may hold commas, which scope-tokens allow")

	tl, err = annotations.Parse("readOnly")
	require.NoError(t, err)
	assert.Nil(t, tl.Scopes, "no scopes= is no scopes")
}

func TestParseScopesErrors(t *testing.T) {
	for tag, msg := range map[string]string{
		"scopes":               "scopes needs a value",
		"scopes=":              "scopes needs a value",
		"scopes='  '":          "scopes needs a value",
		`scopes='a"b'`:         `"a\"b" is not an OAuth scope (RFC 6749 §3.3`,
		`scopes='a\\b c'`:      `"a\\b" is not an OAuth scope`,
		"scopes=notes:réad":    `"notes:réad" is not an OAuth scope`,
		"scopes=a b a":         `scope "a" is given twice`,
		"scope=notes:read":     `unknown key "scope" (did you mean "scopes"?)`,
		"scopes=a\tb,readOnly": `"a\tb" is not an OAuth scope`,
	} {
		_, err := annotations.Parse(tag)
		require.Error(t, err, tag)
		assert.Contains(t, err.Error(), msg, tag)
	}
	// Every bad scope at once.
	_, err := annotations.Parse(`scopes='x"y z\\w ok'`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"x\"y"`)
	assert.Contains(t, err.Error(), `"z\\w"`)
}

func TestScopesMerge(t *testing.T) {
	reg := annotations.Tool{Policy: annotations.Policy{Scopes: []string{"notes:read"}}}
	tag, err := annotations.Parse("scopes=notes:write")
	require.NoError(t, err)
	assert.Equal(t, []string{"notes:write"}, reg.Merge(tag).Scopes, "the tag replaces the registry's default")
	assert.Equal(t, []string{"notes:read"}, reg.Merge(annotations.Tool{}).Scopes, "no scopes keeps the default")
	none := annotations.Tool{Policy: annotations.Policy{Scopes: []string{}}}
	assert.Empty(t, reg.Merge(none).Scopes, "an empty, non-nil list says none")
	assert.NotNil(t, reg.Merge(none).Scopes)

	bad := annotations.Tool{Policy: annotations.Policy{Scopes: []string{"ok", "not ok"}}}
	assert.ErrorContains(t, bad.Check(), `"not ok" is not an OAuth scope`, "options are checked as tags are")
}

func TestParseCallerConcurrency(t *testing.T) {
	tl, err := annotations.Parse("concurrency=8,callerConcurrency=2")
	require.NoError(t, err)
	assert.Equal(t, 2, tl.CallerConcurrency)
	_, err = annotations.Parse("callerConcurrency=0")
	assert.ErrorContains(t, err, "callerConcurrency must be a positive integer")
	bad := annotations.Tool{Policy: annotations.Policy{CallerConcurrency: -1}}
	assert.ErrorContains(t, bad.Check(), "must not be negative")
}
