package mcptool

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

func TestToolAnnotations(t *testing.T) {
	marshal := func(tag string) map[string]any {
		t.Helper()
		tl, err := annotations.Parse(tag)
		require.NoError(t, err)
		b, err := json.Marshal(toolAnnotations(tl.Hints))
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m))
		return m
	}
	tests := []struct {
		tag  string
		want map[string]any
	}{
		{"", map[string]any{
			"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true,
		}},
		{"title=Search pages,readOnly,openWorld", map[string]any{
			"title": "Search pages", "readOnlyHint": true, "idempotentHint": false, "openWorldHint": true,
		}},
		{"readOnly,openWorld=false", map[string]any{
			"readOnlyHint": true, "idempotentHint": false, "openWorldHint": false,
		}},
		{"destructive=false,idempotent,openWorld=false", map[string]any{
			"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false,
		}},
		{"title='Delete, for good',destructive,timeout=5s", map[string]any{
			"title": "Delete, for good", "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true,
		}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, marshal(tt.tag), tt.tag)
	}

	// The annotations do not alias the hints.
	h := annotations.Hints{Destructive: annotations.Bool(false), OpenWorld: annotations.Bool(false)}
	a := toolAnnotations(h)
	*a.DestructiveHint = true
	*a.OpenWorldHint = true
	assert.False(t, *h.Destructive)
	assert.False(t, *h.OpenWorld)
}
