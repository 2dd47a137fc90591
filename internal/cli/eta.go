package cli

import (
	"fmt"
	"math"
	"time"
)

// etaEstimator turns (time, done, total) observations into a rate and an estimate of the
// time left that does not jump. The rate is an exponentially weighted moving average of
// the pace (time constant etaRateTau), started from the overall pace once the phase has
// warmed up, so one slow or fast item barely moves it while a lasting change of pace (the
// VES timing phase going from one system's slow queries to another's fast ones) shows
// within tens of seconds. The shown estimate counts down with the clock and is pulled
// towards remaining / rate with time constant etaTau: it moves smoothly, never from 30 s
// to 3 s in one refresh.
type etaEstimator struct {
	start    time.Time // the phase's start (or the first observation of a resumed one)
	base     int       // items done before the phase (a resumed run), counted out of the pace
	first    bool      // an observation was made
	last     time.Time // the last observation
	lastDone int
	rate     float64 // items per second; 0: none yet
	eta      float64 // the shown estimate, seconds; <0: none yet
	warmup   time.Duration
}

// etaRateTau is the memory of the rate; etaTau how fast the shown estimate follows it.
const (
	etaRateTau = 12 * time.Second
	etaTau     = 4 * time.Second
)

// newETA starts an estimator for a phase started at start. It shows nothing for the first
// warmup: the first items of a phase (opening databases, warming caches) say little about
// the rest.
func newETA(start time.Time, warmup time.Duration) *etaEstimator {
	return &etaEstimator{start: start, eta: -1, warmup: warmup}
}

// observe takes done of total at now and returns the rate (items/s) and the time left;
// ok is false until there is an estimate.
func (e *etaEstimator) observe(now time.Time, done, total int) (rate float64, left time.Duration, ok bool) {
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
		w := math.Exp(-dt / etaRateTau.Seconds())
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
		e.eta += (raw - e.eta) * (1 - math.Exp(-dt/etaTau.Seconds()))
	}
	if done >= total {
		e.eta = 0
	}
	return e.rate, time.Duration(e.eta * float64(time.Second)), true
}

// formatLeft prints a time left as people read it: 45s, 3m05s, 1h20m.
func formatLeft(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, (s%3600)/60)
}

// formatRate prints items per second with the precision it deserves.
func formatRate(r float64) string {
	switch {
	case r >= 10:
		return fmt.Sprintf("%.0f/s", r)
	case r >= 1:
		return fmt.Sprintf("%.1f/s", r)
	}
	return fmt.Sprintf("%.2f/s", r)
}
