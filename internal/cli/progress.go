package cli

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows a progress bar on stderr for runs that last more than a couple of
// seconds, and stays silent when stderr is not a terminal (CI logs, pipes, tests).
type progress struct {
	w     io.Writer
	start time.Time
	bar   *progressbar.ProgressBar
	on    bool
}

const progressDelay = 2 * time.Second

func newProgress(stderr io.Writer) *progress {
	f, ok := stderr.(*os.File)
	return &progress{w: stderr, start: time.Now(), on: ok && term.IsTerminal(int(f.Fd()))}
}

func (p *progress) update(done, total int) {
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

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
