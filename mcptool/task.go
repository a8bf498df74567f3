package mcptool

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// taskSettings returns the tool's settings over the registry's, with
// defaults. A tool has no store of its own.
func (r *Registry) taskSettings(t *tool) TaskSettings {
	o := t.task.set
	o.Store = nil
	s := o.over(r.cfg.tasks)
	if s.Lease <= 0 {
		s.Lease = defaultTaskLease
	}
	if s.TTL == 0 {
		s.TTL = defaultTaskTTL
	}
	if s.PollInterval <= 0 {
		s.PollInterval = defaultTaskPoll
	}
	if s.Wait == 0 {
		s.Wait = defaultTaskWait
	}
	return s
}

// progressDetaches reports whether Progress makes a call of t that is
// still within its Wait a task: only when the Wait was set.
func (r *Registry) progressDetaches(t *tool) bool {
	return t.task.set.Wait != 0 || r.cfg.tasks.Wait != 0
}

// taskRun is one call that may become, or has become, a task.
type taskRun struct {
	reg   *Registry
	tool  *tool
	set   TaskSettings
	owner string    // who owns the task (ownerOf, tasks.go)
	core  *coreCall // a 2025-11-25 core task; nil for the extension

	mu       sync.Mutex
	id       string // set when detached
	detached bool
	finished bool // the call ended before it became a task
	asked    bool // the call asked for input synchronously: it will not detach
	eager    bool // Progress makes the call a task (an explicit Wait)
	progress chan struct{}
	cancel   context.CancelFunc
	doneC    chan struct{} // closed when the function has returned

	statusMsg string      // the latest progress message
	statusAt  time.Time   // when the status message was last written
	flush     *time.Timer // writes statusMsg later, when set
}

// callAsTask serves a tools/call for a task tool from a client that declared
// the extension: the call path runs detached from the request (the one
// seam: newCallState, then run, with the task's peer), and the call is
// answered with a task handle, or directly when it ends (or asks for input)
// within the tool's Wait. The outcome is the path's, encoded for the
// request or stored in the task.
//
// A core task (core non-nil) is always answered with a task handle: the
// client asked for one.
func (r *Registry) callAsTask(ctx context.Context, t *tool, req *mcp.CallToolRequest, core *coreCall) (mcp.Result, error) {
	store := r.taskStore()
	run := &taskRun{reg: r, tool: t, set: r.taskSettings(t), owner: ownerOf(ctx, req.Extra), core: core,
		progress: make(chan struct{}, 1), eager: r.progressDetaches(t)}
	if core != nil {
		run.set.Wait = 0
		run.owner = core.caller
		if core.ttl > 0 && (run.set.TTL < 0 || core.ttl < run.set.TTL) {
			run.set.TTL = core.ttl // the client may ask for less, not more
		}
	}
	tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	run.cancel = cancel
	cs, err := r.newCallState(tctx, t, req)
	if err != nil {
		cancel()
		return nil, err
	}
	cs.peer = taskPeer{run: run, inner: cs.peer}

	done := make(chan outcome, 1)
	var created *taskstore.Task
	if run.set.Wait <= 0 {
		task, err := run.detach(ctx, store)
		if err != nil {
			cancel()
			return nil, err
		}
		created = task
	}
	go func() {
		o := r.run(tctx, cs, req.Params.Arguments)
		if run.finish(tctx, store, cs, o) {
			return
		}
		cancel()
		done <- o
	}()
	if created != nil {
		return run.created(created), nil
	}
	answer := func(o outcome) (mcp.Result, error) {
		res, err := r.encode(cs, o)
		if err != nil {
			return nil, err
		}
		return res, nil
	}
	timer := time.NewTimer(run.set.Wait)
	defer timer.Stop()
	select {
	case o := <-done:
		return answer(o)
	case <-timer.C:
	case <-run.progress:
	case <-ctx.Done():
		// The client went away before a task was made: like any call.
		cancel()
		return answer(<-done)
	}
	task, err := run.detach(ctx, store)
	if err != nil {
		cancel()
		o := <-done
		if o.kind != outProtocol {
			r.cfg.logger.ErrorContext(ctx, "mcptool: task not created", "tool", t.name, "err", err)
		}
		return answer(o)
	}
	if task == nil { // finished or asked meanwhile
		return answer(<-done)
	}
	return run.created(task), nil
}

