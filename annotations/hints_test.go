package annotations_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

// hintsOf parses tag and sets every item on a Hints.
func hintsOf(t *testing.T, tag string) annotations.Hints {
	t.Helper()
	items, err := annotations.ParseTag(tag)
	require.NoError(t, err)
	var h annotations.Hints
	for _, it := range items {
		require.NoError(t, h.Set(it), "Set(%+v)", it)
	}
	return h
}

func TestHintKeysAndIsHintKey(t *testing.T) {
	assert.Equal(t, []string{"title", "readOnly", "destructive", "idempotent", "openWorld"}, annotations.HintKeys)
	for _, k := range annotations.HintKeys {
		assert.True(t, annotations.IsHintKey(k), k)
	}
	for _, k := range []string{"", "readonly", "ReadOnly", "timeout", "readOnlyHint", "Title"} {
		assert.False(t, annotations.IsHintKey(k), k)
	}
}

func TestHintsSet(t *testing.T) {
	h := hintsOf(t, "title='Search, fast',readOnly,destructive=false,idempotent=1,openWorld=F")
	assert.Equal(t, "Search, fast", h.Title)
	require.NotNil(t, h.ReadOnly)
	assert.True(t, *h.ReadOnly, "a bare key means true")
	require.NotNil(t, h.Destructive)
	assert.False(t, *h.Destructive)
	require.NotNil(t, h.Idempotent)
	assert.True(t, *h.Idempotent)
	require.NotNil(t, h.OpenWorld)
	assert.False(t, *h.OpenWorld)

	// Unset hints stay nil: they take the specification's defaults later.
	h = hintsOf(t, "openWorld=true")
	assert.Nil(t, h.ReadOnly)
	assert.Nil(t, h.Destructive)
	assert.Nil(t, h.Idempotent)
	assert.Equal(t, annotations.Bool(true), h.OpenWorld)
	assert.Empty(t, h.Title)

	// Each Set stores a fresh pointer.
	var a annotations.Hints
	require.NoError(t, a.Set(annotations.Item{Key: "readOnly"}))
	require.NoError(t, a.Set(annotations.Item{Key: "openWorld"}))
	*a.ReadOnly = false
	assert.True(t, *a.OpenWorld)
}

func TestHintsSetErrors(t *testing.T) {
	tests := []struct {
		item    annotations.Item
		msgPart string
	}{
		{annotations.Item{Key: "readOnly", Value: "yes", HasValue: true}, "readOnly=yes: value must be true or false"},
		{annotations.Item{Key: "destructive", Value: "", HasValue: true}, "destructive=: value must be true or false"},
		{annotations.Item{Key: "idempotent", Value: "2", HasValue: true}, "idempotent=2"},
		{annotations.Item{Key: "openWorld", Value: "on", HasValue: true}, "openWorld=on"},
		{annotations.Item{Key: "title"}, "title needs a value"},
		{annotations.Item{Key: "title", HasValue: true}, "title needs a value"},
		{annotations.Item{Key: "timeout", Value: "5s", HasValue: true}, `unknown hint "timeout"`},
		{annotations.Item{Key: "readonly"}, `unknown hint "readonly"`},
	}
	for _, tt := range tests {
		var h annotations.Hints
		err := h.Set(tt.item)
		require.Error(t, err, "%+v", tt.item)
		assert.Contains(t, err.Error(), tt.msgPart)
		assert.Equal(t, annotations.Hints{}, h, "a failed Set leaves the hints alone")
	}
}

func TestHintsMerge(t *testing.T) {
	base := annotations.Hints{
		Title:       "Base",
		ReadOnly:    annotations.Bool(true),
		Destructive: annotations.Bool(false),
		OpenWorld:   annotations.Bool(false),
	}
	over := annotations.Hints{
		ReadOnly:   annotations.Bool(false),
		Idempotent: annotations.Bool(true),
	}
	got := base.Merge(over)
	assert.Equal(t, "Base", got.Title, "an empty title does not override")
	assert.False(t, *got.ReadOnly, "override wins")
	assert.False(t, *got.Destructive, "kept from base")
	assert.True(t, *got.Idempotent, "added by override")
	assert.False(t, *got.OpenWorld, "kept from base")

	got = base.Merge(annotations.Hints{Title: "Over", OpenWorld: annotations.Bool(true), Destructive: annotations.Bool(true)})
	assert.Equal(t, "Over", got.Title)
	assert.True(t, *got.OpenWorld)
	assert.True(t, *got.Destructive)
	assert.True(t, *got.ReadOnly)

	// Merge does not modify its receiver or argument.
	assert.Equal(t, "Base", base.Title)
	assert.True(t, *base.ReadOnly)
	assert.Nil(t, base.Idempotent)
	assert.Equal(t, annotations.Hints{ReadOnly: annotations.Bool(false), Idempotent: annotations.Bool(true)}, over)

	assert.Equal(t, base, base.Merge(annotations.Hints{}), "merging nothing is the identity")
	assert.Equal(t, over, annotations.Hints{}.Merge(over))
}

