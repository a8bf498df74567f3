package mcpoauth_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAuthDocCompiles type-checks and vets every Go code block of
// docs/auth.md, as a package of this module (so that it builds against
// mcpoauth and the core as they are).
func TestAuthDocCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	doc, err := os.ReadFile("../../docs/auth.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(doc, -1)
	require.NotEmpty(t, blocks)
	root, err := os.MkdirTemp(".", "docscheck-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	var pkgs []string
	for i, b := range blocks {
		dir := filepath.Join(root, fmt.Sprintf("block%d", i))
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "block.go"), b[1], 0o644))
		pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
	}
	out, err := exec.Command("go", append([]string{"vet"}, pkgs...)...).CombinedOutput()
	require.NoError(t, err, "the Go blocks of docs/auth.md:\n%s", out)
}
