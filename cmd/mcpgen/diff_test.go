package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/diff")

// golden compares got with testdata/diff/<file>, or writes it with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "diff", file)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "go test ./cmd/mcpgen -run TestDiff -update writes it")
	assert.Equal(t, string(want), string(got), "%s is stale: go test ./cmd/mcpgen -run TestDiff -update", path)
}

// TestDiff runs mcpgen diff on pairs of catalogues that hold every kind of
// change: the reports are golden files, and the classes and exit statuses
// are checked here.
func TestDiff(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		classes []string // the classes the report must hold, and no other
	}{
		{"unchanged", 0, nil},
		{"compatible", 0, []string{"guard-loosened", "compatible"}},
		{"loosened", 0, []string{"guard-loosened"}},
		{"security", 1, []string{"security-relevant"}},
		{"breaking", 1, []string{"breaking"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, new := filepath.Join("testdata", "diff", c.name, "old.json"), filepath.Join("testdata", "diff", c.name, "new.json")
			var stdout, stderr bytes.Buffer
			status := runDiff([]string{old, new}, &stdout, &stderr)
			assert.Equal(t, c.status, status, stderr.String())
			golden(t, filepath.Join(c.name, "report.md"), fmt.Appendf(stdout.Bytes(), "\n<!-- exit status %d; stderr:\n%s-->\n", status, stderr.String()))

			stdout.Reset()
			assert.Equal(t, c.status, runDiff([]string{"-format", "json", old, new}, &stdout, &stderr))
			golden(t, filepath.Join(c.name, "report.json"), stdout.Bytes())
			var r struct {
				Changes []struct {
					Class string `json:"class"`
				} `json:"changes"`
			}
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
			seen := map[string]bool{}
			for _, ch := range r.Changes {
				seen[ch.Class] = true
			}
			var classes []string
			for _, cl := range []string{"breaking", "security-relevant", "guard-loosened", "compatible"} {
				if seen[cl] {
					classes = append(classes, cl)
				}
			}
			assert.Equal(t, c.classes, classes)

			// The flags allow each class on its own.
			assert.Equal(t, 0, runDiff([]string{"-allow-breaking", "-allow-security", old, new}, &stdout, &stderr))
			if c.name == "security" {
				assert.Equal(t, 1, runDiff([]string{"-allow-breaking", old, new}, &stdout, &stderr))
				assert.Equal(t, 0, runDiff([]string{"-allow-security", old, new}, &stdout, &stderr))
			}
			if c.name == "breaking" {
				assert.Equal(t, 0, runDiff([]string{"-allow-breaking", old, new}, &stdout, &stderr))
			}
			// -fail-on-loosened fails the run on a loosened guard, and only then.
			want := 0
			if slices.Contains(c.classes, "guard-loosened") {
				want = 1
			}
			stderr.Reset()
			assert.Equal(t, want, runDiff([]string{"-allow-breaking", "-allow-security", "-fail-on-loosened", old, new}, &stdout, &stderr))
			if want == 1 {
				assert.Equal(t, "mcpgen diff: guards loosened (refused by -fail-on-loosened)\n", stderr.String())
			}
		})
	}
}

func TestDiffUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, runDiff([]string{"only-one.json"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "usage: mcpgen diff")

	stderr.Reset()
	ok := filepath.Join("testdata", "diff", "unchanged", "old.json")
	assert.Equal(t, 2, runDiff([]string{"-format", "yaml", ok, ok}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `unknown format "yaml"`)

	stderr.Reset()
	assert.Equal(t, 2, runDiff([]string{ok, "testdata/diff/missing.json"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "missing.json: no such file")

	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"tools":[{"name":"a"},{"name":"a"}]}`), 0o644))
	stderr.Reset()
	assert.Equal(t, 2, runDiff([]string{ok, bad}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "bad.json: catalog: tool a is listed twice")
}
