package mcptool

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckName(t *testing.T) {
	valid := []string{
		"a", "Z", "0", "_", "-", ".", "search_pages", "get-user.v2", "A-Z_a.z-0.9",
		strings.Repeat("x", 128),
	}
	for _, n := range valid {
		assert.NoError(t, checkName(n), "%q", n)
	}
	invalid := []string{
		"", strings.Repeat("x", 129), "a b", " a", "a ", "a/b", "a:b", "tool@x", "é", "naïve",
		"a\n", "\na", "a\x00", "emoji😀", "a,b", "a*", "ａ", // full-width a
	}
	for _, n := range invalid {
		err := checkName(n)
		require.Error(t, err, "%q", n)
		assert.Equal(t, CodeInvalidName, CodeOf(err), "%q", n)
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, n, e.Tool)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"SearchPages": "search_pages", "GetHTTPStatus": "get_http_status", "V2Items": "v2_items",
		"ID": "id", "GetID": "get_id", "HTTPServer": "http_server", "A": "a", "parseURLNow": "parse_url_now",
		"ListURLsByHost": "list_urls_by_host", "GetIDs": "get_ids", "APIs": "apis", "HTTPStatus": "http_status",
		"AsIs": "as_is", "ItemAs": "item_as", "UUIDsOf": "uuids_of", "Addresses": "addresses",
	} {
		assert.Equal(t, want, snakeCase(in), in)
	}
}
