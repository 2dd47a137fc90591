package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// checksums returns the sha256 of every file under dir.
func checksums(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return err
		}
		sums[p] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return sums
}

// TestDemoEndToEnd runs `nl2sqlbench demo` and checks that every verdict and every error
// category appears, that the run directory is complete, and that the demo databases are
// byte-identical afterwards (the demo includes DELETE and DROP TABLE predictions).
func TestDemoEndToEnd(t *testing.T) {
	t.Parallel()
	cache, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	files, err := demo.Materialize(t.Context(), cache)
	if err != nil {
		t.Fatal(err)
	}
	before := checksums(t, files.DBRoot)
	if len(before) < 2 {
		t.Fatalf("want at least two demo databases, found %d files", len(before))
	}
	stdout, _ := runCLI(t, "demo", "--cache", cache, "--out", out)
	if !strings.Contains(stdout, "run directory: "+out) {
		t.Errorf("demo output does not say where the run directory is:\n%s", stdout)
	}
	after := checksums(t, files.DBRoot)
	for p, sum := range before {
		if after[p] != sum {
			t.Errorf("%s changed during the demo run", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("database directory gained or lost files: %d before, %d after", len(before), len(after))
	}

	verdicts := map[record.Verdict]int{}
	cats := map[record.ErrorCategory]int{}
	candidates := 0
	for _, name := range files.SystemOrder {
		recs := readRecords(t, filepath.Join(out, name, "records.jsonl"))
		for i, r := range recs {
			if r.Index != i {
				t.Fatalf("%s: record %d has index %d: records out of order", name, i, r.Index)
			}
			verdicts[r.Verdict]++
			if r.Verdict == record.Error {
				cats[r.ErrorCategory]++
			}
			candidates = max(candidates, len(r.Candidates))
		}
		var st metrics.Statistics
		readJSON(t, filepath.Join(out, name, "statistics.json"), &st)
		if len(st.Counts) == 0 {
			t.Errorf("%s: statistics.json has no counts", name)
		}
	}
	for _, v := range []record.Verdict{record.Correct, record.Incorrect, record.Error, record.Skipped, record.GoldError} {
		if verdicts[v] == 0 {
			t.Errorf("verdict %s never appears in the demo", v)
		}
	}
	for _, c := range record.Categories {
		if cats[c] == 0 {
			t.Errorf("error category %s never appears in the demo", c)
		}
	}
	if candidates < 5 {
		t.Errorf("no demo system reports 5+ candidates (max %d)", candidates)
	}
	var sum rundir.Summary
	readJSON(t, filepath.Join(out, "summary.json"), &sum)
	if len(sum.Systems) != len(files.SystemOrder) || len(sum.Systems) < 3 {
		t.Errorf("summary.json has %d systems, want %d (>= 3)", len(sum.Systems), len(files.SystemOrder))
	}
	t.Logf("demo verdicts %v, error categories %v", verdicts, cats)

	// The demo exercises the module metrics too: revisions that break correct answers
	// (C2I, C2E) and priced tokens.
	var raw struct {
		Modules struct {
			Systems []struct {
				System        string `json:"system"`
				QueryRevision *struct {
					C2I any `json:"c2i"`
					C2E any `json:"c2e"`
				} `json:"query_revision"`
				Usage struct {
					CostUSD *struct {
						Total float64 `json:"total"`
					} `json:"cost_usd"`
				} `json:"usage"`
			} `json:"systems"`
		} `json:"modules"`
	}
	readJSON(t, filepath.Join(out, "summary.json"), &raw)
	for _, s := range raw.Modules.Systems {
		if s.Usage.CostUSD == nil || s.Usage.CostUSD.Total <= 0 {
			t.Errorf("%s: no cost in the demo summary", s.System)
		}
		if s.System == "reviser" {
			if s.QueryRevision == nil {
				t.Fatalf("reviser: no query_revision section")
			}
			for name, v := range map[string]any{"c2i": s.QueryRevision.C2I, "c2e": s.QueryRevision.C2E} {
				if f, ok := v.(float64); !ok || f <= 0 {
					t.Errorf("reviser %s = %v, want a positive rate (the demo breaks correct answers on purpose)", name, v)
				}
			}
		}
	}
}

func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}
