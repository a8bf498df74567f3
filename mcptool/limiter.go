package mcptool

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/cluster"
	"golang.org/x/time/rate"
)

// Limits sets where the registry keeps its tools' rate limits and
// concurrency caps (the keys it uses: see [cluster.Limiter]). The default
// (and Limits(nil)) keeps them in this process; adapters/redis has one that
// holds across replicas.
func Limits(l cluster.Limiter) RegistryOption {
	return registryOption(func(c *registryConfig) { c.limiter = l })
}

// localLimiter is the in-process [cluster.Limiter]. This file holds the
// rate limits and concurrency caps of tools: Limits, localLimiter and
// semaphore.
type localLimiter struct {
	buckets sync.Map // key → *rate.Limiter
	slots   sync.Map // key → *semaphore
	ops     atomic.Uint32
}

func (l *localLimiter) Allow(_ context.Context, key string, perSecond float64, burst int) (bool, time.Duration, error) {
	v, ok := l.buckets.Load(key)
	if !ok {
		v, _ = l.buckets.LoadOrStore(key, rate.NewLimiter(rate.Limit(perSecond), burst))
	}
	b := v.(*rate.Limiter)
	if b.Limit() != rate.Limit(perSecond) || b.Burst() != burst { // the tool was registered again
		b.SetLimit(rate.Limit(perSecond))
		b.SetBurst(burst)
	}
	// Now and then drop buckets that are full again: their sessions are
	// idle or gone, and a fresh bucket behaves the same.
	if l.ops.Add(1)%1024 == 0 {
		l.buckets.Range(func(k, v any) bool {
			if bl := v.(*rate.Limiter); k != key && bl.Tokens() >= float64(bl.Burst()) {
				l.buckets.CompareAndDelete(k, v)
			}
			return true
		})
	}
	if b.Allow() {
		return true, 0, nil
	}
	r := b.Reserve()
	d := r.Delay()
	r.Cancel()
	return false, d, nil
}

func (l *localLimiter) Acquire(_ context.Context, key string, n int) (func(), bool, error) {
	v, ok := l.slots.Load(key)
	if !ok || cap(v.(*semaphore).ch) != n {
		s := &semaphore{ch: make(chan struct{}, n)}
		s.release = func() { <-s.ch }
		if ok {
			l.slots.CompareAndSwap(key, v, s) // the tool was registered again
		} else {
			l.slots.LoadOrStore(key, s)
		}
		v, _ = l.slots.Load(key)
	}
	s := v.(*semaphore)
	select {
	case s.ch <- struct{}{}:
		return s.release, true, nil
	default:
		return nil, false, nil
	}
}

// semaphore is n slots; release gives one back.
type semaphore struct {
	ch      chan struct{}
	release func()
}
