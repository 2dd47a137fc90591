package benchrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestRescoreRunUnder (issue 45): the dashboard re-scores a run that may be anyone's.
// After the run's recorded dataset file and database root are moved away (so reading
// either fails loudly), a review correcting a gold is refused without a root, judged on
// the root the user gave with the questions from the records, and a database that is a
// link out of that root is not opened; a review that corrects nothing needs no root.
func TestRescoreRunUnder(t *testing.T) {
	ctx := context.Background()
	cfg := budgetDataset(t, "SELECT name FROM t", "SELECT name FROM t", time.Second)
	out := filepath.Join(t.TempDir(), "run")
	if _, _, err := EvalInto(ctx, cfg, Output{Dir: out}, &notes{}); err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(cfg.DBRoot)
	moved := filepath.Join(t.TempDir(), "given")
	if err := os.Rename(cfg.DBRoot, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(base, "questions.jsonl")); err != nil {
		t.Fatal(err)
	}
	load := func() *rundir.Run {
		run, err := rundir.Load(ctx, out)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	reviews := filepath.Join(t.TempDir(), "reviews.jsonl")
	if err := review.Append(reviews, review.Review{Index: 0, System: "long", Decision: review.Reject}); err != nil {
		t.Fatal(err)
	}
	if _, err := RescoreRunUnder(ctx, load(), reviews, ""); err != nil {
		t.Errorf("a review correcting no gold needs no database: %v", err)
	}
	if err := review.Append(reviews, review.Review{Index: 0, Decision: review.GoldWrong, SQL: "SELECT id FROM t"}); err != nil {
		t.Fatal(err)
	}
	// The rescore command reads what the run records: here, gone.
	if _, err := RescoreRun(ctx, load(), reviews, ""); err == nil || !strings.Contains(err.Error(), "questions.jsonl") {
		t.Errorf("RescoreRun with the recorded dataset gone: %v; want it to fail naming the file", err)
	}
	if _, err := RescoreRunUnder(ctx, load(), reviews, ""); !errors.Is(err, ErrNoExecRoot) {
		t.Errorf("a corrected gold without a root: %v, want ErrNoExecRoot", err)
	}
	got, err := RescoreRunUnder(ctx, load(), reviews, moved)
	if err != nil || len(got.Moved) != 1 || !got.Moved[0].GoldFixed || got.Moved[0].GoldError != "" {
		t.Fatalf("a corrected gold under the given root: %v %+v", err, got.Moved)
	}
	// A root whose database is a link to the moved one, outside it: not opened.
	linked := t.TempDir()
	if err := os.Symlink(filepath.Join(moved, "d"), filepath.Join(linked, "d")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	got, err = RescoreRunUnder(ctx, load(), reviews, linked)
	if err != nil || len(got.Moved) != 1 || !strings.Contains(got.Moved[0].GoldError, "not found under "+linked) {
		t.Errorf("a database linked out of the root: %v %+v; want the corrected gold left unjudged", err, got.Moved)
	}
}
