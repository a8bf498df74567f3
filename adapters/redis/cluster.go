package mcpredis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Options configure [Open]. The zero value is ready to use.
type Options struct {
	// Client is the Redis client to use instead of one made from Open's
	// URL (for Sentinel or Cluster setups). Close does not close it.
	Client redis.UniversalClient
	// Prefix starts every key. Default "mcpgen:". Deployments that share a
	// Redis database give each its own.
	Prefix string
	// LeaseTTL is how long a concurrency slot stays taken after its
	// replica stops renewing it (it died). Default 15s.
	LeaseTTL time.Duration
	// EventTTL is how long a 2025-era stream's events are kept after its
	// last event. Default 1h.
	EventTTL time.Duration
	// MaxEvents bounds the events kept per stream. Default 1000.
	MaxEvents int
	// AllowVolatileTasks lets Open start when Redis would lose the tasks
	// on a restart (appendonly off, or its persistence cannot be read),
	// with a warning naming what is lost. By default Open refuses with
	// [ErrVolatile]: a task handle promises the task is stored.
	AllowVolatileTasks bool
	// Logger gets Open's warnings. Default slog.Default().
	Logger *slog.Logger
	// StateKey seals requestState. Default: [StateKeyFromEnv], and when
	// that is not set, a key made once and kept in Redis (see
	// docs/deploy.md for why configuring one is better).
	StateKey []byte
}

// Cluster is the state a set of replicas shares through one Redis server:
// rate limits, concurrency caps, tasks, the requestStates answered, 2025-era stream events and the
// requestState key. Make one per process with [Open], and give its
// [Cluster.RegistryOptions] to mcptool.NewRegistry and its
// [Cluster.HTTPOptions] to mcptool.Server.Handler.
type Cluster struct {
	rdb      redis.UniversalClient
	own      bool
	limiter  *Limiter
	events   *EventStore
	tasks    *TaskStore
	spent    *SpentStore
	stateKey []byte
}

// Open connects to the Redis server at url (redis://[user:pass@]host:port/db,
// or rediss:// for TLS) and returns the shared state of a replica. Without
// a client in opts, calls that need Redis fail within about a second when
// it is unreachable, and work again once it is back.
func Open(ctx context.Context, url string, opts *Options) (*Cluster, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Prefix == "" {
		o.Prefix = "mcpgen:"
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 15 * time.Second
	}
	if o.EventTTL <= 0 {
		o.EventTTL = time.Hour
	}
	if o.MaxEvents <= 0 {
		o.MaxEvents = 1000
	}
	c := &Cluster{rdb: o.Client}
	if c.rdb == nil {
		ro, err := redis.ParseURL(url)
		if err != nil {
			return nil, fmt.Errorf("mcpredis: %w", err)
		}
		// Fail fast while Redis is away: a call should get an error, not
		// wait for the defaults' seconds of dialing and retries.
		ro.DialTimeout = cmp(ro.DialTimeout, time.Second)
		ro.ReadTimeout = cmp(ro.ReadTimeout, time.Second)
		ro.WriteTimeout = cmp(ro.WriteTimeout, time.Second)
		ro.PoolTimeout = cmp(ro.PoolTimeout, time.Second)
		if ro.MaxRetries == 0 {
			ro.MaxRetries = 1
		}
		c.rdb, c.own = redis.NewClient(ro), true
	}
	if err := c.rdb.Ping(ctx).Err(); err != nil {
		c.closeClient()
		return nil, fmt.Errorf("mcpredis: %s: %w", url, err)
	}
	c.stateKey = o.StateKey
	if c.stateKey == nil {
		k, err := StateKeyFromEnv()
		if err == nil && k == nil {
			k, err = sharedStateKey(ctx, c.rdb, o.Prefix+"statekey")
		}
		if err != nil {
			c.closeClient()
			return nil, err
		}
		c.stateKey = k
	}
	if len(c.stateKey) != 32 {
		c.closeClient()
		return nil, errors.New("mcpredis: the state key must be 32 bytes")
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if err := checkPersistence(ctx, c.rdb, o.AllowVolatileTasks, o.Logger); err != nil {
		c.closeClient()
		return nil, err
	}
	tasks, err := newTaskStore(ctx, c.rdb, o.Prefix)
	if err != nil {
		c.closeClient()
		return nil, err
	}
	c.tasks = tasks
	c.limiter = newLimiter(c.rdb, o.Prefix, o.LeaseTTL)
	c.spent = &SpentStore{rdb: c.rdb, prefix: o.Prefix + "spent:"}
	c.events = &EventStore{rdb: c.rdb, prefix: o.Prefix, ttl: o.EventTTL, maxEvents: o.MaxEvents}
	return c, nil
}

func cmp(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

func (c *Cluster) closeClient() {
	if c.own {
		_ = c.rdb.Close()
	}
}

// Client returns the Redis client.
func (c *Cluster) Client() redis.UniversalClient { return c.rdb }

// Limiter returns the cluster-wide rate limits and concurrency caps
// (mcptool.Limits).
func (c *Cluster) Limiter() *Limiter { return c.limiter }

// EventStore returns the store of 2025-era stream events.
func (c *Cluster) EventStore() *EventStore { return c.events }

// TaskStore returns the store of tasks.
func (c *Cluster) TaskStore() *TaskStore { return c.tasks }

// SpentStore returns the record of the requestStates already answered
// (mcptool.SpentStates).
func (c *Cluster) SpentStore() *SpentStore { return c.spent }

// StateKey returns the key that seals requestState on every replica.
func (c *Cluster) StateKey() []byte { return c.stateKey }

// RegistryOptions returns the registry options that make a registry's
// promises hold cluster-wide: its rate limits and concurrency caps, the
// shared requestState key and the record of the states already answered,
// its tasks. Append your own options after
// them; to set other task settings, pass mcptool.Tasks with Store set to
// [Cluster.TaskStore].
func (c *Cluster) RegistryOptions() []mcptool.RegistryOption {
	return []mcptool.RegistryOption{
		mcptool.Limits(c.limiter),
		mcptool.StateKey(c.stateKey),
		mcptool.SpentStates(c.spent),
		mcptool.Tasks(mcptool.TaskSettings{Store: c.tasks}),
	}
}

// HTTPOptions returns new options that make mcptool.Server.Handler keep
// 2025-era stream events in Redis, so a client resumes its stream on any
// replica. Set your own fields on them:
//
//	o := cl.HTTPOptions()
//	o.Stateless = true
//	srv.Handler(o)
func (c *Cluster) HTTPOptions() *mcptool.HTTPOptions {
	return &mcptool.HTTPOptions{EventStore: c.events}
}

// Ping reports whether Redis answers: for readiness checks.
func (c *Cluster) Ping(ctx context.Context) error { return c.rdb.Ping(ctx).Err() }

// Close stops renewing leases (those still held expire by themselves) and
// closes the client Open made.
func (c *Cluster) Close() error {
	c.limiter.close()
	c.tasks.close()
	if c.own {
		return c.rdb.Close()
	}
	return nil
}