// created is the answer that hands the client its task.
func (run *taskRun) created(t *taskstore.Task) mcp.Result {
	if run.core != nil {
		return &coreCreated{Task: coreTaskOf(t)}
	}
	return createTaskResult(t)
}

// detach makes the run a task: it is stored before the client hears of it.
// It returns nil when the run already ended or asked for input.
func (run *taskRun) detach(ctx context.Context, store taskstore.Store) (*taskstore.Task, error) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.finished || run.asked {
		return nil, nil
	}
	now := run.reg.tasks.now().UTC()
	task := taskstore.Task{
		ID:            rand.Text(),
		Tool:          run.tool.name,
		Owner:         run.owner,
		Status:        taskstore.Working,
		StatusMessage: cmp.Or(run.statusMsg, "The operation is now in progress."),
		CreatedAt:     now,
		UpdatedAt:     now,
		PollInterval:  run.set.PollInterval,
		Worker:        run.reg.tasks.worker,
		LeaseUntil:    now.Add(run.set.Lease),
	}
	if run.set.TTL > 0 {
		task.ExpiresAt = now.Add(run.set.TTL)
	}
	if err := store.Create(ctx, task); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot create the task"}
	}
	run.id, run.detached = task.ID, true
	task.Version = 1
	go run.supervise(store)
	return &task, nil
}

