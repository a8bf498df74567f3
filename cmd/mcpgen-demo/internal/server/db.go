package server

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// dbFile is the database's name in the data directory.
const dbFile = "demo.db"

// schema creates the demo's tables when they do not exist: the notes with
// their full-text index (FTS5, kept in sync by triggers), and the catalogue
// of create_record's tables.
const schema = `
CREATE TABLE IF NOT EXISTS notes (
	id         INTEGER PRIMARY KEY,
	title      TEXT NOT NULL,
	body       TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts USING fts5(
	title, body, content='notes', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS notes_ai AFTER INSERT ON notes BEGIN
	INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER IF NOT EXISTS notes_ad AFTER DELETE ON notes BEGIN
	INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER IF NOT EXISTS notes_au AFTER UPDATE ON notes BEGIN
	INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
	INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TABLE IF NOT EXISTS record_tables (
	name       TEXT PRIMARY KEY,
	created_at TEXT NOT NULL
);
`

// openDB opens DIR/demo.db, creating its tables, and seeds the notes when
// their table is new.
func openDB(open func(dsn string) (*sql.DB, error), dataDir string) (_ *sql.DB, seeded bool, err error) {
	path := filepath.Join(dataDir, dbFile)
	if strings.ContainsRune(path, '?') {
		return nil, false, fmt.Errorf("data directory %q: the database path must not contain '?'", dataDir)
	}
	if err := createPrivate(path); err != nil {
		return nil, false, fmt.Errorf("database %s: %w", path, err)
	}
	db, err := open(path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, false, err
	}
	defer func() {
		if err != nil {
			_ = db.Close()
		}
	}()
	// One connection: SQLite writes one at a time anyway, and the demo's
	// queries are short.
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, fmt.Errorf("database %s: %w", path, err)
	}
	defer func() { _ = tx.Rollback() }()
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'notes'`).Scan(&n); err != nil {
		return nil, false, fmt.Errorf("database %s: %w", path, err)
	}
	if _, err := tx.Exec(schema); err != nil {
		return nil, false, fmt.Errorf("database %s: creating tables: %w", path, err)
	}
	if n == 0 {
		now := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
		for i, p := range sampleNotes {
			at := now.Add(time.Duration(i) * 26 * time.Hour).Format(time.RFC3339)
			if _, err := tx.Exec(`INSERT INTO notes (title, body, created_at, updated_at) VALUES (?, ?, ?, ?)`, p.title, p.body, at, at); err != nil {
				return nil, false, fmt.Errorf("database %s: seeding notes: %w", path, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, false, fmt.Errorf("database %s: %w", path, err)
	}
	return db, n == 0, nil
}

// sampleNotes are the pages a new database starts with.
var sampleNotes = []struct{ title, body string }{
	{"Welcome to the mcpgen demo", `This notes collection belongs to the mcpgen demo server. ` +
		`search_pages finds pages by title or content, get_page reads one, and delete_page removes one after you confirm. ` +
		`Every tool of the demo is a plain Go function or a method of a small service; mcpgen derives its schema from the Go types.`},
	{"Meeting notes: release planning", `Attendees: Ada, Grace, Linus. ` +
		`Agenda: scope of the 0.2 release, the demo server, documentation. ` +
		`Decisions: ship the demo with real tools only (no fake data); generate docs/tools.md from the code; ` +
		`freeze features two weeks before the release. Action items: Ada drafts the release plan, Grace reviews the schema docs.`},
	{"Meeting notes: schema design review", `We reviewed how struct tags become JSON Schema. ` +
		`Agreed: every property gets a description; enums come from jsonschema enum= or validate oneof; ` +
		`defaults apply before the function runs. Open question: how to document results that are not objects.`},
	{"Release plan 0.2", `Milestones: feature freeze on March 2, release candidate on March 9, release on March 16. ` +
		`Risks: the 2026-07-28 protocol revision may change the input-required flow. ` +
		`Owner: Ada. The release notes go in the changelog.`},
	{"Onboarding checklist", `1. Install Go. 2. Run go run ./cmd/mcpgen-demo and list its tools with the MCP Inspector. ` +
		`3. Read the tutorial in the README. 4. Write a tool of your own: a function with a typed argument struct. ` +
		`5. Run go test ./... before you send a change.`},
	{"Tool annotations cheat sheet", `readOnlyHint: the tool does not change its environment. ` +
		`destructiveHint: it may delete or overwrite (default true when not read-only). ` +
		`idempotentHint: calling it again with the same arguments changes nothing more. ` +
		`openWorldHint: it talks to things outside the server, such as the web. Hints are hints: never a security boundary.`},
}
