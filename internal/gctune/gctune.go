// Package gctune sets how often Go's garbage collector runs so that a run whose heap is
// small collects less often than GOGC=100 would make it.
//
// Why: a Spider run judging seven systems allocates several times its small live heap, so
// at GOGC=100 the collector runs dozens of times and takes a large share of the CPU
// (docs/performance.md). Letting the heap grow to Target (96 MB) before collecting cuts
// that, and a large live heap (a million-row result) is still collected as at GOGC=100,
// so peak memory for large results does not grow; past Headroom (512 MiB) live, the heap
// may grow by Headroom only (GOGC down to FloorPercent), so a many-system run's peak is
// not twice its live heap. cli.Run starts it.
//
// How: after every collection (a finalizer re-armed each cycle, no goroutine), the live
// heap is read from runtime/metrics and GOGC is set to what lets the heap reach Target,
// clamped to [MinPercent, MaxPercent]. A GOGC or GOMEMLIMIT in the environment is the
// user's choice and turns the tuning off.
//
// To change the policy, change percentFor and its table test.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const (
	// Target is the heap size a small run may grow to between collections.
	Target = 96 << 20
	// MinPercent is Go's default: a live heap above Target/2 is collected as usual.
	MinPercent = 100
	// MaxPercent bounds the growth of a very small heap.
	MaxPercent = 400
	// Headroom is what a large live heap may grow by between collections: above it GOGC
	// falls below 100, down to FloorPercent, so peak memory is about live + Headroom
	// rather than twice the live heap (200 systems x 1034 questions held ~1 GB live and
	// peaked at 1.9-2.1 GiB at GOGC=100).
	Headroom = 512 << 20
	// FloorPercent is the least GOGC a large heap gets (collections every quarter of it).
	FloorPercent = 25
)

var once sync.Once

// Start begins tuning (once per process; later calls do nothing) unless GOGC or
// GOMEMLIMIT is set in the environment.
func Start() {
	once.Do(func() {
		if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
			return
		}
		debug.SetGCPercent(MaxPercent) // the heap starts empty
		arm()
	})
}

// sentinel is garbage as soon as it is made; its finalizer runs after the next collection.
// The pointer field keeps it out of the tiny allocator, whose objects may never be finalized.
type sentinel struct {
	_ *int
	_ [16]byte
}

func arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		tune()
		arm()
	})
}

// live is read only by tune, which finalizers call one at a time.
var live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

func tune() {
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		return // not reported by this Go release: keep the setting
	}
	debug.SetGCPercent(percentFor(live[0].Value.Uint64()))
}

// percentFor is the GOGC that lets a heap whose live part is live bytes grow to Target
// before the next collection, within [MinPercent, MaxPercent].
func percentFor(live uint64) int {
	if live == 0 {
		return MaxPercent
	}
	if live > Headroom {
		return int(max(float64(Headroom)/float64(live)*100, FloorPercent))
	}
	p := (float64(Target)/float64(live) - 1) * 100
	return int(min(max(p, MinPercent), MaxPercent))
}
