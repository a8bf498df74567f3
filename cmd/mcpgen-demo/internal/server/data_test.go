package server

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDataDirSeededOnce checks that a new data directory is seeded, and
// that an existing one is left as it is: what the user deleted stays
// deleted.
func TestDataDirSeededOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	cfg := config{features: full(), toolset: "demo", dataDir: dir}
	a, err := newApp(cfg, discardLogger())
	require.NoError(t, err)
	for name, content := range sampleFiles() {
		b, err := os.ReadFile(filepath.Join(dir, "files", name))
		require.NoError(t, err)
		assert.Equal(t, content, string(b))
	}
	_, err = a.demo.notes.db.Exec(`DELETE FROM notes WHERE id = 1`)
	require.NoError(t, err)
	require.NoError(t, a.close())
	require.NoError(t, os.Remove(filepath.Join(dir, "files", "sales.csv")))

	a, err = newApp(cfg, discardLogger())
	require.NoError(t, err)
	defer a.close()
	_, err = os.Stat(filepath.Join(dir, "files", "sales.csv"))
	assert.ErrorIs(t, err, os.ErrNotExist, "not seeded again")
	var n int
	require.NoError(t, a.demo.notes.db.QueryRow(`SELECT count(*) FROM notes`).Scan(&n))
	assert.Equal(t, len(sampleNotes)-1, n, "not seeded again")

	db, err := sql.Open("sqlite", filepath.Join(dir, dbFile))
	require.NoError(t, err)
	defer db.Close()
	var mode string
	require.NoError(t, db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
	assert.Equal(t, "wal", mode)
}

func TestDefaultDataDir(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/tmp/cfg-home")
	dir, err := defaultDataDir()
	require.NoError(t, err)
	if runtime.GOOS == "linux" {
		assert.Equal(t, "/tmp/cfg-home/mcpgen-demo", dir)
	}
	cfg, err := config{}.withDefaults()
	require.NoError(t, err)
	assert.Equal(t, dir, cfg.dataDir)
	assert.Equal(t, defaultWeatherURL, cfg.weatherURL)
	assert.Equal(t, defaultGitHubURL, cfg.githubURL)
	assert.Empty(t, cfg.searchURL, "no default search endpoint")
}

func TestBadDataDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	_, err := newApp(config{features: full(), toolset: "demo", dataDir: file}, discardLogger())
	assert.Error(t, err)
}

// TestDataDirPrivate checks that what the demo creates is its user's alone:
// the data directory 0700, demo.db and tasks.db (and SQLite's -wal and -shm
// beside them) 0600, whatever the umask lets through.
func TestDataDirPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := filepath.Join(t.TempDir(), "data")
	a, err := newApp(config{features: full(), toolset: "demo", dataDir: dir}, discardLogger())
	require.NoError(t, err)
	defer a.close()
	// A write, so that the WAL files exist.
	_, err = a.demo.notes.db.Exec(`UPDATE notes SET title = title WHERE id = 1`)
	require.NoError(t, err)

	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), "data directory")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var dbs []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		fi, err := e.Info()
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), e.Name())
		dbs = append(dbs, e.Name())
	}
	assert.Subset(t, dbs, []string{"demo.db", "demo.db-wal", "tasks.db"})
}
