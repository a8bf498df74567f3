package server

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnalyzeCSV analyzes the seeded sales.csv and checks the numbers
// against a plain computation of the same file.
func TestAnalyzeCSV(t *testing.T) {
	cs, _ := demoClient(t, nil)
	want := map[string]float64{}
	recs, err := csv.NewReader(strings.NewReader(salesCSV())).ReadAll()
	require.NoError(t, err)
	for _, rec := range recs[1:] {
		for i, col := range []string{"units", "unit_price", "revenue"} {
			v, err := strconv.ParseFloat(rec[3+i], 64)
			require.NoError(t, err)
			want[col] += v
		}
	}

	got := okResult(t, cs.Call("analyze_csv", map[string]any{"filepath": "sales.csv"}))
	assert.Equal(t, "sales.csv", got["file"])
	assert.Equal(t, 24.0, got["rows"])
	assert.Equal(t, []any{"month", "region", "product"}, got["skippedColumns"])
	cols := got["columns"].([]any)
	require.Len(t, cols, 3)
	for i, name := range []string{"units", "unit_price", "revenue"} {
		c := cols[i].(map[string]any)
		assert.Equal(t, name, c["name"])
		assert.InDelta(t, want[name], c["sum"], 1e-9, name)
		assert.InDelta(t, want[name]/24, c["average"], 1e-9, name)
		assert.Equal(t, 24.0, c["count"], name)
	}

	// Only the operations asked for.
	got = okResult(t, cs.Call("analyze_csv", map[string]any{"filepath": "./sales.csv", "operations": []string{"average"}}))
	c := got["columns"].([]any)[0].(map[string]any)
	assert.Equal(t, []string{"average", "name"}, sortedKeys(c))
}

func sortedKeys(m map[string]any) []string {
	out := keys(m)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestAnalyzeCSVRefusals checks the errors the model reads: paths that leave
// the data directory, files that are missing or not CSV, operations that do
// not exist.
func TestAnalyzeCSVRefusals(t *testing.T) {
	cs, dir := demoClient(t, nil)
	files := filepath.Join(dir, "files")
	secret := filepath.Join(dir, "secret.csv")
	require.NoError(t, os.WriteFile(secret, []byte("a\n1\n"), 0o600))
	require.NoError(t, os.Symlink(secret, filepath.Join(files, "escape.csv")))
	require.NoError(t, os.Symlink("sales.csv", filepath.Join(files, "alias.csv")))
	require.NoError(t, os.WriteFile(filepath.Join(files, "ragged.csv"), []byte("a,b\n1,2\n3\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(files, "empty.csv"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(files, "mixed.csv"), []byte("\uFEFFn,word,,blank\n1,x,2,\n2.5,3,4,\nNaN,y,,\n"), 0o600))

	for path, want := range map[string]string{
		"../secret.csv":       `"../secret.csv" leaves the data directory`,
		"scratch/../../x.csv": "leaves the data directory",
		secret:                "is absolute",
		"escape.csv":          "leads out of the data directory (symlink)",
		"nope.csv":            `"nope.csv" does not exist`,
		"ragged.csv":          `"ragged.csv" is not valid CSV: record on line 3: wrong number of fields`,
		"empty.csv":           `"empty.csv" is empty: no header row`,
		"scratch":             `"scratch" is not a regular file`,
	} {
		msg := errResult(t, cs.Call("analyze_csv", map[string]any{"filepath": path}))
		assert.Contains(t, msg, want, path)
	}
	msg := errResult(t, cs.Call("analyze_csv", map[string]any{"filepath": "sales.csv", "operations": []string{"sum", "median"}}))
	assert.Contains(t, msg, `operations[1]: must be one of "sum", "average", "count", got "median" (enum)`)

	got := okResult(t, cs.Call("analyze_csv", map[string]any{"filepath": "alias.csv", "operations": []string{"count"}}))
	assert.Equal(t, 24.0, got["rows"], "a symlink that stays inside is followed")

	// The BOM is not part of the first name; NaN is text; a column of
	// empty cells has nothing to report; an unnamed column gets a name.
	got = okResult(t, cs.Call("analyze_csv", map[string]any{"filepath": "mixed.csv"}))
	assert.Equal(t, []any{"n", "word", "blank"}, got["skippedColumns"])
	cols := got["columns"].([]any)
	require.Len(t, cols, 1)
	assert.Equal(t, map[string]any{"name": "column 3", "sum": 6.0, "average": 3.0, "count": 2.0}, cols[0])
}

// TestAnalyzeCSVProgress streams a larger file and checks the progress
// notifications: increasing, in bytes, with the file's size as the total.
func TestAnalyzeCSVProgress(t *testing.T) {
	a, dir := newDemoApp(t, nil)
	a.demo.files.progressEvery = 1000
	cs := demoSession(t, a, "")
	var b strings.Builder
	b.WriteString("id,value\n")
	for i := 1; i <= 10_500; i++ {
		fmt.Fprintf(&b, "%d,%d.5\n", i, i%7)
	}
	path := filepath.Join(dir, "files", "big.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o600))

	got := okResult(t, cs.Call("analyze_csv", map[string]any{"filepath": "big.csv", "operations": []string{"count", "sum"}}))
	assert.Equal(t, 10_500.0, got["rows"])
	assert.Equal(t, map[string]any{"name": "value", "count": 10_500.0, "sum": 10_500*0.5 + float64(sumMod7(10_500))}, got["columns"].([]any)[1])

	size := float64(len(b.String()))
	seen := cs.Progress(11)
	require.Len(t, seen, 11, "progress every 1000 rows, then done")
	for i, p := range seen {
		assert.Equal(t, "analyze_csv-1", p.ProgressToken, "the token the call sent")
		assert.Equal(t, size, p.Total)
		if i > 0 {
			assert.Greater(t, p.Progress, seen[i-1].Progress)
		}
	}
	assert.Equal(t, "1000 rows read", seen[0].Message)
	assert.Equal(t, size, seen[10].Progress)
}

func sumMod7(n int) int {
	s := 0
	for i := 1; i <= n; i++ {
		s += i % 7
	}
	return s
}

// TestAnalyzeCSVBounds checks the per-call bounds: a record longer than
// 1 MiB (one endless line, or a quote never closed across many lines) and a
// header of more than 10,000 columns are refused instead of being held in
// memory; a file of many ordinary rows is not.
func TestAnalyzeCSVBounds(t *testing.T) {
	cs, dir := demoClient(t, nil)
	files := filepath.Join(dir, "files")
	long := "a,b\n1," + strings.Repeat("9", 2<<20) + "\n"
	quote := "a,b\n1,\"" + strings.Repeat("never closed\n", 200_000)
	wide := strings.Repeat("c,", 10_000) + "c\n"
	for name, content := range map[string]string{"long.csv": long, "quote.csv": quote, "wide.csv": wide} {
		require.NoError(t, os.WriteFile(filepath.Join(files, name), []byte(content), 0o600))
	}
	for path, want := range map[string]string{
		"long.csv":  `"long.csv" has a record (a row, or a quoted cell) longer than 1048576 bytes, more than analyze_csv reads`,
		"quote.csv": `"quote.csv" has a record (a row, or a quoted cell) longer than 1048576 bytes`,
		"wide.csv":  `"wide.csv" has 10001 columns, more than the 10000 analyze_csv reads`,
	} {
		assert.Contains(t, errResult(t, cs.Call("analyze_csv", map[string]any{"filepath": path})), want, path)
	}
}
