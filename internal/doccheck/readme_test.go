package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/annotations"
)

// readme returns README.md's lines.
func readme(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(raw), "\n")
}

// TestReadmeMCPKeys: the `mcp` row of README.md's tag table names every key
// of the tag's grammar (annotations.Keys), as `key` or `key=...`.
func TestReadmeMCPKeys(t *testing.T) {
	var row string
	for _, l := range readme(t) {
		if strings.HasPrefix(l, "| `mcp:\"...\"`") {
			row = l
		}
	}
	if row == "" {
		t.Fatal("README.md's tag table has no row for `mcp:\"...\"`")
	}
	for _, k := range annotations.Keys() {
		if !regexp.MustCompile("`" + regexp.QuoteMeta(k) + "(=[^`]*)?`").MatchString(row) {
			t.Errorf("README.md's `mcp` tag row does not name the key %s", k)
		}
	}
}

// TestReadmeLayoutDocs: README.md's Layout names every guide of docs/.
func TestReadmeLayoutDocs(t *testing.T) {
	var layout strings.Builder
	in := false
	for _, l := range readme(t) {
		if strings.HasPrefix(l, "## ") {
			in = l == "## Layout"
		}
		if in {
			layout.WriteString(l + "\n")
		}
	}
	if layout.Len() == 0 {
		t.Fatal("README.md has no Layout section")
	}
	docs, err := filepath.Glob(filepath.Join(repoRoot(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 10 {
		t.Fatalf("found only %d guides in docs/", len(docs))
	}
	for _, d := range docs {
		name := "docs/" + filepath.Base(d)
		if !strings.Contains(layout.String(), "("+name+")") {
			t.Errorf("README.md's Layout does not link %s", name)
		}
	}
}
