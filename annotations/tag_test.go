package annotations_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

func TestParseTag(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want []annotations.Item
	}{
		{"empty", "", nil},
		{"only spaces", "   ", nil},
		{"bare key", "readOnly", []annotations.Item{{Key: "readOnly", Pos: 0}}},
		{
			"bare keys and values",
			"title=Search pages,readOnly,openWorld=false",
			[]annotations.Item{
				{Key: "title", Value: "Search pages", HasValue: true, Pos: 0},
				{Key: "readOnly", Pos: 19},
				{Key: "openWorld", Value: "false", HasValue: true, Pos: 28},
			},
		},
		{
			"whitespace around keys, = and values",
			"  title =  Search pages  , readOnly ,openWorld= false ",
			[]annotations.Item{
				{Key: "title", Value: "Search pages", HasValue: true, Pos: 2},
				{Key: "readOnly", Pos: 27},
				{Key: "openWorld", Value: "false", HasValue: true, Pos: 37},
			},
		},
		{
			"quoted value with commas",
			"title='Search, fast',readOnly",
			[]annotations.Item{
				{Key: "title", Value: "Search, fast", HasValue: true, Pos: 0},
				{Key: "readOnly", Pos: 21},
			},
		},
		{
			"quoted value keeps inner spaces, drops spaces around the quotes",
			"title = ' a, b ' , x",
			[]annotations.Item{
				{Key: "title", Value: " a, b ", HasValue: true, Pos: 0},
				{Key: "x", Pos: 19},
			},
		},
		{
			"escaped quote and backslash",
			`title='it\'s a \\ b',x`,
			[]annotations.Item{
				{Key: "title", Value: `it's a \ b`, HasValue: true, Pos: 0},
				{Key: "x", Pos: 21},
			},
		},
		{
			"other backslashes are literal",
			`title='a\nb\,c'`,
			[]annotations.Item{{Key: "title", Value: `a\nb\,c`, HasValue: true, Pos: 0}},
		},
		{
			"empty values",
			"title=,desc=''",
			[]annotations.Item{
				{Key: "title", Value: "", HasValue: true, Pos: 0},
				{Key: "desc", Value: "", HasValue: true, Pos: 7},
			},
		},
		{
			"unquoted value runs to the comma and may hold = and quotes",
			"rate=10/m=x,note=it's",
			[]annotations.Item{
				{Key: "rate", Value: "10/m=x", HasValue: true, Pos: 0},
				{Key: "note", Value: "it's", HasValue: true, Pos: 12},
			},
		},
		{
			"key characters",
			"a_b-c.d9,Z",
			[]annotations.Item{{Key: "a_b-c.d9", Pos: 0}, {Key: "Z", Pos: 9}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := annotations.ParseTag(tt.tag)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseTagErrors(t *testing.T) {
	tests := []struct {
		name    string
		tag     string
		pos     int
		msgPart string
	}{
		{"leading comma (empty item)", ",readOnly", 0, `unexpected ',', expected a key`},
		{"empty item in the middle", "readOnly,,openWorld", 9, `unexpected ',', expected a key`},
		{"blank item in the middle", "readOnly, ,openWorld", 10, `unexpected ',', expected a key`},
		{"trailing comma", "readOnly,", 9, "expected a key after ','"},
		{"trailing comma and spaces", "readOnly,  ", 11, "expected a key after ','"},
		{"only a comma", ",", 0, "expected a key"},
		{"unterminated quote", "readOnly,title='Search, fast", 9, `unterminated quote in value of "title"`},
		{"escaped closing quote leaves the quote open", `title='abc\'`, 0, "unterminated quote"},
		{"duplicate key", "readOnly,openWorld,readOnly=false", 19, `key "readOnly" given twice`},
		{"duplicate key with value", "title=a, title=b", 9, `key "title" given twice`},
		{"text after a quoted value", "title='a' b,readOnly", 10, `unexpected 'b' after "title", expected ','`},
		{"space inside a key", "read Only", 5, `unexpected 'O' after "read", expected ','`},
		{"value without key", "=true", 0, `unexpected '=', expected a key`},
		{"bad key character", "readOnly,ti+tle", 11, `unexpected '+' after "ti"`},
		{"non-ASCII key", "tïtle", 1, "expected ','"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := annotations.ParseTag(tt.tag)
			require.Error(t, err)
			assert.Nil(t, items)
			var se *annotations.SyntaxError
			require.True(t, errors.As(err, &se), "want *SyntaxError, got %T", err)
			assert.Equal(t, tt.tag, se.Tag)
			assert.Equal(t, tt.pos, se.Pos, "offset")
			assert.Contains(t, se.Msg, tt.msgPart)
			assert.Equal(t, "at offset "+itoa(tt.pos)+": "+se.Msg, err.Error())
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestSuggest(t *testing.T) {
	known := []string{"title", "readOnly", "destructive", "idempotent", "openWorld"}
	tests := []struct{ key, want string }{
		{"readonly", "readOnly"}, // case only
		{"READONLY", "readOnly"}, // case only
		{"readOnyl", "readOnly"}, // transposition: two edits
		{"readOn", "readOnly"},   // two deletions
		{"titel", "title"},       // two edits
		{"tite", "title"},        // one deletion
		{"idempotnet", "idempotent"},
		{"openworld", "openWorld"},
		{"destructve", "destructive"},
		{"title", "title"},  // exact
		{"timeout", ""},     // nothing close
		{"ro", ""},          // too far from everything
		{"", ""},            // empty
		{"readOnlyyyy", ""}, // three insertions
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, annotations.Suggest(tt.key, known), "Suggest(%q)", tt.key)
	}
	assert.Equal(t, "", annotations.Suggest("title", nil), "no known keys")
	// The closest candidate wins, not the first one within reach.
	assert.Equal(t, "abcd", annotations.Suggest("abce", []string{"abxy", "abcd"}))
	// Case-insensitive equality beats a closer-looking but different key.
	assert.Equal(t, "Rate", annotations.Suggest("rate", []string{"rat", "Rate"}))
}
