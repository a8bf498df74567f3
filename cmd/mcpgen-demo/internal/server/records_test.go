package server

import (
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCreateRecord stores records and reads them back from the database
// file with a connection of its own.
func TestCreateRecord(t *testing.T) {
	cs, dir := demoClient(t, nil)
	first := okResult(t, cs.Call("create_record", map[string]any{"table": "tasks", "data": map[string]any{"title": "Write docs", "done": false, "big": json.RawMessage("12345678901234567890")}}))
	assert.Equal(t, "tasks", first["table"])
	assert.Equal(t, 1.0, first["id"])
	assert.Equal(t, true, first["tableCreated"])
	assert.NotEmpty(t, first["createdAt"])
	// Not idempotent: the same call adds another record.
	second := okResult(t, cs.Call("create_record", map[string]any{"table": "tasks", "data": map[string]any{"title": "Write docs", "done": false}}))
	assert.Equal(t, 2.0, second["id"])
	assert.Equal(t, false, second["tableCreated"])

	db, err := sql.Open("sqlite", filepath.Join(dir, dbFile))
	require.NoError(t, err)
	defer db.Close()
	var data string
	require.NoError(t, db.QueryRow(`SELECT data FROM tasks WHERE id = 1`).Scan(&data))
	assert.JSONEq(t, `{"title": "Write docs", "done": false, "big": 12345678901234567890}`, data)
	assert.Contains(t, data, "12345678901234567890", "numbers are stored exactly as sent")

	for _, tc := range []struct {
		table string
		data  any
		want  string
	}{
		{"notes", map[string]any{"x": 1}, `table "notes" is used by the demo itself`},
		{"notes_fts", map[string]any{"x": 1}, "is used by the demo itself"},
		{"record_tables", map[string]any{"x": 1}, "is used by the demo itself"},
		{"sqlite_master", map[string]any{"x": 1}, "reserved by SQLite"},
		{`tasks"; DROP TABLE notes; --`, map[string]any{"x": 1}, "table: must match the pattern"},
		{"Tasks", map[string]any{"x": 1}, "table: must match the pattern"},
		{"tasks", map[string]any{}, "data: must have at least 1 property"},
		{"tasks", []any{1}, "data: must be an object"},
	} {
		msg := errResult(t, cs.Call("create_record", map[string]any{"table": tc.table, "data": tc.data}))
		assert.Contains(t, msg, tc.want, tc.table)
	}
	var n int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM notes`).Scan(&n))
	assert.Equal(t, len(sampleNotes), n, "the notes are untouched")
}

// TestCreateRecordTableCap checks the cap on the number of tables.
func TestCreateRecordTableCap(t *testing.T) {
	a, _ := newDemoApp(t, nil)
	db := a.demo.records.db
	for i := 0; i < maxRecordTables; i++ {
		_, err := db.Exec(`INSERT INTO record_tables (name, created_at) VALUES (?, 'x')`, "t"+string(rune('a'+i%26))+string(rune('a'+i/26)))
		require.NoError(t, err)
	}
	cs := demoSession(t, a, "")
	assert.Contains(t, errResult(t, cs.Call("create_record", map[string]any{"table": "one_more", "data": map[string]any{"x": 1}})), "the most it allows")
}
