package mcptool

import (
	"time"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// How tasks are configured: the extension's name, TaskSettings and their
// defaults, and a tool's task mode.

// TasksExtension is the identifier of the MCP Tasks extension, under which
// servers and clients declare it in their capabilities' extensions.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskSettings configure tasks: on a registry with [Tasks] (every field),
// on one tool with [Task] and [TaskRequired] (every field but Store). A zero
// field keeps the default.
type TaskSettings struct {
	// Store keeps the tasks. Default: a [taskstore.Memory] per registry.
	// Use a durable store (adapters/sqlite) for tasks that outlive the
	// process, a shared one (adapters/redis) for replicas.
	Store taskstore.Store
	// TTL is how long a task is kept after it was created, reported to
	// the client as ttlMs. Default 1 hour; negative means unlimited.
	TTL time.Duration
	// PollInterval is the polling interval suggested to the client
	// (pollIntervalMs). Default 500ms.
	PollInterval time.Duration
	// Wait is how long a call may run before it becomes a task. Within it,
	// a call that finishes is answered directly (the spec's immediate
	// result: so a client that declares the extension but never polls still
	// gets quick results) and one that asks for input gets an
	// input-required result (the 2026-07-28 multi round trip). Default 1
	// second; negative: a task at once. A Wait that is set (on the tool or
	// the registry) also makes the call a task as soon as it reports
	// [Progress].
	Wait time.Duration
	// Lease is how long a running task stays its worker's without a sign
	// of life. The worker renews it every Lease/3; a task whose lease ran
	// out (its process died) is failed by whoever reads it next, so it
	// never stays working. Default 30 seconds. Shorter finds a dead
	// replica's tasks sooner, at the cost of a store write every Lease/3
	// per running task.
	Lease time.Duration
}

// Defaults of [TaskSettings].
const (
	defaultTaskTTL   = time.Hour
	defaultTaskPoll  = 500 * time.Millisecond
	defaultTaskLease = 30 * time.Second
	defaultTaskWait  = time.Second
)

type taskMode uint8

const (
	taskNever taskMode = iota
	taskOptional
	taskRequired
)

// taskSpec is a tool's task configuration.
type taskSpec struct {
	mode taskMode
	set  TaskSettings
}

func taskModeOf(s annotations.TaskSupport) taskMode {
	switch s {
	case annotations.TaskOptional:
		return taskOptional
	case annotations.TaskRequired:
		return taskRequired
	}
	return taskNever
}

func firstSettings(s []TaskSettings) TaskSettings {
	if len(s) > 0 {
		return s[0]
	}
	return TaskSettings{}
}

// over returns base with the fields s sets (non-zero) replaced.
func (s TaskSettings) over(base TaskSettings) TaskSettings {
	if s.Store != nil {
		base.Store = s.Store
	}
	if s.TTL != 0 {
		base.TTL = s.TTL
	}
	if s.PollInterval != 0 {
		base.PollInterval = s.PollInterval
	}
	if s.Wait != 0 {
		base.Wait = s.Wait
	}
	if s.Lease != 0 {
		base.Lease = s.Lease
	}
	return base
}
