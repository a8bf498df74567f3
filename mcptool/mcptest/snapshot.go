package mcptest

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// update is go test's -update flag in every test binary that links mcptest.
// A test package that imports mcptest must not define its own: use [Golden]
// for its golden files instead.
var update = flag.Bool("update", false, "rewrite golden files (mcptest.Snapshot, mcptest.Golden)")

// Snapshot compares reg's catalogue with the committed file at path and
// fails the test with a readable diff when they differ: a changed
// description, hint, schema or example shows up in review, and a stale
// catalogue fails CI. The file's extension names the format, as
// [catalog.Catalog.Write] writes it: .md the Markdown catalogue and .html
// the HTML page, both titled "Tools" (as mcpgen catalog writes them), any
// other the JSON catalogue with each tool's fingerprint (conventionally
// testdata/tools.golden.json). go test -update writes the file instead, so
// one test both keeps docs/tools.md current and fails when it is stale.
func Snapshot(t testing.TB, reg *mcptool.Registry, path string) {
	t.Helper()
	got, err := snapshot(reg, path)
	if err != nil {
		t.Fatalf("mcptest: snapshot: %v", err)
		return
	}
	Golden(t, path, got)
}

// catalogTools reads reg's catalogue, in its order (by name).
func catalogTools(reg *mcptool.Registry) ([]catalog.Tool, error) {
	c, err := reg.Catalog()
	if err != nil {
		return nil, err
	}
	return c.Tools, nil
}

// Golden compares got with the golden file at path and fails the test with
// a line diff when they differ. With go test -update it writes got to path
// (creating its directory) instead.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("mcptest: %v", err)
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("mcptest: %v", err)
			return
		}
		t.Logf("mcptest: wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("mcptest: %s does not exist: go test -update writes it", path)
		return
	}
	if err != nil {
		t.Fatalf("mcptest: %v", err)
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("mcptest: %s is out of date (go test -update rewrites it):\n%s", path, udiff.Unified(path, "now", string(want), string(got)))
	}
}
