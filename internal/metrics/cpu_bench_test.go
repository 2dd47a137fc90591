package metrics

import (
	"syscall"
	"testing"
	"time"
)

// cpuPerOp runs f b.N times (b.Loop) and reports the process's CPU time per call (every
// thread, GC included) as cpu-ns/op beside the wall time: the machine is shared, and a
// split over CPUs shortens the wall time without saving work.
func cpuPerOp(b *testing.B, f func()) {
	b.Helper()
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