// supervise renews the run's lease and cancels it when a tasks/cancel
// arrives (through any process sharing the store), until the run ends.
func (run *taskRun) supervise(store taskstore.Store) {
	run.mu.Lock()
	id, cancelRun := run.id, run.cancel
	run.mu.Unlock()
	done := run.doneCh()
	select {
	case <-done:
		return // it ended before it needed watching
	default:
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop() // ends the watch
	events, err := store.Watch(ctx, id)
	if err != nil {
		run.reg.cfg.logger.Error("mcptool: cannot watch task", "task", id, "err", err)
	}
	tick := time.NewTicker(max(run.set.Lease/3, time.Millisecond))
	defer tick.Stop()
	// A task past its TTL may be gone from the store: stop its work then.
	var expired <-chan time.Time
	if run.set.TTL > 0 {
		t := time.NewTimer(run.set.TTL)
		defer t.Stop()
		expired = t.C
	}
	check := func() {
		t, err := store.Get(ctx, id)
		if (err == nil && t.CancelRequested) || errors.Is(err, taskstore.ErrNotFound) {
			cancelRun()
		}
	}
	check() // a tasks/cancel stored before the watch began sent it no event
	for {
		select {
		case <-done:
			return
		case <-expired:
			cancelRun()
		case _, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			check()
		case <-tick.C:
			_ = run.reg.updateTask(ctx, id, func(t *taskstore.Task) bool {
				if t.Status.Terminal() {
					return false
				}
				t.LeaseUntil = run.reg.tasks.now().Add(run.set.Lease)
				return true
			})
			check()
		}
	}
}

// doneCh is closed when the run's function has returned.
func (run *taskRun) doneCh() <-chan struct{} {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.doneC == nil {
		run.doneC = make(chan struct{})
	}
	return run.doneC
}

// finish stores the call's outcome in its task. It returns false when the
// call ended before it became a task (the caller answers the request then).
// The outcome is encoded as the request would have been answered: a
// protocol error fails the task; a result completes it, or, for a core
// task whose tool reported an error, fails it with that result.
func (run *taskRun) finish(ctx context.Context, store taskstore.Store, cs *callState, o outcome) bool {
	run.mu.Lock()
	if run.doneC == nil {
		run.doneC = make(chan struct{})
	}
	close(run.doneC)
	if !run.detached {
		run.finished = true
		run.mu.Unlock()
		return false
	}
	if run.flush != nil {
		run.flush.Stop()
		run.flush = nil
	}
	id := run.id
	run.mu.Unlock()
	defer run.cancel()
	var resultJSON, errJSON json.RawMessage
	var msg string
	res, err := run.reg.encode(cs, o)
	if err != nil {
		var je *jsonrpc.Error
		if !errors.As(err, &je) { // a middleware's own error: never shown
			ref := newRef()
			run.reg.cfg.logger.ErrorContext(ctx, "mcptool: task failed", "tool", run.tool.name, "task", id, "ref", ref, "err", err)
			je = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error (ref " + ref + ")"}
		}
		errJSON, _ = json.Marshal(je)
		msg = je.Message
	} else if resultJSON, err = json.Marshal(res); err != nil {
		errJSON = json.RawMessage(`{"code":-32603,"message":"cannot encode the result"}`)
	}
	// A core task whose tool reported an error is failed, with its result.
	toolError := run.core != nil && errJSON == nil && res.IsError
	uerr := run.reg.updateTask(context.WithoutCancel(ctx), id, func(t *taskstore.Task) bool {
		if t.Status.Terminal() {
			return false
		}
		t.InputRequests, t.Answers = nil, nil
		t.Worker, t.LeaseUntil = "", time.Time{}
		switch {
		case t.CancelRequested:
			t.Status, t.StatusMessage = taskstore.Cancelled, "The task was cancelled."
		case errJSON != nil:
			t.Status, t.StatusMessage, t.Error = taskstore.Failed, msg, errJSON
		case toolError:
			t.Status, t.StatusMessage, t.Result = taskstore.Failed, "The tool reported an error.", resultJSON
		default:
			t.Status, t.StatusMessage, t.Result = taskstore.Completed, "", resultJSON
		}
		return true
	})
	if uerr != nil {
		run.reg.cfg.logger.ErrorContext(ctx, "mcptool: task outcome not stored", "tool", run.tool.name, "task", id, "err", uerr)
	}
	return true
}

// status reports progress as the task's status message, and makes a call
// that is still within an explicit Wait a task.
func (run *taskRun) status(ctx context.Context, message string) {
	run.mu.Lock()
	if !run.detached {
		if message != "" {
			run.statusMsg = message // the task's first status, if it becomes one
		}
		eager := run.eager
		run.mu.Unlock()
		if eager {
			select {
			case run.progress <- struct{}{}:
			default:
			}
		}
		return
	}
	if message == "" {
		run.mu.Unlock()
		return
	}
	// At most one write per statusEvery: a flush scheduled for later
	// writes the latest message.
	run.statusMsg = message
	if run.flush != nil {
		run.mu.Unlock()
		return
	}
	if wait := statusEvery - time.Since(run.statusAt); wait > 0 {
		run.flush = time.AfterFunc(wait, func() { run.writeStatus(context.WithoutCancel(ctx)) })
		run.mu.Unlock()
		return
	}
	run.mu.Unlock()
	run.writeStatus(context.WithoutCancel(ctx))
}

// statusEvery bounds how often Progress writes the status message to the
// store.
const statusEvery = 100 * time.Millisecond

func (run *taskRun) writeStatus(ctx context.Context) {
	run.mu.Lock()
	id, message := run.id, run.statusMsg
	run.flush, run.statusAt = nil, time.Now()
	run.mu.Unlock()
	_ = run.reg.updateTask(ctx, id, func(t *taskstore.Task) bool {
		if t.Status != taskstore.Working || t.StatusMessage == message {
			return false
		}
		t.StatusMessage = message
		return true
	})
}

// ask asks the client for input through the task: it stores the requests,
// moves the task to input_required, and waits for tasks/update to deliver
// answers. handled is false when the call is not a task (yet): it then asks
// synchronously, and will not become a task.
func (run *taskRun) ask(ctx context.Context, cs *callState, requests mcp.InputRequestMap) (out mcp.InputResponseMap, handled bool, err error) {
	run.mu.Lock()
	if !run.detached {
		// Asked synchronously. Unless every answer is already here (a
		// retry), the call ends with an input-required result: it must
		// not become a task meanwhile.
		for k, r := range requests {
			if _, ok := cs.answer(k, r); !ok {
				run.asked = true
				break
			}
		}
		run.mu.Unlock()
		return nil, false, nil
	}
	id := run.id
	run.mu.Unlock()
	if cs.req != nil {
		caps := cs.req.ClientCapabilities()
		for k, r := range requests {
			if err := capable(caps, r); err != nil {
				return nil, true, fmt.Errorf("%w (%s)", err, k)
			}
		}
	}
	store := run.reg.taskStore()
	events, err := store.Watch(ctx, id)
	if err != nil {
		return nil, true, fmt.Errorf("mcptool: watching task: %w", err)
	}
	out = mcp.InputResponseMap{}
	waiting := map[string]string{} // store key → tool key
	issue := func(keys []string) error {
		return run.reg.updateTask(ctx, id, func(t *taskstore.Task) bool {
			if t.Status.Terminal() {
				return false
			}
			for k := range waiting { // a retry after a conflict: issue anew
				delete(waiting, k)
			}
			if t.InputRequests == nil {
				t.InputRequests = map[string]json.RawMessage{}
			}
			for _, k := range keys {
				t.Issued++
				sk := k
				if t.Issued > 1 {
					sk = fmt.Sprintf("%s-%d", k, t.Issued)
				}
				raw, err := json.Marshal(mcp.InputRequestMap{sk: requests[k]})
				if err != nil {
					continue
				}
				var one map[string]json.RawMessage
				if json.Unmarshal(raw, &one) != nil {
					continue
				}
				t.InputRequests[sk] = one[sk]
				waiting[sk] = k
			}
			t.Status, t.StatusMessage = taskstore.InputRequired, "Waiting for input."
			return true
		})
	}
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	if err := issue(keys); err != nil {
		return nil, true, fmt.Errorf("mcptool: storing input requests: %w", err)
	}
	for len(waiting) > 0 {
		var got map[string]json.RawMessage
		err := run.reg.updateTask(ctx, id, func(t *taskstore.Task) bool {
			got = map[string]json.RawMessage{}
			for sk := range waiting {
				if a, ok := t.Answers[sk]; ok {
					got[sk] = a
					delete(t.Answers, sk)
				}
			}
			return len(got) > 0
		})
		if err != nil {
			return nil, true, fmt.Errorf("mcptool: reading input answers: %w", err)
		}
		var again []string
		for sk, raw := range got {
			k := waiting[sk]
			delete(waiting, sk)
			cs.mu.Lock()
			if cs.answers == nil {
				cs.answers = map[string]json.RawMessage{}
			}
			cs.answers[k] = raw
			cs.mu.Unlock()
			resp, ok := cs.answer(k, requests[k])
			if !ok {
				again = append(again, k) // not a fitting answer: ask again
				continue
			}
			out[k] = resp
		}
		if len(again) > 0 {
			if err := issue(again); err != nil {
				return nil, true, err
			}
		}
		if len(waiting) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return nil, true, ctx.Err()
		case <-events:
		}
	}
	return out, true, nil
}

