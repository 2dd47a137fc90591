package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/eta"
)

// runPrinter shows what a run tells (benchrun.Observer) on stderr: warnings, and the
// progress of every phase (progress below).
type runPrinter struct{ stderr io.Writer }

var _ benchrun.Observer = runPrinter{}

func (p runPrinter) Warn(msg string) {
	stderrMu.Lock()
	defer stderrMu.Unlock()
	fmt.Fprintf(p.stderr, "warning: %s\n", msg)
}

// stderrMu orders the writes of warnings (from the judge's workers) and of progress lines
// (from a phase's ticker) on stderr.
var stderrMu sync.Mutex

func (p runPrinter) Phase(ph benchrun.Phase) benchrun.Progress {
	if ph.Name == benchrun.PhaseTiming {
		fmt.Fprintf(p.stderr, "VES timing: %d correct predictions, %s timing, %d iterations each\n", ph.Items, ph.Mode, ph.Iterations)
	}
	return newProgress(p.stderr, phaseLabel(ph.Name), progressDelay, progressEvery)
}

// phaseLabel names a phase in its progress bar and lines.
func phaseLabel(name string) string {
	switch name {
	case benchrun.PhaseTiming:
		return "VES timing"
	case "":
		return "working"
	}
	return name
}

// progress shows one phase's progress on stderr once it has lasted progressDelay: a bar
// on a terminal, refreshed every second; elsewhere (CI logs, pipes) a line every
// progressEvery with done/total, the rate and the time left, and a last line when the
// phase ends. The time left comes from eta.Estimator, so it does not jump.
type progress struct {
	w     io.Writer
	label string
	tty   bool
	start time.Time
	delay time.Duration // shown once the phase has lasted this long

	mu          sync.Mutex
	est         *eta.Estimator
	done, total int
	note        string // shown after done/total (collect: tokens and cost so far)
	bar         *progressbar.ProgressBar
	printed     bool // a line was printed (off a terminal)
	stop        chan struct{}
	stopped     chan struct{}
	finished    bool
}

var _ benchrun.Progress = (*progress)(nil)

// progressDelay is how long a phase runs before it shows progress; progressEvery is how
// often a line is printed off a terminal.
const (
	progressDelay = 2 * time.Second
	progressEvery = 5 * time.Second
)

func newProgress(stderr io.Writer, label string, delay, every time.Duration) *progress {
	raw := stderr
	if u, ok := stderr.(interface{ Unwrap() io.Writer }); ok {
		raw = u.Unwrap() // escaped (termsafe) output: a bar needs its own control characters
	}
	f, ok := raw.(*os.File)
	tty := ok && term.IsTerminal(int(f.Fd()))
	if tty {
		stderr = raw // the bar's text is ours (label, counts), never data
	}
	p := &progress{w: stderr, label: label, tty: tty, start: time.Now(), delay: delay,
		stop: make(chan struct{}), stopped: make(chan struct{})}
	p.est = eta.New(p.start, delay)
	tick := every
	if p.tty {
		tick = time.Second
	}
	go p.ticker(tick)
	return p
}

// ticker refreshes the bar (terminal) or prints a line (elsewhere) every tick, so a
// phase whose items are slow still shows it is alive.
func (p *progress) ticker(every time.Duration) {
	defer close(p.stopped)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.mu.Lock()
			if now.Sub(p.start) >= p.delay && p.total > 0 {
				if p.tty {
					p.drawBar()
				} else {
					stderrMu.Lock()
					fmt.Fprintln(p.w, p.line(now))
					stderrMu.Unlock()
					p.printed = true
				}
			}
			p.mu.Unlock()
		}
	}
}

// Update records done of total.
func (p *progress) Update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = done, total
	p.est.Observe(time.Now(), done, total)
	if p.tty && time.Since(p.start) >= p.delay {
		p.drawBar()
	}
}

// setNote sets what is shown beside done/total.
func (p *progress) setNote(note string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.note = note
}

// line is the off-terminal progress line: "judging: 512/1034 (49%), 120/s, about 4s left".
func (p *progress) line(now time.Time) string {
	s := fmt.Sprintf("%s: %d/%d (%d%%)", p.label, p.done, p.total, 100*p.done/max(p.total, 1))
	if p.note != "" {
		s += ", " + p.note
	}
	rate, left, ok := p.est.Observe(now, p.done, p.total)
	if rate > 0 {
		s += ", " + formatRate(rate)
	}
	if ok {
		s += ", about " + formatLeft(left) + " left"
	}
	return s
}

// drawBar shows the bar with the rate and time left in its description.
func (p *progress) drawBar() {
	if p.bar == nil {
		p.bar = progressbar.NewOptions(p.total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(false), // its own estimate jumps; ours is in the description
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	desc := p.label
	if p.note != "" {
		desc += ": " + p.note
	}
	if rate, left, ok := p.est.Observe(time.Now(), p.done, p.total); ok {
		desc += fmt.Sprintf(" (%s, about %s left)", formatRate(rate), formatLeft(left))
	}
	stderrMu.Lock()
	defer stderrMu.Unlock()
	p.bar.Describe(desc)
	_ = p.bar.Set(p.done)
}

// Finish stops the ticker, clears the bar, and off a terminal ends a phase that printed
// lines with one saying how long it took.
func (p *progress) Finish() {
	p.mu.Lock()
	if p.finished {
		p.mu.Unlock()
		return
	}
	p.finished = true
	p.mu.Unlock()
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	stderrMu.Lock()
	defer stderrMu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
	if p.printed {
		fmt.Fprintf(p.w, "%s: %d/%d done in %s\n", p.label, p.done, p.total, formatLeft(time.Since(p.start)))
	}
}
