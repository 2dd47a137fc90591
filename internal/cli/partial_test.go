package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestPartialMatchSpiderDev runs eval on DAIL's Spider dev predictions and checks the
// partial-match section against what it must agree with: its exact-match count is the
// official evaluation.py's (ts_exact, 681 of 972) and the structural section's ESM
// count; its denominators are counts of the records' esm_partial; and the terminal
// prints the table with --details.
func TestPartialMatchSpiderDev(t *testing.T) {
	t.Parallel()
	root := testutil.Shared(t, "data/spider")
	out := filepath.Join(t.TempDir(), "run")
	stdout, _ := runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:"+root, "--pred", "DAIL="+filepath.Join(root, "predictions/DAIL.txt"), "--details", "--out", out)
	if !strings.Contains(stdout, "Spider partial match") || !strings.Contains(stdout, "keywords f1") {
		t.Errorf("the terminal output has no partial-match table:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum rundir.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.ESMPartial) != 1 {
		t.Fatalf("%d esm_partial systems, want 1", len(sum.ESMPartial))
	}
	o := sum.ESMPartial[0].Overall
	wantExact := 0
	for _, row := range testutil.ReadTSV(t, filepath.Join(root, "reference/DAIL.tsv")) {
		wantExact += testutil.Atoi(t, row["ts_exact"])
	}
	if o.Count != 972 || o.Exact != wantExact || o.Exact != sum.Structural.Systems[0].Overall.ESM {
		t.Errorf("count %d exact %d; want 972 and %d (ts_exact), structural ESM %d", o.Count, o.Exact, wantExact, sum.Structural.Systems[0].Overall.ESM)
	}
	recs := readRecords(t, filepath.Join(out, "DAIL", "records.jsonl"))
	for i, comp := range record.PartialComponents {
		c := o.Components[i]
		accN, recN := 0, 0
		for _, r := range recs {
			ps := r.ESMPartial[comp]
			accN += min(ps.PredTotal, 1)
			recN += min(ps.LabelTotal, 1)
		}
		if c.Name != comp || c.AccN != accN || c.RecN != recN {
			t.Errorf("component %d = %+v, want %s with acc_n %d, rec_n %d", i, c, comp, accN, recN)
		}
	}
	n := 0
	for _, g := range sum.ESMPartial[0].ByDifficulty {
		n += g.Count
	}
	if n != o.Count {
		t.Errorf("difficulty counts sum to %d, overall %d", n, o.Count)
	}
}
