// Package taskstore defines where mcpgen keeps the state of tasks (the MCP
// Tasks extension, io.modelcontextprotocol/tasks): the [Store] interface, the
// [Task] record, and [Memory], the in-process store every registry uses
// unless told otherwise.
//
// A store holds records; it knows nothing of the protocol. mcpgen writes every
// change as a compare-and-set ([Store.Update] on [Task.Version]), so several
// processes (replicas behind a load balancer) can share one store: the
// process running a task owns a lease on it ([Task.Worker],
// [Task.LeaseUntil]) that it renews while the task runs, and a reader that
// finds a non-terminal task whose lease has run out knows the worker died and
// fails the task. Cancellation and input answers are written into the record
// by whichever process receives tasks/cancel or tasks/update; [Store.Watch]
// carries the news to the process running the task.
//
// Implementations: [Memory] here, github.com/mcpgen/mcpgen/adapters/sqlite
// (durable, one process), and the Redis store of adapters/redis (shared by
// replicas). Package storetest checks any implementation.
package taskstore

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Status is a task's status, as the protocol names it.
type Status string

// The statuses of a task. Completed, Failed and Cancelled are terminal.
const (
	Working       Status = "working"
	InputRequired Status = "input_required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Cancelled     Status = "cancelled"
)

// Terminal reports whether s is a final status.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// Task is the stored state of one task.
type Task struct {
	// ID is the task ID the client sees: unguessable, made by mcpgen.
	ID string `json:"id"`
	// Tool is the name of the tool the task runs.
	Tool string `json:"tool"`
	// Owner is who created the task: a principal (only it may use the
	// task), "session:" and a session ID (an unauthenticated 2025-era
	// session: the session scopes List, and anyone holding the ID may use
	// the task), or "" (anyone holding the ID).
	Owner string `json:"owner,omitempty"`

	Status        Status    `json:"status"`
	StatusMessage string    `json:"statusMessage,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	// ExpiresAt is when the store may forget the task (CreatedAt + TTL);
	// zero means never. Get reports ErrNotFound after it.
	ExpiresAt    time.Time     `json:"expiresAt,omitzero"`
	PollInterval time.Duration `json:"pollInterval,omitempty"`

	// InputRequests are the outstanding input requests (elicitation,
	// sampling, roots) by key, as JSON, while the status is input_required.
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	// Answers are input responses a tasks/update delivered, by key, not yet
	// taken by the worker.
	Answers map[string]json.RawMessage `json:"answers,omitempty"`
	// Issued counts the input requests made so far, so that keys are never
	// reused within a task.
	Issued int `json:"issued,omitempty"`

	// Result is the tool's result (a CallToolResult) once Completed.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the JSON-RPC error object once Failed.
	Error json.RawMessage `json:"error,omitempty"`

	// CancelRequested is set by tasks/cancel for the worker to act on.
	CancelRequested bool `json:"cancelRequested,omitempty"`
	// Worker identifies the process running the task; LeaseUntil is when
	// its claim runs out unless it renews it.
	Worker     string    `json:"worker,omitempty"`
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`

	// Version is the record's version: Create stores 1, each Update adds 1.
	Version int64 `json:"version"`
}

// Expired reports whether the task is past its expiry at now.
func (t *Task) Expired(now time.Time) bool {
	return !t.ExpiresAt.IsZero() && !now.Before(t.ExpiresAt)
}

// Errors a Store returns (possibly wrapped).
var (
	// ErrNotFound: no task has that ID, or it has expired.
	ErrNotFound = errors.New("taskstore: task not found")
	// ErrExists: Create was given an ID already in use.
	ErrExists = errors.New("taskstore: task already exists")
	// ErrConflict: Update was given a Version that is no longer current.
	ErrConflict = errors.New("taskstore: task changed concurrently")
)

// Store keeps tasks. Every method is safe for concurrent use, and a store
// may be shared by several processes.
type Store interface {
	// Create stores a new task with Version 1 (t.Version is ignored). When
	// it returns, Get finds the task in every process sharing the store.
	Create(ctx context.Context, t Task) error
	// Get returns the task with the given ID, or ErrNotFound (also once it
	// has expired).
	Get(ctx context.Context, id string) (Task, error)
	// Update stores t if the stored task's Version equals t.Version, as
	// Version+1, and returns what it stored. ErrConflict when the versions
	// differ, ErrNotFound when the task is gone.
	Update(ctx context.Context, t Task) (Task, error)
	// Watch returns a channel that receives after each successful Update
	// of the task (several updates may be coalesced into one receive),
	// until ctx is done, when it is closed. Updates made by any process
	// sharing the store are seen.
	Watch(ctx context.Context, id string) (<-chan struct{}, error)
}

// Lister is a Store that can list the tasks of one owner, for the tasks/list
// of the 2025-11-25 experimental tasks. A server whose store is not a Lister
// does not offer tasks/list.
type Lister interface {
	// List returns up to limit unexpired tasks whose Owner is owner and
	// whose ID sorts after after (all when after is ""), in ID order.
	List(ctx context.Context, owner, after string, limit int) ([]Task, error)
}

// Restarter is a Store on a server that can restart (Redis), which says
// when it last started. A task whose lease ran out across a restart of the
// store lost its renewals to the store, not necessarily its worker: mcpgen
// gives the worker a lease's time after the restart to renew it, and a task
// it fails then says the store restarted, not that its server stopped.
type Restarter interface {
	// StartedAt returns when the store's server last started.
	StartedAt(ctx context.Context) (time.Time, error)
}
