package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
)

// runPrinter shows what a run tells (benchrun.Observer) on stderr: warnings, the timing
// phase's start, and progress bars.
type runPrinter struct{ stderr io.Writer }

var _ benchrun.Observer = runPrinter{}

func (p runPrinter) Warn(msg string) { fmt.Fprintf(p.stderr, "warning: %s\n", msg) }

func (p runPrinter) Phase(ph benchrun.Phase) benchrun.Progress {
	if ph.Name == benchrun.PhaseTiming {
		fmt.Fprintf(p.stderr, "timing %d correct predictions (%s, %d iterations)\n", ph.Items, ph.Mode, ph.Iterations)
	}
	return newProgress(p.stderr)
}

// progress shows a progress bar on stderr for runs that last more than a couple of
// seconds, and stays silent when stderr is not a terminal (CI logs, pipes, tests).
type progress struct {
	w     io.Writer
	start time.Time
	bar   *progressbar.ProgressBar
	on    bool
}

var _ benchrun.Progress = (*progress)(nil)

const progressDelay = 2 * time.Second

func newProgress(stderr io.Writer) *progress {
	f, ok := stderr.(*os.File)
	return &progress{w: stderr, start: time.Now(), on: ok && term.IsTerminal(int(f.Fd()))}
}

// Update shows done of total.
func (p *progress) Update(done, total int) {
	if !p.on {
		return
	}
	if p.bar == nil {
		if time.Since(p.start) < progressDelay {
			return
		}
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("judging"),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	_ = p.bar.Set(done)
}

// Finish clears the bar.
func (p *progress) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
