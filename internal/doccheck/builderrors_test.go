package doccheck

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// TestBuildErrors reads go build's output as it is on a machine with an
// empty module cache: the "go: downloading" lines are progress, not errors
// (they failed TestDocBlocksCompile on a contributor's first run).
func TestBuildErrors(t *testing.T) {
	root := filepath.FromSlash("/repo")
	frag := filepath.FromSlash("/tmp/x/b001_b.go")
	prog := filepath.FromSlash("/tmp/x/b002_b.go")
	bySrc := map[string]generated{
		frag: {b: block{file: "README.md", line: 10}, src: frag, offset: 5, kind: "fragment"},
		prog: {b: block{file: "docs/tags.md", line: 40}, src: prog, kind: "main"},
	}
	exit1 := errors.New("exit status 1")
	for _, tc := range []struct {
		name string
		out  string
		err  error
		want []string
	}{
		{
			name: "downloads, then a fragment's ignorable errors",
			out: "go: downloading github.com/mark3labs/mcp-go v1.2.1\n" +
				"go: downloading golang.org/x/oauth2 v0.36.0\n" +
				"# github.com/mcpgen/mcpgen/internal/doccheck/zz_blocks/b001\n" +
				frag + ":7:2: undefined: reg\n",
			err: exit1,
		},
		{
			name: "downloads, then real errors",
			out: "go: downloading github.com/redis/go-redis/v9 v9.23.0\n" +
				"# github.com/mcpgen/mcpgen/internal/doccheck/zz_blocks/b001\n" +
				frag + ":8:9: mcptool.NoSuch undefined (type X has no field or method NoSuch)\n" +
				"# github.com/mcpgen/mcpgen/internal/doccheck/zz_blocks/b002\n" +
				prog + ":3:1: syntax error: non-declaration statement outside function body\n",
			err: exit1,
			want: []string{
				"README.md:13: mcptool.NoSuch undefined (type X has no field or method NoSuch)",
				"docs/tags.md:43: syntax error: non-declaration statement outside function body",
			},
		},
		{
			name: "a failure with no error line",
			out:  "go: downloading github.com/redis/go-redis/v9 v9.23.0\n",
			err:  errors.New("signal: killed"),
			want: []string{"go build: signal: killed\ngo: downloading github.com/redis/go-redis/v9 v9.23.0\n"},
		},
		{
			name: "a module error",
			out:  "go: downloading example.com/gone v1.0.0\ngo: example.com/gone@v1.0.0: reading https://proxy.golang.org/example.com/gone/@v/v1.0.0.zip: 404 Not Found\n",
			err:  exit1,
			want: []string{"go build: go: example.com/gone@v1.0.0: reading https://proxy.golang.org/example.com/gone/@v/v1.0.0.zip: 404 Not Found"},
		},
		{name: "success", out: "go: downloading golang.org/x/oauth2 v0.36.0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := buildErrors(root, []byte(tc.out), tc.err, bySrc)
			if !slices.Equal(got, tc.want) {
				t.Errorf("buildErrors:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
