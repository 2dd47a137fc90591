// Package eta estimates the time left of a phase of work from (time, done, total)
// observations, smoothly: the progress bars of the cli show it, and a bar whose estimate
// jumps from 30 s to 3 s and back is worse than none. It imports nothing of the tool.
//
// To change the smoothing, change RateTau (how long the rate remembers) or Tau (how fast
// the shown estimate follows it); the tests replay traces of slow and fast items and
// count the jumps.
package eta

import (
	"math"
	"time"
)

// Estimator turns (time, done, total) observations into a rate and an estimate of the
// time left that does not jump. The rate is an exponentially weighted moving average of
// the pace (time constant RateTau), started from the overall pace once the phase has
// warmed up, so one slow or fast item barely moves it while a lasting change of pace (the
// VES timing phase going from one system's slow queries to another's fast ones) shows
// within tens of seconds. The shown estimate counts down with the clock and is pulled
// towards remaining / rate with time constant Tau: it moves smoothly, never from 30 s
// to 3 s in one refresh.
type Estimator struct {
	start    time.Time // the phase's start (or the first observation of a resumed one)
	base     int       // items done before the phase (a resumed run), counted out of the pace
	first    bool      // an observation was made
	last     time.Time // the last observation
	lastDone int
	rate     float64 // items per second; 0: none yet
	eta      float64 // the shown estimate, seconds; <0: none yet
	warmup   time.Duration
}

// RateTau is the memory of the rate; Tau how fast the shown estimate follows it.
const (
	RateTau = 12 * time.Second
	Tau     = 4 * time.Second
)

// New starts an estimator for a phase started at start. It shows nothing for the first
// warmup: the first items of a phase (opening databases, warming caches) say little about
// the rest.
func New(start time.Time, warmup time.Duration) *Estimator {
	return &Estimator{start: start, eta: -1, warmup: warmup}
}

// Observe takes done of total at now and returns the rate (items/s) and the time left;
// ok is false until there is an estimate.
func (e *Estimator) Observe(now time.Time, done, total int) (rate float64, left time.Duration, ok bool) {
	if now.Before(e.last) {
		now = e.last // observations from two goroutines may arrive out of order
	}
	if !e.first {
		e.first = true
		if done > 1 {
			// Resumed: done counts items from before the phase; pace from here on.
			e.base, e.start = done, now
		}
		e.last, e.lastDone = now, done
	}
	dt := now.Sub(e.last).Seconds()
	step := done - e.lastDone
	e.last, e.lastDone = now, done
	if e.rate == 0 {
		elapsed := now.Sub(e.start)
		if n := done - e.base; n > 0 && elapsed >= e.warmup {
			e.rate = float64(n) / elapsed.Seconds()
		}
	} else if dt > 0 {
		w := math.Exp(-dt / RateTau.Seconds())
		e.rate = e.rate*w + float64(step)/dt*(1-w)
	}
	if e.rate <= 0 {
		return 0, 0, false
	}
	raw := float64(total-done) / e.rate
	if e.eta < 0 {
		e.eta = raw
	} else {
		e.eta = math.Max(e.eta-dt, 0)
		e.eta += (raw - e.eta) * (1 - math.Exp(-dt/Tau.Seconds()))
	}
	if done >= total {
		e.eta = 0
	}
	return e.rate, time.Duration(e.eta * float64(time.Second)), true
}
