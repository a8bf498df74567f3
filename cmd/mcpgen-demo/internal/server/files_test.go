package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// TestDeleteFile deletes the seeded draft after the user confirms, in both
// protocol eras.
func TestDeleteFile(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("version="+version, func(t *testing.T) {
			conf := &confirmer{accept: true}
			a, dir := newDemoApp(t, nil)
			cs := demoSession(t, a, version, mcptest.Elicit(conf.handle))
			draft := filepath.Join(dir, "files", "scratch", "draft.txt")
			fi, err := os.Stat(draft)
			require.NoError(t, err, "seeded")

			got := okResult(t, cs.Call("delete_file", map[string]any{"path": "scratch/draft.txt"}))
			assert.Equal(t, map[string]any{"path": "scratch/draft.txt", "deleted": true, "size": float64(fi.Size())}, got)
			_, err = os.Stat(draft)
			assert.ErrorIs(t, err, os.ErrNotExist)
			require.Len(t, conf.questions(), 1)
			assert.Contains(t, conf.questions()[0], `Allow "Delete File" to run?`)
			assert.Contains(t, conf.questions()[0], "scratch/draft.txt")

			// Idempotent: a second call deletes nothing more, and says why.
			assert.Contains(t, errResult(t, cs.Call("delete_file", map[string]any{"path": "scratch/draft.txt"})), `"scratch/draft.txt" does not exist`)
		})
	}
}

// TestDeleteFileRefusals checks what delete_file will not do, and that
// nothing is deleted when the user declines or cannot be asked.
func TestDeleteFileRefusals(t *testing.T) {
	conf := &confirmer{accept: true}
	a, dir := newDemoApp(t, nil)
	cs := demoSession(t, a, "", mcptest.Elicit(conf.handle))
	outside := filepath.Join(dir, "keep.txt")
	require.NoError(t, os.WriteFile(outside, []byte("keep"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "files", "link-out")))
	for path, want := range map[string]string{
		"../keep.txt":       "leaves the data directory",
		"../demo.db":        "leaves the data directory",
		outside:             "is absolute",
		"link-out":          "leads out of the data directory (symlink)",
		"scratch":           `"scratch" is a directory; delete_file deletes files only`,
		".":                 `"." is a directory`,
		"scratch/missing.x": "does not exist",
	} {
		assert.Contains(t, errResult(t, cs.Call("delete_file", map[string]any{"path": path})), want, path)
	}
	_, err := os.Stat(outside)
	require.NoError(t, err, "nothing outside the files folder was touched")
	_, err = os.Stat(filepath.Join(dir, dbFile))
	require.NoError(t, err)

	draft := filepath.Join(dir, "files", "scratch", "draft.txt")
	declined := demoSession(t, a, "2025-11-25", mcptest.Elicit((&confirmer{}).handle))
	assert.Contains(t, errResult(t, declined.Call("delete_file", map[string]any{"path": "scratch/draft.txt"})), "the user did not confirm (decline); delete_file was not run")
	cannotAsk := demoSession(t, a, "2025-11-25")
	assert.Contains(t, errResult(t, cannotAsk.Call("delete_file", map[string]any{"path": "scratch/draft.txt"})), "cannot ask the user")
	_, err = os.Stat(draft)
	require.NoError(t, err, "not deleted")

	// -confirm=false: for clients that cannot ask, no question.
	a, dir = newDemoApp(t, func(c *config) { c.noConfirm = true })
	cs = demoSession(t, a, "")
	okResult(t, cs.Call("delete_file", map[string]any{"path": "scratch/draft.txt"}))
	_, err = os.Stat(filepath.Join(dir, "files", "scratch", "draft.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
