// Package sqlite is a durable taskstore.Store for mcpgen's tasks, in an
// embedded SQLite database (modernc.org/sqlite: pure Go, no cgo) in WAL mode.
//
// A completed task keeps its result across restarts until its TTL runs
// out. The database belongs to one process at a time: when Open finds tasks
// that were still running, their process has died, and they become failed
// ("server restarted") — a task never stays working forever. Replicas that
// share tasks need a shared store (adapters/redis) instead.
//
//	store, err := sqlite.Open("tasks.db")
//	...
//	reg := mcptool.NewRegistry(mcptool.Tasks(mcptool.TaskSettings{Store: store}))
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// Store is a taskstore.Store in a SQLite database file.
type Store struct {
	db *sql.DB

	mu       sync.Mutex
	watchers map[string]map[chan struct{}]struct{}
	now      func() time.Time
}

var (
	_ taskstore.Store  = (*Store)(nil)
	_ taskstore.Lister = (*Store)(nil)
)

// RestartedMessage is the status message (and error message) of a task
// that was running when the process using the database stopped.
const RestartedMessage = "server restarted"

const schema = `
CREATE TABLE IF NOT EXISTS mcpgen_tasks (
	id         TEXT PRIMARY KEY,
	version    INTEGER NOT NULL,
	expires_at INTEGER NOT NULL, -- unix milliseconds; 0: never
	terminal   INTEGER NOT NULL,
	data       TEXT NOT NULL     -- the taskstore.Task as JSON
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS mcpgen_tasks_expiry ON mcpgen_tasks (expires_at) WHERE expires_at > 0;
CREATE INDEX IF NOT EXISTS mcpgen_tasks_owner ON mcpgen_tasks (json_extract(data, '$.owner'), id);`

// Open opens (creating it if needed) the database at path, drops the tasks
// past their TTL, and fails the tasks a previous process left running.
func Open(path string) (*Store, error) {
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	s := &Store{db: db, watchers: map[string]map[chan struct{}]struct{}{}, now: time.Now}
	if err := s.init(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return s, nil
}

func (s *Store) init(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, schema); err != nil {
		return err
	}
	now := s.now()
	if _, err := s.db.ExecContext(ctx, `DELETE FROM mcpgen_tasks WHERE expires_at > 0 AND expires_at <= ?`, now.UnixMilli()); err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT data FROM mcpgen_tasks WHERE terminal = 0`)
	if err != nil {
		return err
	}
	var orphans []taskstore.Task
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			rows.Close()
			return err
		}
		var t taskstore.Task
		if err := json.Unmarshal([]byte(data), &t); err != nil {
			rows.Close()
			return err
		}
		orphans = append(orphans, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	errJSON, _ := json.Marshal(map[string]any{"code": -32603, "message": RestartedMessage})
	for _, t := range orphans {
		t.Status, t.StatusMessage, t.Error = taskstore.Failed, RestartedMessage, errJSON
		t.InputRequests, t.Answers, t.Worker, t.LeaseUntil = nil, nil, "", time.Time{}
		t.UpdatedAt = now.UTC()
		t.Version++
		if err := s.write(ctx, `UPDATE mcpgen_tasks SET data = ?, version = ?, terminal = 1 WHERE id = ?`, t, t.Version, t.ID); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) write(ctx context.Context, query string, t taskstore.Task, args ...any) error {
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, query, append([]any{string(data)}, args...)...)
	return err
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func expiry(t taskstore.Task) int64 {
	if t.ExpiresAt.IsZero() {
		return 0
	}
	return t.ExpiresAt.UnixMilli()
}

func terminal(t taskstore.Task) int {
	if t.Status.Terminal() {
		return 1
	}
	return 0
}

// Create implements taskstore.Store.
func (s *Store) Create(ctx context.Context, t taskstore.Task) error {
	t.Version = 1
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	now := s.now().UnixMilli()
	// An expired task with the same ID gives way.
	_, err = s.db.ExecContext(ctx, `DELETE FROM mcpgen_tasks WHERE id = ? AND expires_at > 0 AND expires_at <= ?`, t.ID, now)
	if err != nil {
		return fmt.Errorf("sqlite: create task: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO mcpgen_tasks (id, version, expires_at, terminal, data) VALUES (?, 1, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		t.ID, expiry(t), terminal(t), string(data))
	if err != nil {
		return fmt.Errorf("sqlite: create task: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", taskstore.ErrExists, t.ID)
	}
	return nil
}

// Get implements taskstore.Store.
func (s *Store) Get(ctx context.Context, id string) (taskstore.Task, error) {
	var data string
	err := s.db.QueryRowContext(ctx, `SELECT data FROM mcpgen_tasks WHERE id = ? AND (expires_at = 0 OR expires_at > ?)`,
		id, s.now().UnixMilli()).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return taskstore.Task{}, taskstore.ErrNotFound
	}
	if err != nil {
		return taskstore.Task{}, fmt.Errorf("sqlite: get task: %w", err)
	}
	var t taskstore.Task
	if err := json.Unmarshal([]byte(data), &t); err != nil {
		return taskstore.Task{}, fmt.Errorf("sqlite: task %s: %w", id, err)
	}
	return t, nil
}

// listQuery reads one page of an owner's tasks through mcpgen_tasks_owner.
const listQuery = `SELECT data FROM mcpgen_tasks
	WHERE json_extract(data, '$.owner') = ? AND id > ? AND (expires_at = 0 OR expires_at > ?)
	ORDER BY id LIMIT ?`

// List implements taskstore.Lister, from an index on the owner.
func (s *Store) List(ctx context.Context, owner, after string, limit int) ([]taskstore.Task, error) {
	rows, err := s.db.QueryContext(ctx, listQuery, owner, after, s.now().UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list tasks: %w", err)
	}
	defer rows.Close()
	var out []taskstore.Task
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("sqlite: list tasks: %w", err)
		}
		var t taskstore.Task
		if err := json.Unmarshal([]byte(data), &t); err != nil {
			return nil, fmt.Errorf("sqlite: list tasks: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list tasks: %w", err)
	}
	return out, nil
}

// Update implements taskstore.Store.
func (s *Store) Update(ctx context.Context, t taskstore.Task) (taskstore.Task, error) {
	old := t.Version
	t.Version++
	data, err := json.Marshal(t)
	if err != nil {
		return taskstore.Task{}, err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE mcpgen_tasks SET data = ?, version = ?, expires_at = ?, terminal = ?
		WHERE id = ? AND version = ? AND (expires_at = 0 OR expires_at > ?)`,
		string(data), t.Version, expiry(t), terminal(t), t.ID, old, s.now().UnixMilli())
	if err != nil {
		return taskstore.Task{}, fmt.Errorf("sqlite: update task: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.Get(ctx, t.ID); err != nil {
			return taskstore.Task{}, err
		}
		return taskstore.Task{}, taskstore.ErrConflict
	}
	s.mu.Lock()
	for ch := range s.watchers[t.ID] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	s.mu.Unlock()
	return t, nil
}

// Watch implements taskstore.Store, for updates made through this Store
// (the database belongs to one process).
func (s *Store) Watch(ctx context.Context, id string) (<-chan struct{}, error) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	set := s.watchers[id]
	if set == nil {
		set = map[chan struct{}]struct{}{}
		s.watchers[id] = set
	}
	set[ch] = struct{}{}
	s.mu.Unlock()
	go func() {
		<-ctx.Done()
		s.mu.Lock()
		delete(set, ch)
		if len(s.watchers[id]) == 0 {
			delete(s.watchers, id)
		}
		close(ch)
		s.mu.Unlock()
	}()
	return ch, nil
}
