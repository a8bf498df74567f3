package mcptool

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// Why a task whose lease ran out is failed: its worker stopped renewing it.
const (
	leaseWorkerGone   = "the server running the task stopped"
	leaseStoreRestart = "the task store restarted while the task ran, and the server running it has not renewed it since: its outcome is lost"
)

// lapsed reports whether t, not terminal, has lost its worker at now, and
// what to tell its client. A lease that ran out across a restart of the
// store (a taskstore.Restarter) lapsed because the renewals could not be
// stored: the worker gets a lease's time from the restart to renew it
// before the task is failed, and then the message says the store
// restarted.
func (r *Registry) lapsed(ctx context.Context, t *taskstore.Task, now time.Time) (msg string, ok bool) {
	if t.Status.Terminal() || t.LeaseUntil.IsZero() || !now.After(t.LeaseUntil) {
		return "", false
	}
	rs, isRestarter := r.taskStore().(taskstore.Restarter)
	if !isRestarter {
		return leaseWorkerGone, true
	}
	started, err := rs.StartedAt(ctx)
	if err != nil || !started.After(t.UpdatedAt) {
		return leaseWorkerGone, true
	}
	lease := t.LeaseUntil.Sub(t.UpdatedAt) // written together at each renewal
	if now.Before(started.Add(lease)) {
		return "", false // its worker may still renew it
	}
	return leaseStoreRestart, true
}
