package annotations_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

// hintsOf parses tag and returns its hints (even those Check rejects).
func hintsOf(t *testing.T, tag string) annotations.Hints {
	t.Helper()
	tl, err := annotations.Parse(tag)
	if err != nil && !errors.Is(err, annotations.ErrMeaningless) {
		t.Fatalf("Parse(%q): %v", tag, err)
	}
	return tl.Hints
}

func TestParseHints(t *testing.T) {
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

	// Each hint has a pointer of its own.
	a := hintsOf(t, "readOnly,openWorld")
	*a.ReadOnly = false
	assert.True(t, *a.OpenWorld)
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

func TestBool(t *testing.T) {
	p, q := annotations.Bool(true), annotations.Bool(true)
	require.NotNil(t, p)
	assert.True(t, *p)
	assert.False(t, *annotations.Bool(false))
	assert.NotSame(t, p, q, "each call returns a new pointer")
}