// taskPeer is the client end of a call that may become a task.
type taskPeer struct {
	run   *taskRun
	inner peerctx.Peer
}

func (p taskPeer) SessionID() string  { return p.inner.SessionID() }
func (p taskPeer) ProgressToken() any { return "task" }
func (p taskPeer) NotifyProgress(ctx context.Context, _ any, progress, total float64, message string) error {
	if message == "" && total > 0 {
		message = fmt.Sprintf("%g of %g", progress, total)
	}
	p.run.status(ctx, message)
	if p.run.core != nil {
		// A core task's progress token stays valid for the task's life.
		if token := p.inner.ProgressToken(); token != nil {
			_ = p.inner.NotifyProgress(ctx, token, progress, total, message)
		}
	}
	return nil
}

// LogHandler: the protocol carries no log messages for tasks, so the
// registry's logger gets them.
func (p taskPeer) LogHandler(context.Context, string) slog.Handler { return nil }
func (p taskPeer) askRound(ctx context.Context, cs *callState, requests mcp.InputRequestMap) (mcp.InputResponseMap, bool, error) {
	return p.run.ask(ctx, cs, requests)
}
func (p taskPeer) Ask(ctx context.Context, r mcp.InputRequest) (mcp.InputResponse, error) {
	return p.inner.Ask(ctx, r)
}
