package taskstore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Memory is a Store in the process's memory: the default. Its tasks are lost
// when the process exits, and other processes cannot see them. The zero
// value is not usable; call NewMemory.
type Memory struct {
	mu        sync.Mutex
	tasks     map[string]*Task
	watchers  map[string]map[chan struct{}]struct{}
	now       func() time.Time
	lastSweep time.Time
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{tasks: map[string]*Task{}, watchers: map[string]map[chan struct{}]struct{}{}, now: time.Now}
}

// sweepEvery is how often Create drops expired tasks.
const sweepEvery = time.Minute

// Create implements Store.
func (m *Memory) Create(_ context.Context, t Task) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if now.Sub(m.lastSweep) >= sweepEvery {
		m.lastSweep = now
		for id, old := range m.tasks {
			if old.Expired(now) {
				delete(m.tasks, id)
			}
		}
	}
	if old, ok := m.tasks[t.ID]; ok && !old.Expired(now) {
		return fmt.Errorf("%w: %s", ErrExists, t.ID)
	}
	t.Version = 1
	c := clone(t)
	m.tasks[t.ID] = &c
	return nil
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, id string) (Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return Task{}, ErrNotFound
	}
	if t.Expired(m.now()) {
		delete(m.tasks, id)
		return Task{}, ErrNotFound
	}
	return clone(*t), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, t Task) (Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.tasks[t.ID]
	if !ok || old.Expired(m.now()) {
		return Task{}, ErrNotFound
	}
	if old.Version != t.Version {
		return Task{}, ErrConflict
	}
	t.Version++
	c := clone(t)
	m.tasks[t.ID] = &c
	for ch := range m.watchers[t.ID] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	return clone(t), nil
}

// Watch implements Store.
func (m *Memory) Watch(ctx context.Context, id string) (<-chan struct{}, error) {
	ch := make(chan struct{}, 1)
	m.mu.Lock()
	set := m.watchers[id]
	if set == nil {
		set = map[chan struct{}]struct{}{}
		m.watchers[id] = set
	}
	set[ch] = struct{}{}
	m.mu.Unlock()
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		delete(set, ch)
		if len(set) == 0 && m.watchers[id] != nil && len(m.watchers[id]) == 0 {
			delete(m.watchers, id)
		}
		close(ch)
		m.mu.Unlock()
	}()
	return ch, nil
}

// List implements Lister. It reads every stored task: the memory store is
// for one process's tasks, not millions.
func (m *Memory) List(_ context.Context, owner, after string, limit int) ([]Task, error) {
	m.mu.Lock()
	now := m.now()
	var out []Task
	for id, t := range m.tasks {
		if t.Owner == owner && id > after && !t.Expired(now) {
			out = append(out, clone(*t))
		}
	}
	m.mu.Unlock()
	slices.SortFunc(out, func(a, b Task) int { return strings.Compare(a.ID, b.ID) })
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Len returns the number of tasks stored, expired ones included until they
// are swept.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tasks)
}

// clone copies t so that the store and its callers share no maps or slices.
func clone(t Task) Task {
	t.InputRequests = cloneRaw(t.InputRequests)
	t.Answers = cloneRaw(t.Answers)
	t.Result = append(json.RawMessage(nil), t.Result...)
	t.Error = append(json.RawMessage(nil), t.Error...)
	if len(t.Result) == 0 {
		t.Result = nil
	}
	if len(t.Error) == 0 {
		t.Error = nil
	}
	return t
}

func cloneRaw(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := maps.Clone(m)
	for k, v := range c {
		c[k] = append(json.RawMessage(nil), v...)
	}
	return c
}
