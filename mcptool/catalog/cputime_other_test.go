//go:build !unix

package catalog_test

import "time"

// cpuTime is not measured here: BenchmarkWriteHTML10k reports 0 cpu-ms/op.
func cpuTime() time.Duration { return 0 }
