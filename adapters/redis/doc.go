// Package mcpredis makes an mcpgen server's promises hold across replicas
// behind a load balancer, by keeping the state they share in Redis:
//
//   - rate limits per tool, per session and per principal (GCRA, from
//     github.com/go-redis/redis_rate), and concurrency caps per tool with
//     leases: [Limiter];
//   - the events of 2025-era SSE streams, for resumption with
//     Last-Event-ID: [EventStore];
//   - the key that seals requestState, from MCPGEN_STATE_KEY or a file:
//     [StateKeyFromEnv].
//
// [Open] makes them all from one Redis URL:
//
//	cl, err := mcpredis.Open(ctx, "redis://127.0.0.1:6379/0", nil)
//	if err != nil { ... }
//	defer cl.Close()
//	reg := mcptool.NewRegistry(cl.RegistryOptions()...)
//	// ... add tools ...
//	h := reg.Server(impl, nil).Handler(cl.HTTPOptions())
//
// The module is separate from mcpgen's core so that users who run one
// process never download a Redis client. docs/deploy.md shows a cluster of
// replicas behind HAProxy.
package mcpredis
