package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// A newcomer's mistakes (issue 44): each message names its fix, and none says something
// misleading. The commands are the ones a newcomer runs, on the real data where the
// mistake is made with it.

// demoEval is eval of one demo system into out, judged with the demo's limits as this binary sets them.
func demoEval(t *testing.T, files *demo.Files, sys, out string) []string {
	t.Helper()
	return []string{"eval", "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot,
		"--pred", sys + "=" + files.Systems[sys], "--out", out, "--timeout", demoTimeout.String()}
}

func TestMessagesNameTheFix(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	files, err := demo.Materialize(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(files.SystemOrder) < 2 {
		t.Fatalf("the demo has %d systems, want two", len(files.SystemOrder))
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	runCLI(t, demoEval(t, files, files.SystemOrder[0], a)...)
	runCLI(t, demoEval(t, files, files.SystemOrder[1], b)...)

	t.Run("compare without a system in common", func(t *testing.T) {
		code, _, stderr := runAs(t, "./nl2sqlbench", "compare", a, b)
		if code == 0 {
			t.Fatal("compare of two runs without a common system succeeded")
		}
		for _, w := range []string{"no system in common", "judge both in one run",
			"./nl2sqlbench eval --dataset ... --pred " + files.SystemOrder[0] + "=FILE --pred " + files.SystemOrder[1] + "=FILE", "--system NAME"} {
			if !strings.Contains(stderr, w) {
				t.Errorf("stderr lacks %q:\n%s", w, stderr)
			}
		}
	})
	t.Run("verify a run without counterexamples", func(t *testing.T) {
		code, stdout, stderr := runAs(t, "", "verify", a)
		if code != 0 {
			t.Fatalf("verify: exit %d\n%s", code, stderr)
		}
		if strings.Contains(stdout, "every one reproduces") || !strings.Contains(stdout, "0 counterexamples verified: the run has none") ||
			!strings.Contains(stdout, "--test-suite") {
			t.Errorf("verify of a run judged without --test-suite says:\n%s", stdout)
		}
	})
}

// TestMessagesOnRealData: the mistakes made with BIRD's and Spider's files.
func TestMessagesOnRealData(t *testing.T) {
	skipLongInShort(t)
	t.Parallel()
	bird := testutil.Shared(t, "data/bird")
	spider := testutil.Shared(t, "data/spider")
	short := filepath.Join(t.TempDir(), "short.txt")
	writeLines(t, short, 1000, filepath.Join(spider, "predictions", "DAIL.txt"))
	miniPred := filepath.Join(bird, "predictions", "mini_dev", "predict_mini_dev_gpt-4-turbo_sqlite.json")
	for _, tc := range []struct {
		name   string
		args   []string
		want   []string
		unwant []string
	}{
		{"mini-dev predictions with dev.json",
			[]string{"eval", "--dataset", "bird:" + filepath.Join(bird, "dev.json"), "--pred", "G=" + miniPred},
			[]string{"500 predictions for 1534 questions", "BIRD mini-dev", "--dataset bird:" + filepath.Join(bird, "mini_dev_sqlite.json")},
			[]string{"db_id"}}, // not 1,500 lines of db_id mismatches
		{"dev predictions with mini-dev",
			[]string{"eval", "--dataset", "bird:" + filepath.Join(bird, "mini_dev_sqlite.json"), "--pred", "DAIL=" + filepath.Join(bird, "predictions", "dev", "DAIL.txt")},
			[]string{"1534 predictions for 500 questions", "--dataset bird:" + filepath.Join(bird, "dev.json")}, nil},
		{"a Spider file 34 lines short",
			[]string{"eval", "--dataset", "spider:" + spider, "--pred", "S=" + short},
			[]string{"1000 lines for 1034 questions", "--allow-missing"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runAs(t, "", append(tc.args, "--out", filepath.Join(t.TempDir(), "run"))...)
			if code == 0 {
				t.Fatal("eval succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, w := range tc.unwant {
				if strings.Contains(stderr, w) {
					t.Errorf("stderr has %q:\n%.2000s", w, stderr)
				}
			}
		})
	}

	// A BIRD run judged by BIRD's rules: Spider's rewrite is not its business.
	run := filepath.Join(t.TempDir(), "bird")
	_, stderr := runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:"+filepath.Join(bird, "dev.json"), "--pred", "DAIL="+filepath.Join(bird, "predictions", "dev", "DAIL.txt"), "--out", run)
	if strings.Contains(stderr, "Spider's official rewrite") {
		t.Errorf("a BIRD run warns about Spider's rewrite:\n%s", stderr)
	}

	// The audit names a BIRD dev question once: its question_id is its index.
	stdout, _ := runCLI(t, "audit", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:"+filepath.Join(bird, "dev.json"), "--out", filepath.Join(t.TempDir(), "audit"))
	if !strings.Contains(stdout, "#736 superhero [limit_tie, gold]") || strings.Contains(stdout, "#736 736") {
		t.Errorf("audit lines should read \"#736 superhero ...\":\n%s", stdout)
	}
}

// writeLines writes the first n lines of from to path.
func writeLines(t *testing.T, path string, n int, from string) {
	t.Helper()
	b := readFile(t, from)
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
}
