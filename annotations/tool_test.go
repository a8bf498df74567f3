package annotations_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

func TestParsePolicy(t *testing.T) {
	tl, err := annotations.Parse("timeout=1m30s,rate=120/m,burst=4,sessionRate=2/h,sessionBurst=3,concurrency=2,confirm,maxArgBytes=4096,maxDepth=8,task=required")
	require.NoError(t, err)
	assert.Equal(t, annotations.Policy{
		Timeout:     90 * time.Second,
		Rate:        annotations.Rate{PerSecond: 2, Burst: 4},
		SessionRate: annotations.Rate{PerSecond: 2.0 / 3600, Burst: 3},
		Concurrency: 2,
		Confirm:     true,
		MaxArgBytes: 4096,
		MaxDepth:    8,
		Task:        annotations.TaskRequired,
	}, tl.Policy)
	assert.Equal(t, annotations.Hints{}, tl.Hints)

	for tag, want := range map[string]annotations.TaskSupport{
		"task": annotations.TaskOptional, "task=optional": annotations.TaskOptional,
		"task=required": annotations.TaskRequired, "readOnly": "",
	} {
		tl, err := annotations.Parse(tag)
		require.NoError(t, err, tag)
		assert.Equal(t, want, tl.Task, tag)
	}
	tl, err = annotations.Parse("confirm=false,rate=0.5/s")
	require.NoError(t, err)
	assert.False(t, tl.Confirm)
	assert.Equal(t, annotations.Rate{PerSecond: 0.5}, tl.Rate)
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ tag, msg string }{
		{"readOnly=yes", "readOnly=yes: value must be true or false"},
		{"destructive=", "destructive=: value must be true or false"},
		{"idempotent=2", "idempotent=2: value must be true or false"},
		{"title", "title needs a value (title=...)"},
		{"title=", "title needs a value (title=...)"},
		{"readonly", `unknown key "readonly" (did you mean "readOnly"?)`},
		{"frobnicate", `unknown key "frobnicate"`},
		{"timout=5s", `unknown key "timout" (did you mean "timeout"?)`},
		{"timeout", "timeout needs a value"},
		{"timeout=soon", "timeout must be a positive duration such as 5s or 250ms"},
		{"timeout=-1s", "timeout must be a positive duration such as 5s or 250ms"},
		{"rate=10", `rate "10": want a positive number per s, m or h, such as 10/s`},
		{"rate=10/day", `rate "10/day": the unit must be s, m or h`},
		{"sessionRate=0/s", `rate "0/s": want a positive number per s, m or h, such as 10/s`},
		{"burst=0", "burst must be a positive integer"},
		{"concurrency=two", "concurrency must be a positive integer"},
		{"maxDepth=-3", "maxDepth must be a positive integer"},
		{"confirm=please", "confirm takes no value, or true/false"},
		{"task=forbidden", "task takes no value (the tool may run as a task), or task=required"},
	}
	for _, tt := range tests {
		_, err := annotations.Parse(tt.tag)
		require.Error(t, err, tt.tag)
		assert.Equal(t, tt.msg, err.Error(), tt.tag)
		var ke *annotations.KeyError
		require.True(t, errors.As(err, &ke), "%s: %T", tt.tag, err)
		assert.Equal(t, 0, ke.Pos)
	}
}

// Every wrong item of a tag is reported, in order, not just the first.
func TestParseReportsEveryWrongItem(t *testing.T) {
	_, err := annotations.Parse("readonly,title=ok,timeout=soon,rate=3/day,openWorld=maybe")
	require.Error(t, err)
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "a joined error, got %T", err)
	var got []annotations.KeyError
	for _, e := range joined.Unwrap() {
		var ke *annotations.KeyError
		require.True(t, errors.As(e, &ke), "%T", e)
		got = append(got, *ke)
	}
	assert.Equal(t, []annotations.KeyError{
		{Key: "readonly", Pos: 0, Msg: `unknown key "readonly" (did you mean "readOnly"?)`},
		{Key: "timeout", Pos: 18, Msg: "timeout must be a positive duration such as 5s or 250ms"},
		{Key: "rate", Pos: 31, Msg: `rate "3/day": the unit must be s, m or h`},
		{Key: "openWorld", Pos: 42, Msg: "openWorld=maybe: value must be true or false"},
	}, got)

	// A tag that cannot be scanned is one syntax error.
	_, err = annotations.Parse("readOnly,,x=1")
	var se *annotations.SyntaxError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, 9, se.Pos)
}

