package eta

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// etaTrace runs an estimator over items with the given costs on a fake clock and returns
// the estimate shown at every whole second (after the warm-up) and the true time left then.
type etaPoint struct {
	at, shown, truth float64 // seconds
}

func etaTrace(t *testing.T, costs []float64, est func(now time.Time, done, total int) (time.Duration, bool)) []etaPoint {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	total := len(costs)
	var end float64
	finish := make([]float64, total)
	for i, c := range costs {
		end += c
		finish[i] = end
	}
	var out []etaPoint
	done, next := 0, 1.0
	for done < total || next <= end {
		// The next event: an item finishing or a tick, whichever comes first.
		if done < total && finish[done] <= next {
			est(t0.Add(time.Duration(finish[done]*float64(time.Second))), done+1, total)
			done++
			continue
		}
		if next > end {
			break
		}
		if left, ok := est(t0.Add(time.Duration(next*float64(time.Second))), done, total); ok {
			out = append(out, etaPoint{at: next, shown: left.Seconds(), truth: end - next})
		}
		next++
	}
	return out
}

func ours() func(time.Time, int, int) (time.Duration, bool) {
	e := New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 2*time.Second)
	return func(now time.Time, done, total int) (time.Duration, bool) {
		_, left, ok := e.Observe(now, done, total)
		return left, ok
	}
}

// naive is the estimate from the last interval's pace, as many progress bars compute it:
// the one this package replaced (the issue saw it jump from 30 s to 3 s).
func naive() func(time.Time, int, int) (time.Duration, bool) {
	var last time.Time
	lastDone := -1
	var left time.Duration
	return func(now time.Time, done, total int) (time.Duration, bool) {
		if lastDone >= 0 && done > lastDone && now.After(last) {
			rate := float64(done-lastDone) / now.Sub(last).Seconds()
			left = time.Duration(float64(total-done) / rate * float64(time.Second))
		}
		if done != lastDone {
			last, lastDone = now, done
		}
		return left, lastDone > 0
	}
}

// jumps counts the ticks where the shown estimate moved by more than 2 s plus 20% of
// itself beyond the one second the clock took off it.
func jumps(ps []etaPoint) int {
	n := 0
	for i := 1; i < len(ps); i++ {
		want := ps[i-1].shown - (ps[i].at - ps[i-1].at)
		if math.Abs(ps[i].shown-want) > 2+0.2*ps[i-1].shown {
			n++
		}
	}
	return n
}

func TestETADoesNotJump(t *testing.T) {
	t.Parallel()
	bursty := make([]float64, 1000) // fast items with a slow one every 20
	for i := range bursty {
		bursty[i] = 0.05
		if i%20 == 19 {
			bursty[i] = 2
		}
	}
	heavyTail := make([]float64, 2000) // VES timing: most queries quick, a few slow ones
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range heavyTail {
		heavyTail[i] = 0.01 + 0.02*rng.Float64()
		if rng.IntN(10) == 0 {
			heavyTail[i] = 0.5 + 2.5*rng.Float64()
		}
	}
	for _, tc := range []struct {
		name  string
		costs []float64
	}{{"bursty", bursty}, {"heavy tail", heavyTail}, {"slow then fast", slowThenFast()}} {
		t.Run(tc.name, func(t *testing.T) {
			ps := etaTrace(t, tc.costs, ours())
			if len(ps) < 10 {
				t.Fatalf("only %d estimates shown", len(ps))
			}
			if j := jumps(ps); j > 0 {
				t.Errorf("estimate jumped %d times: %+v", j, ps)
			}
			if j := jumps(etaTrace(t, tc.costs, naive())); j == 0 {
				t.Errorf("the naive estimator does not jump either: the check says nothing")
			}
			for _, p := range ps {
				if p.shown < 0 {
					t.Fatalf("negative estimate at %.0fs: %v", p.at, p.shown)
				}
			}
		})
	}
	// On a steady pace the estimate is right: within 10% (and 2 s) from the first one shown.
	steady := make([]float64, 600)
	for i := range steady {
		steady[i] = 0.1
	}
	for _, p := range etaTrace(t, steady, ours()) {
		if math.Abs(p.shown-p.truth) > 2+0.1*p.truth {
			t.Errorf("steady pace: at %.0fs the estimate is %.1fs, truly %.1fs", p.at, p.shown, p.truth)
		}
	}
}

// slowThenFast is one system's slow queries (30 s) then another's fast ones (60 s).
func slowThenFast() []float64 {
	c := make([]float64, 3100)
	for i := range c {
		c[i] = 0.3
		if i >= 100 {
			c[i] = 0.02
		}
	}
	return c
}

// TestETAFollowsPace: a lasting change of pace shows in the estimate within half a minute.
func TestETAFollowsPace(t *testing.T) {
	t.Parallel()
	for _, p := range etaTrace(t, slowThenFast(), ours()) {
		if p.at >= 30+30 && math.Abs(p.shown-p.truth) > 3+0.3*p.truth {
			t.Errorf("at %.0fs, %.0fs after the pace changed, the estimate is %.1fs, truly %.1fs", p.at, p.at-30, p.shown, p.truth)
		}
	}
}

// TestETAResumed: a resumed phase starts at the records it already had; its rate is the
// pace of the new items, not the old ones counted as done in no time.
func TestETAResumed(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e := New(t0, 2*time.Second)
	e.Observe(t0.Add(100*time.Millisecond), 501, 1000)
	var rate float64
	var left time.Duration
	for i := 1; i <= 50; i++ { // 10 items a second
		rate, left, _ = e.Observe(t0.Add(100*time.Millisecond+time.Duration(i)*100*time.Millisecond), 501+i, 1000)
	}
	if math.Abs(rate-10) > 0.5 {
		t.Errorf("rate %.2f/s after a resume, want 10/s", rate)
	}
	if want := 44.9; math.Abs(left.Seconds()-want) > 3 {
		t.Errorf("time left %s, want about %.0fs", left, want)
	}
}
