package server

// The data directory: where the demo keeps its files and its database, and
// what it holds on first run.
//
//	DIR/files/     what analyze_csv reads, delete_file deletes and execute_command runs in
//	DIR/demo.db    the SQLite database of create_record and the notes tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// defaultDataDir is the per-user data directory: mcpgen-demo in the user's
// configuration directory (~/.config on Linux, ~/Library/Application Support
// on macOS, %AppData% on Windows), else in the cache directory.
func defaultDataDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		if base, err = os.UserCacheDir(); err != nil {
			return "", fmt.Errorf("no per-user directory for the data (%v): give one with -data DIR", err)
		}
	}
	return filepath.Join(base, "mcpgen-demo"), nil
}

// displayDataDir is the default data directory for -help.
func displayDataDir() string {
	dir, err := defaultDataDir()
	if err != nil {
		return "none: " + err.Error()
	}
	return dir
}

// openFiles opens DIR/files as the root the file tools are confined to,
// creating and seeding it when it does not exist yet.
func openFiles(dataDir string) (root *safety.Root, seeded bool, err error) {
	dir := filepath.Join(dataDir, "files")
	_, err = os.Stat(dir)
	fresh := errors.Is(err, fs.ErrNotExist)
	if err != nil && !fresh {
		return nil, false, err
	}
	root, err = safety.OpenRoot(dir)
	if err != nil {
		return nil, false, fmt.Errorf("data directory: %w", err)
	}
	if !fresh {
		return root, false, nil
	}
	for name, content := range sampleFiles() {
		if err := root.WriteFile(name, []byte(content)); err != nil {
			_ = root.Close()
			return nil, false, fmt.Errorf("seeding %s: %w", name, err)
		}
	}
	return root, true, nil
}

// sampleFiles are the files a new data directory starts with.
func sampleFiles() map[string]string {
	return map[string]string{
		"sales.csv": salesCSV(),
		"scratch/draft.txt": "A draft nobody needs any more.\n" +
			"Try delete_file on scratch/draft.txt.\n",
	}
}

// salesCSV is a year of monthly sales for two regions: 24 rows of
// month,region,product,units,unit_price,revenue.
func salesCSV() string {
	var b strings.Builder
	b.WriteString("month,region,product,units,unit_price,revenue\n")
	products := []struct {
		name  string
		price float64
	}{{"widget", 2.50}, {"gadget", 12.00}}
	for m := 1; m <= 12; m++ {
		for i, region := range []string{"north", "south"} {
			p := products[(m+i)%2]
			units := 40 + (m*7+i*13)%25
			fmt.Fprintf(&b, "2025-%02d,%s,%s,%d,%.2f,%.2f\n", m, region, p.name, units, p.price, float64(units)*p.price)
		}
	}
	return b.String()
}

// The data directory holds what the tools' users stored (notes, records,
// tasks with their arguments and results): only the server's user may read
// it. A directory or database that exists already keeps its mode.
const (
	dataDirMode = 0o700
	dbFileMode  = 0o600
)

// makeDataDir creates the data directory, private to the server's user, when
// it does not exist.
func makeDataDir(dir string) error {
	if err := os.MkdirAll(dir, dataDirMode); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	return nil
}

// createPrivate creates the file at path with mode 0600 when it does not
// exist, so that SQLite, which would create it 0644, opens this one (its
// -wal and -shm files take the database file's mode).
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, dbFileMode)
	if err != nil {
		return err
	}
	return f.Close()
}
