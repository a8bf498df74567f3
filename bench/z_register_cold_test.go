package bench

// This file's name makes its benchmark run last: every iteration registers
// argument types never seen before, and mcpgen keeps every plan in its
// process-wide cache, so the heap grows with each iteration. Run earlier, that
// growth would burden the garbage collector in the benchmarks after it.

import (
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/mcptool"
)

// BenchmarkRegisterCold is mcpgen's registration of N argument types it has
// never seen: reflect.StructOf types with the shape of the generated ones
// (internal/regtypes), with a new distinguishing property name each time,
// built outside the timer, so the plan cache never hits and every Add pays
// schema derivation, validate-tag mirroring, decoder compilation and schema
// marshalling. Compare with BenchmarkRegister/n=N/stack=gosdk, which is
// always cold (go-sdk caches nothing without a SchemaCache).
func BenchmarkRegisterCold(b *testing.B) {
	for _, n := range regSizes {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			b.Run("stack=mcpgen-cold", func(b *testing.B) {
				if n > 100 && testing.Short() {
					b.Skip("short")
				}
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					fns := freshFuncs(n)
					b.StartTimer()
					r := mcptool.NewRegistry()
					for j, fn := range fns {
						if err := r.Add(regName(j), fn); err != nil {
							b.Fatal(err)
						}
					}
				}
				perTool(b, n)
			})
		})
	}
}
