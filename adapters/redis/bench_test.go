package mcpredis_test

import (
	"context"
	"strconv"
	"testing"

	"golang.org/x/time/rate"
)

// The cost of one rate check per call: the Redis-backed limiter (one
// script round trip to a local redis-server) against the in-process
// x/time/rate bucket mcpgen uses without Redis. The limit is never reached,
// so every check allows.
//
//	go test -run - -bench RateCheck -benchtime 2000x ./adapters/redis
func BenchmarkRateCheck(b *testing.B) {
	ctx := context.Background()
	b.Run("redis", func(b *testing.B) {
		l := open(b, startRedis(b), nil).Limiter()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if ok, _, err := l.Allow(ctx, "tool/bench/"+strconv.Itoa(i%64), 1e9, 1e9); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("redis-parallel", func(b *testing.B) {
		l := open(b, startRedis(b), nil).Limiter()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if ok, _, err := l.Allow(ctx, "tool/bench", 1e9, 1e9); err != nil || !ok {
					b.Error(ok, err)
					return
				}
			}
		})
	})
	b.Run("in-process", func(b *testing.B) {
		l := rate.NewLimiter(1e9, 1e9)
		b.ReportAllocs()
		for b.Loop() {
			if !l.Allow() {
				b.Fatal("refused")
			}
		}
	})
}
