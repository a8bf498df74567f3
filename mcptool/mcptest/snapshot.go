package mcptest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/mcpgen/mcpgen/mcptool"
)

// update is go test's -update flag in every test binary that links mcptest.
// A test package that imports mcptest must not define its own: use [Golden]
// for its golden files instead.
var update = flag.Bool("update", false, "rewrite golden files (mcptest.Snapshot, mcptest.Golden)")

// snapshotTool is one tool of a Snapshot file: its catalogue entry
// (descriptions, hints, argument table, schemas, example call) and the
// fingerprint of the definition clients list.
type snapshotTool struct {
	mcptool.CatalogTool
	// Fingerprint is "sha256:" and the first 16 hex digits of the SHA-256
	// of the tool's definition as tools/list sends it: any change of what
	// the model sees changes it.
	Fingerprint string `json:"fingerprint"`
}

// Snapshot compares reg's catalogue with the golden file at path (conventionally
// testdata/tools.golden.json) and fails the test with a readable diff when
// they differ: a changed description, hint, schema or example shows up in
// review. go test -update writes the file instead.
func Snapshot(t testing.TB, reg *mcptool.Registry, path string) {
	t.Helper()
	got, err := snapshot(reg)
	if err != nil {
		t.Fatalf("mcptest: snapshot: %v", err)
		return
	}
	Golden(t, path, got)
}

func snapshot(reg *mcptool.Registry) ([]byte, error) {
	cat, err := reg.Catalog()
	if err != nil {
		return nil, err
	}
	tools := make([]snapshotTool, len(cat.Tools))
	for i, ct := range cat.Tools {
		tools[i].CatalogTool = ct
		def, ok := reg.Tool(ct.Name)
		if !ok {
			return nil, fmt.Errorf("tool %s was removed while the snapshot was taken", ct.Name)
		}
		raw, err := json.Marshal(def)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", ct.Name, err)
		}
		sum := sha256.Sum256(raw)
		tools[i].Fingerprint = "sha256:" + hex.EncodeToString(sum[:8])
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Tools []snapshotTool `json:"tools"`
	}{tools}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
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
