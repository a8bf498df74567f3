package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Records stores JSON records in tables of the demo database. A table is
// created on its first record and listed in record_tables; names the demo
// uses itself (notes, ...) are refused.
type Records struct {
	db *sql.DB
}

// maxRecordTables bounds how many tables create_record makes.
const maxRecordTables = 100

// RecordArgs are the arguments of create_record.
type RecordArgs struct {
	_ struct{} `mcp:"title=Create Database Record,readOnly=false,destructive=false,idempotent=false,openWorld=false,maxArgBytes=65536"`
	// The table to add the record to, created on first use: a lowercase letter, then lowercase
	// letters, digits or underscores, e.g. "tasks".
	Table string `json:"table" jsonschema:"pattern=^[a-z][a-z0-9_]*$,maxLength=48,example=tasks"`
	// The record: a JSON object of up to 100 fields of any JSON type, e.g. {"title": "Write docs",
	// "done": false}.
	Data map[string]json.RawMessage `json:"data" jsonschema:"minProperties=1,maxProperties=100,example={\"title\":\"Write docs\"\\,\"done\":false}"`
}

// Record is the record create_record stored.
type Record struct {
	// The table the record is in.
	Table string `json:"table"`
	// The record's id, unique in its table.
	ID int64 `json:"id"`
	// When the record was stored, RFC 3339 UTC.
	CreatedAt string `json:"createdAt"`
	// True when this record created its table.
	TableCreated bool `json:"tableCreated"`
}

// Create creates a new record in the demo database: the data object is
// stored as JSON in the named table, which is created on first use. Every
// call adds a record. It returns the record's id.
//
// Example: {"table": "tasks", "data": {"title": "Write docs", "done": false}}
// returns {"table": "tasks", "id": 1, "createdAt": "..."}.
func (r *Records) Create(ctx context.Context, in RecordArgs) (Record, error) {
	if strings.HasPrefix(in.Table, "sqlite_") {
		return Record{}, mcptool.Errorf("table %q: names starting with sqlite_ are reserved by SQLite; pick another", in.Table)
	}
	data, err := json.Marshal(in.Data)
	if err != nil {
		return Record{}, err
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return Record{}, err
	}
	defer func() { _ = tx.Rollback() }()
	created, err := ensureRecordTable(ctx, tx, in.Table)
	if err != nil {
		return Record{}, err
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	// The table name is checked against ^[a-z][a-z0-9_]*$ (schema and
	// ensureRecordTable) and quoted; the values are parameters.
	res, err := tx.ExecContext(ctx, `INSERT INTO `+quoteIdent(in.Table)+` (data, created_at) VALUES (?, ?)`, string(data), now)
	if err != nil {
		return Record{}, fmt.Errorf("insert into %s: %w", in.Table, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Record{}, err
	}
	if err := tx.Commit(); err != nil {
		return Record{}, err
	}
	return Record{Table: in.Table, ID: id, CreatedAt: now, TableCreated: created}, nil
}

// ensureRecordTable makes sure table is a record table, creating it if no
// table of that name exists.
func ensureRecordTable(ctx context.Context, tx *sql.Tx, table string) (created bool, err error) {
	if !validTableName(table) {
		return false, mcptool.Errorf("table %q: use a lowercase letter, then lowercase letters, digits or underscores (at most 48)", table)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM record_tables WHERE name = ?`, table).Scan(&n); err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE lower(name) = ?`, table).Scan(&n); err != nil {
		return false, err
	}
	if n > 0 {
		return false, mcptool.Errorf("table %q is used by the demo itself; pick another name", table)
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM record_tables`).Scan(&n); err != nil {
		return false, err
	}
	if n >= maxRecordTables {
		return false, mcptool.Errorf("the demo database already has %d record tables, the most it allows; add the record to an existing table", n)
	}
	ddl := `CREATE TABLE ` + quoteIdent(table) + ` (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		data       TEXT NOT NULL CHECK (json_valid(data) AND json_type(data) = 'object'),
		created_at TEXT NOT NULL
	)`
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return false, fmt.Errorf("create table %s: %w", table, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO record_tables (name, created_at) VALUES (?, ?)`, table, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return false, err
	}
	return true, nil
}

// validTableName reports whether name matches ^[a-z][a-z0-9_]{0,47}$.
func validTableName(name string) bool {
	if len(name) == 0 || len(name) > 48 || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
