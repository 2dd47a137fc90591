package benchrun

import (
	"context"
	"errors"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
)

// TestParserEach: parse's totals on the demo's gold, and fn's error stops the walk.
func TestParserEach(t *testing.T) {
	ctx := context.Background()
	files, err := demo.Materialize(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewParser(ctx, ParseConfig{DatasetSpec: "jsonl:" + files.Questions, DBRoot: files.DBRoot})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ReadTexts(); err != nil {
		t.Fatal(err)
	}
	var seen, resolved int
	c, err := p.Each(ctx, func(ln *ParseLine) error {
		seen++
		if ln.Resolved() {
			resolved++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n := len(p.Dataset.Questions)
	// Every gold is answered and parses; lib-021 names a missing column and the archive
	// database is not shipped, so some do not resolve.
	if c.Questions != n || seen != n || c.Answered != n || c.Parsed != n || c.Resolved != resolved || resolved >= n || resolved == 0 {
		t.Errorf("Each = %+v over %d questions, %d lines seen, %d resolved", c, n, seen, resolved)
	}
	stop := errors.New("stop")
	calls := 0
	if _, err := p.Each(ctx, func(*ParseLine) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Each after fn's error: %v after %d calls, want stop after 1", err, calls)
	}
}
