package annotations

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Defaults of the limits every tool has, whether or not its tag or options
// set them.
const (
	DefaultMaxArgBytes = 1 << 20 // maxArgBytes: 1 MiB of JSON arguments
	DefaultMaxDepth    = 64      // maxDepth: JSON nesting depth of the arguments
)

// Policy is what a tool's `mcp` tag (or its options) says about how calls
// run. A zero field was not given: the registry's default applies, and
// failing that the documented default.
type Policy struct {
	Timeout     time.Duration // timeout=5s: bounds each call; default none
	Rate        Rate          // rate=10/s,burst=5: calls across all clients; default unlimited
	SessionRate Rate          // sessionRate=2/s,sessionBurst=2: calls per client session; default unlimited
	Concurrency int           // concurrency=4: calls running at once; default no cap
	Confirm     bool          // confirm: ask the user before each call; default false
	MaxArgBytes int           // maxArgBytes=4096: default DefaultMaxArgBytes
	MaxDepth    int           // maxDepth=8: default DefaultMaxDepth
	Task        TaskSupport   // task, task=required: default TaskForbidden
	// Scopes are the OAuth scopes a caller's token must all carry
	// (scopes=notes:read notes:write); default none. Non-nil and empty: none,
	// even where a registry's default says otherwise.
	Scopes []string
	// CallerConcurrency caps the calls running at once per caller: per
	// verified principal, else per session (callerConcurrency=2); default
	// no cap.
	CallerConcurrency int
}

// Rate is a rate limit: PerSecond calls a second on average, in bursts of
// at most Burst. The zero Rate is no limit; a zero Burst defaults to
// max(1, PerSecond).
type Rate struct {
	PerSecond float64
	Burst     int
}

// TaskSupport says whether a tool may run as a task (the Tasks extension's
// execution.taskSupport): bare `task` is TaskOptional, `task=required` is
// TaskRequired. The empty value was not given and means TaskForbidden.
type TaskSupport string

// The values of [TaskSupport], as the Tasks extension spells them.
const (
	TaskForbidden TaskSupport = "forbidden"
	TaskOptional  TaskSupport = "optional"
	TaskRequired  TaskSupport = "required"
)

// Merge returns p with every field o gives replacing p's.
func (p Policy) Merge(o Policy) Policy {
	if o.Timeout != 0 {
		p.Timeout = o.Timeout
	}
	if o.Rate != (Rate{}) {
		p.Rate = o.Rate
	}
	if o.SessionRate != (Rate{}) {
		p.SessionRate = o.SessionRate
	}
	if o.Concurrency != 0 {
		p.Concurrency = o.Concurrency
	}
	if o.CallerConcurrency != 0 {
		p.CallerConcurrency = o.CallerConcurrency
	}
	if o.Confirm {
		p.Confirm = true
	}
	if o.MaxArgBytes != 0 {
		p.MaxArgBytes = o.MaxArgBytes
	}
	if o.MaxDepth != 0 {
		p.MaxDepth = o.MaxDepth
	}
	if o.Task != "" {
		p.Task = o.Task
	}
	if o.Scopes != nil {
		p.Scopes = o.Scopes
	}
	return p
}

// Resolved returns p with the documented defaults in place of the fields
// not given: MaxArgBytes, MaxDepth, a rate's Burst, Task.
func (p Policy) Resolved() Policy {
	if p.MaxArgBytes == 0 {
		p.MaxArgBytes = DefaultMaxArgBytes
	}
	if p.MaxDepth == 0 {
		p.MaxDepth = DefaultMaxDepth
	}
	p.Rate = p.Rate.resolved()
	p.SessionRate = p.SessionRate.resolved()
	if p.Task == "" {
		p.Task = TaskForbidden
	}
	return p
}

func (r Rate) resolved() Rate {
	if r.PerSecond > 0 && r.Burst <= 0 {
		r.Burst = max(1, int(r.PerSecond))
	}
	return r
}

