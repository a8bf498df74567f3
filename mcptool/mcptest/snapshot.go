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
	cat, err := catalogTools(reg)
	if err != nil {
		return nil, err
	}
	// Each tool is its catalogue entry (descriptions, hints, argument table,
	// schemas, example call) and, last, "fingerprint": "sha256:" and the
	// first 16 hex digits of the SHA-256 of the tool's definition as
	// tools/list sends it, so any change of what the model sees changes it.
	tools := make([]json.RawMessage, len(cat))
	for i, ct := range cat {
		def, ok := reg.Tool(ct.Name)
		if !ok {
			return nil, fmt.Errorf("tool %s was removed while the snapshot was taken", ct.Name)
		}
		raw, err := json.Marshal(def)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", ct.Name, err)
		}
		sum := sha256.Sum256(raw)
		entry := bytes.TrimSuffix(bytes.TrimSpace(ct.raw), []byte("}"))
		tools[i] = fmt.Appendf(entry, `,"fingerprint":"sha256:%s"}`, hex.EncodeToString(sum[:8]))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Tools []json.RawMessage `json:"tools"`
	}{tools}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// catalogTool is one entry of [mcptool.Registry.WriteCatalogJSON]: the
// fields mcptest reads, and the entry as written.
type catalogTool struct {
	Name    string          `json:"name"`
	Example json.RawMessage `json:"example"`
	raw     json.RawMessage
}

// catalogTools reads reg's catalogue, in its order (by name).
func catalogTools(reg *mcptool.Registry) ([]catalogTool, error) {
	var b bytes.Buffer
	if err := reg.WriteCatalogJSON(&b); err != nil {
		return nil, err
	}
	var cat struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(b.Bytes(), &cat); err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	out := make([]catalogTool, len(cat.Tools))
	for i, raw := range cat.Tools {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			return nil, fmt.Errorf("catalogue: %w", err)
		}
		out[i].raw = raw
	}
	return out, nil
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
