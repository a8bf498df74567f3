package mcpopenapi

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// TestNewRequestRefuses: the request itself refuses a path segment that
// would leave the operation's path and a header value with a line break,
// whatever the schema let through (it says so too).
func TestNewRequestRefuses(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:1/api/")
	o := &operation{method: "GET", path: "/files/{name}/raw", params: []param{
		{name: "name", in: "path", style: "simple"},
		{name: "X-Note", in: "header", style: "simple"},
	}}
	for _, c := range []struct {
		args, want string
	}{
		{`{"name":".."}`, `name: ".." cannot be a path segment`},
		{`{"name":"."}`, `name: "." cannot be a path segment`},
		{`{"name":""}`, `name: "" cannot be a path segment`},
		{`{"name":"a","X-Note":"x\r\ny"}`, `X-Note: a header value cannot hold a line break`},
		{`{"name":"a","X-Note":["x","y\u0000"]}`, `X-Note: a header value cannot hold a line break or NUL`},
	} {
		var args map[string]any
		if err := json.Unmarshal([]byte(c.args), &args); err != nil {
			t.Fatal(err)
		}
		_, err := o.newRequest(context.Background(), base, args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
	}
	var args map[string]any
	_ = json.Unmarshal([]byte(`{"name":"../a b?c#d","X-Note":"ok"}`), &args)
	req, err := o.newRequest(context.Background(), base, args)
	if err != nil || req.URL.String() != "http://127.0.0.1:1/api/files/..%2Fa%20b%3Fc%23d/raw" || req.Header.Get("X-Note") != "ok" {
		t.Errorf("%v %v", req.URL, err)
	}
}
