// Package cluster holds the seams of the state a registry keeps that
// replicas behind one load balancer must share: its tools' rate limits and
// concurrency caps ([Limiter]) and the requestStates already answered
// ([SpentStore]). By default a registry keeps both in its process, which is
// right for one replica; give it shared implementations with
// mcptool.Limits and mcptool.SpentStates (adapters/redis has both, and its
// Cluster wires them). Tasks keep their state in a taskstore.Store.
//
// The package holds the interfaces, so that an implementation need not
// import mcptool, and the in-process SpentStore both mcptool and
// adapters/oauth default to ([LocalSpent]).
package cluster

import (
	"context"
	"time"
)

// Limiter keeps the rate limits and concurrency caps of a registry's tools,
// by key: "tool/NAME" for a tool's rate limit and concurrency cap,
// "tool/NAME/session/ID" for its per-session rate limit, or
// "tool/NAME/principal/SUBJECT" for a call with a verified token (and
// those keys followed by "/running" for a caller's concurrency cap). The
// default keeps them in process (golang.org/x/time/rate and a semaphore per
// key); an implementation on shared storage makes them hold across
// replicas. An error fails the call with an internal error (logged, never
// shown).
type Limiter interface {
	// Allow takes one call from the rate limit key (perSecond calls per
	// second, in bursts of up to burst). When none is left it returns false
	// and how long until one is.
	Allow(ctx context.Context, key string, perSecond float64, burst int) (ok bool, retryAfter time.Duration, err error)
	// Acquire takes one of the n slots of key, or returns false when all
	// are taken. release gives the slot back.
	Acquire(ctx context.Context, key string, n int) (release func(), ok bool, err error)
}

// SpentStore remembers the requestStates that have been answered, so that
// each is answered once: a 2026-07-28 client that sends a requestState a
// second time (a replay of a confirmed call, say) is asked again, and the
// tool does not run on the old answers. The default keeps them in process;
// replicas behind one load balancer must share one (adapters/redis has
// one), or a replay sent to another replica would count.
type SpentStore interface {
	// Spend records id as spent until expires (when its requestState
	// expires, after which no replica accepts it anyway). It returns false
	// when id was already spent. An error fails the call with an internal
	// error (logged, never shown): an answer is never trusted unchecked.
	Spend(ctx context.Context, id string, expires time.Time) (first bool, err error)
}
