package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	tests := []struct {
		live uint64
		want int
	}{
		{0, MaxPercent},
		{1 << 20, MaxPercent},    // a tiny heap: capped
		{Target / 5, MaxPercent}, // exactly reaches Target at the cap
		{Target / 4, 300},        // 24 MB live may grow to 96 MB
		{Target / 2, MinPercent}, // Go's default from here on
		{Target, MinPercent},     // a large heap is collected as usual
		{Headroom, MinPercent},   // up to Headroom live: Go's default
		{2 * Headroom, 50},       // then it grows by Headroom only
		{4 * Headroom, FloorPercent},
		{16 * Headroom, FloorPercent}, // never below the floor
	}
	for _, tc := range tests {
		if got := percentFor(tc.live); got != tc.want {
			t.Errorf("percentFor(%d MB) = %d, want %d", tc.live>>20, got, tc.want)
		}
	}
}

// TestTunesAfterCollections: once started, a collection with a large live heap brings
// GOGC down to the default, and one with a small live heap lets it up again.
func TestTunesAfterCollections(t *testing.T) {
	if testingEnvSet() {
		t.Skip("GOGC or GOMEMLIMIT is set: tuning is off by design")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	Start()
	big := make([]byte, 2*Target)
	for i := range big {
		big[i] = byte(i)
	}
	waitFor(t, func() bool { return currentPercent() == MinPercent }, "GOGC back to the default with a large live heap")
	runtime.KeepAlive(big)
	big = nil
	waitFor(t, func() bool { return currentPercent() == MaxPercent }, "GOGC up with a small live heap")
}

func currentPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	for i := 0; i < 50; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // finalizers run on their own goroutine
		if ok() {
			return
		}
	}
	t.Fatalf("%s: GOGC is %d", what, currentPercent())
}

func testingEnvSet() bool { return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" }