// check rejects values no tag can write but an option can: negative limits.
func (p Policy) check() error {
	switch {
	case p.Timeout < 0:
		return fmt.Errorf("timeout must not be negative")
	case p.Rate.PerSecond < 0 || p.SessionRate.PerSecond < 0 || p.Rate.Burst < 0 || p.SessionRate.Burst < 0:
		return fmt.Errorf("rates and bursts must not be negative")
	case p.Concurrency < 0 || p.CallerConcurrency < 0:
		return fmt.Errorf("concurrency and callerConcurrency must not be negative")
	case p.MaxArgBytes < 0 || p.MaxDepth < 0:
		return fmt.Errorf("maxArgBytes and maxDepth must be positive")
	}
	if err := CheckScopes(p.Scopes); err != nil {
		return err
	}
	switch p.Task {
	case "", TaskForbidden, TaskOptional, TaskRequired:
		return nil
	}
	return fmt.Errorf("task support %q: want %q, %q or %q", p.Task, TaskForbidden, TaskOptional, TaskRequired)
}

// set records one policy item; ok is false for a key that is not a policy.
func (p *Policy) set(it Item) (ok bool, err error) {
	switch it.Key {
	case "confirm":
		v, err := boolValue(it)
		if err != nil {
			return true, fmt.Errorf("confirm takes no value, or true/false")
		}
		p.Confirm = v
		return true, nil
	case "task":
		switch {
		case !it.HasValue || it.Value == string(TaskOptional):
			p.Task = TaskOptional
		case it.Value == string(TaskRequired):
			p.Task = TaskRequired
		default:
			return true, fmt.Errorf("task takes no value (the tool may run as a task), or task=required")
		}
		return true, nil
	case "scopes":
		s, err := parseScopes(it)
		if err != nil {
			return true, err
		}
		p.Scopes = s
		return true, nil
	case "timeout", "rate", "sessionRate", "burst", "sessionBurst", "concurrency", "callerConcurrency", "maxArgBytes", "maxDepth":
	default:
		return false, nil
	}
	if !it.HasValue || it.Value == "" {
		return true, fmt.Errorf("%s needs a value", it.Key)
	}
	switch it.Key {
	case "timeout":
		d, err := time.ParseDuration(it.Value)
		if err != nil || d <= 0 {
			return true, fmt.Errorf("timeout must be a positive duration such as 5s or 250ms")
		}
		p.Timeout = d
	case "rate":
		return true, parseRate(it.Value, &p.Rate.PerSecond)
	case "sessionRate":
		return true, parseRate(it.Value, &p.SessionRate.PerSecond)
	default:
		n, err := strconv.Atoi(it.Value)
		if err != nil || n <= 0 {
			return true, fmt.Errorf("%s must be a positive integer", it.Key)
		}
		*p.intField(it.Key) = n
	}
	return true, nil
}

// intField is the field of an integer key.
func (p *Policy) intField(key string) *int {
	switch key {
	case "burst":
		return &p.Rate.Burst
	case "sessionBurst":
		return &p.SessionRate.Burst
	case "concurrency":
		return &p.Concurrency
	case "callerConcurrency":
		return &p.CallerConcurrency
	case "maxArgBytes":
		return &p.MaxArgBytes
	}
	return &p.MaxDepth
}

// parseRate parses "10/s", "100/m", "5/h" or "0.5/s" into calls per second.
func parseRate(s string, dst *float64) error {
	num, unit, ok := strings.Cut(s, "/")
	n, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || n <= 0 {
		return fmt.Errorf("rate %q: want a positive number per s, m or h, such as 10/s", s)
	}
	switch unit {
	case "s":
		*dst = n
	case "m":
		*dst = n / 60
	case "h":
		*dst = n / 3600
	default:
		return fmt.Errorf("rate %q: the unit must be s, m or h", s)
	}
	return nil
}