func TestHintsCheck(t *testing.T) {
	ok := []string{
		"",
		"readOnly",
		"readOnly,destructive=false",
		"readOnly,idempotent=false",
		"readOnly,openWorld=false",
		"readOnly=false,destructive,idempotent",
		"destructive,idempotent",
		"destructive",
	}
	for _, tag := range ok {
		assert.NoError(t, hintsOf(t, tag).Check(), tag)
	}
	bad := []struct{ tag, msgPart string }{
		{"readOnly,destructive", "destructive on a readOnly tool"},
		{"readOnly,destructive=true", "destructive on a readOnly tool"},
		{"readOnly,idempotent", "idempotent on a readOnly tool"},
		{"idempotent,readOnly=true", "idempotent on a readOnly tool"},
	}
	for _, tt := range bad {
		err := hintsOf(t, tt.tag).Check()
		require.Error(t, err, tt.tag)
		assert.True(t, errors.Is(err, annotations.ErrMeaningless), "%s: %v does not wrap ErrMeaningless", tt.tag, err)
		assert.Contains(t, err.Error(), tt.msgPart)
		assert.Contains(t, err.Error(), "meaningless hint combination")
	}
}

func TestHintsEffective(t *testing.T) {
	tests := []struct {
		tag  string
		want annotations.Effective
	}{
		// The specification's defaults.
		{"", annotations.Effective{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true}},
		{"title=x", annotations.Effective{Destructive: true, OpenWorld: true}},
		{"readOnly", annotations.Effective{ReadOnly: true, Destructive: false, OpenWorld: true}},
		{"readOnly,openWorld=false", annotations.Effective{ReadOnly: true}},
		{"readOnly=false", annotations.Effective{Destructive: true, OpenWorld: true}},
		{"destructive=false", annotations.Effective{OpenWorld: true}},
		{"destructive=false,idempotent", annotations.Effective{Idempotent: true, OpenWorld: true}},
		{"idempotent,openWorld=false", annotations.Effective{Destructive: true, Idempotent: true}},
		// destructive means nothing on a read-only tool: reported false.
		{"readOnly,destructive=false", annotations.Effective{ReadOnly: true, OpenWorld: true}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, hintsOf(t, tt.tag).Effective(), tt.tag)
	}
	// Even a (meaningless, Check-rejected) destructive=true is reported false.
	h := annotations.Hints{ReadOnly: annotations.Bool(true), Destructive: annotations.Bool(true)}
	assert.False(t, h.Effective().Destructive)
}

func TestHintsAnnotations(t *testing.T) {
	marshal := func(h annotations.Hints) map[string]any {
		t.Helper()
		b, err := json.Marshal(h.Annotations())
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
		{"title='Delete, for good',destructive", map[string]any{
			"title": "Delete, for good", "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true,
		}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, marshal(hintsOf(t, tt.tag)), tt.tag)
	}

	a := hintsOf(t, "readOnly").Annotations()
	assert.Nil(t, a.DestructiveHint, "destructiveHint is left out on a read-only tool")
	require.NotNil(t, a.OpenWorldHint)
	assert.True(t, *a.OpenWorldHint)

	// The annotations do not alias the hints.
	h := hintsOf(t, "destructive=false,openWorld=false")
	a = h.Annotations()
	*a.DestructiveHint = true
	*a.OpenWorldHint = true
	assert.False(t, *h.Destructive)
	assert.False(t, *h.OpenWorld)
}

func TestBool(t *testing.T) {
	p, q := annotations.Bool(true), annotations.Bool(true)
	require.NotNil(t, p)
	assert.True(t, *p)
	assert.False(t, *annotations.Bool(false))
	assert.NotSame(t, p, q, "each call returns a new pointer")
}