func TestToolCheck(t *testing.T) {
	for _, tt := range []struct {
		tag  string
		want string // "" for none
	}{
		{"readOnly,confirm", "meaningless hint combination: confirm on a readOnly tool (confirmation is for tools that change things)"},
		{"readOnly,destructive", "meaningless hint combination: destructive on a readOnly tool (a read-only tool modifies nothing)"},
		{"readOnly,confirm=false", ""},
		{"destructive,confirm", ""},
	} {
		_, err := annotations.Parse(tt.tag)
		if tt.want == "" {
			assert.NoError(t, err, tt.tag)
			continue
		}
		require.Error(t, err, tt.tag)
		assert.Equal(t, tt.want, err.Error())
		assert.ErrorIs(t, err, annotations.ErrMeaningless)
	}
	// Values no tag can write, but options can.
	for _, p := range []annotations.Policy{
		{Timeout: -time.Second}, {Rate: annotations.Rate{PerSecond: -1}}, {SessionRate: annotations.Rate{Burst: -1}},
		{Concurrency: -1}, {MaxArgBytes: -1}, {MaxDepth: -1}, {Task: "sometimes"},
	} {
		assert.Error(t, annotations.Tool{Policy: p}.Check(), "%+v", p)
	}
	assert.NoError(t, annotations.Tool{}.Check())
}

func TestToolMerge(t *testing.T) {
	tag, err := annotations.Parse("title=Tag,readOnly,timeout=5s,rate=10/s,burst=2,maxDepth=8,task")
	require.NoError(t, err)
	opts := annotations.Tool{
		Hints:  annotations.Hints{ReadOnly: annotations.Bool(false), OpenWorld: annotations.Bool(false)},
		Policy: annotations.Policy{Timeout: time.Second, Rate: annotations.Rate{PerSecond: 1}, Confirm: true, Task: annotations.TaskRequired},
	}
	got := tag.Merge(opts)
	assert.Equal(t, "Tag", got.Title, "kept from the tag")
	assert.False(t, *got.ReadOnly, "the option wins")
	assert.False(t, *got.OpenWorld, "added by the option")
	assert.Equal(t, time.Second, got.Timeout, "the option wins")
	assert.Equal(t, annotations.Rate{PerSecond: 1}, got.Rate, "a rate option replaces rate and burst")
	assert.Equal(t, 8, got.MaxDepth, "kept from the tag")
	assert.True(t, got.Confirm)
	assert.Equal(t, annotations.TaskRequired, got.Task)
	assert.Equal(t, tag, tag.Merge(annotations.Tool{}), "merging nothing is the identity")
	assert.Equal(t, opts, annotations.Tool{}.Merge(opts))
}

func TestPolicyResolved(t *testing.T) {
	assert.Equal(t, annotations.Policy{
		MaxArgBytes: annotations.DefaultMaxArgBytes, MaxDepth: annotations.DefaultMaxDepth, Task: annotations.TaskForbidden,
	}, annotations.Policy{}.Resolved())
	p := annotations.Policy{Rate: annotations.Rate{PerSecond: 10}, SessionRate: annotations.Rate{PerSecond: 0.1}, MaxDepth: 3}.Resolved()
	assert.Equal(t, annotations.Rate{PerSecond: 10, Burst: 10}, p.Rate)
	assert.Equal(t, annotations.Rate{PerSecond: 0.1, Burst: 1}, p.SessionRate)
	assert.Equal(t, 3, p.MaxDepth)
	assert.Equal(t, 1<<20, p.MaxArgBytes)
}

func TestKeys(t *testing.T) {
	keys := annotations.Keys()
	assert.Len(t, keys, 23)
	for _, k := range keys {
		tag := k + "=1"
		if k == "title" {
			tag = "title=x"
		}
		if k == "task" || k == "eager" {
			tag = k
		}
		if k == "group" {
			tag = "group=billing"
		}
		if k == "rate" || k == "sessionRate" {
			tag = k + "=1/s"
		}
		if k == "timeout" {
			tag = "timeout=1s"
		}
		if k == "scopes" {
			tag = "scopes=a:read"
		}
		if k == "view" {
			tag = "view"
		}
		if k == "visibility" {
			tag = "visibility=app"
		}
		if k == "connectDomains" || k == "resourceDomains" {
			tag = k + "=https://a.example"
		}
		_, err := annotations.Parse(tag)
		assert.NoError(t, err, "every listed key parses: %s", tag)
	}
	keys[0] = "changed"
	assert.Equal(t, "title", annotations.Keys()[0], "a fresh list each call")
}
