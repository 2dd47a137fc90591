package benchrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// realLimits are the users' defaults (30 s, a million rows), stated by the tests on real
// benchmark data: their verdicts must not depend on a loaded machine or a test's cap.
const (
	realTimeout = 30 * time.Second
	realMaxRows = 1_000_000
)

// shardedEval writes cfg's run unsharded into dir/full (once) and as n shards, merges
// the shards with MergeInto into dir/nN-merged, and returns the merged directory and the
// full one: what `eval --shard I/N` n times and `merge` do, in this process.
func shardedEval(tb testing.TB, dir string, n int, cfg Config) (merged, full string) {
	tb.Helper()
	ctx := context.Background()
	full = filepath.Join(dir, "full")
	if _, err := os.Stat(full); err != nil {
		if _, _, err := EvalInto(ctx, cfg, Output{Dir: full}, nil); err != nil {
			tb.Fatalf("unsharded run: %v", err)
		}
	}
	var shards []string
	for i := range n {
		out := filepath.Join(dir, fmt.Sprintf("n%d-shard-%d", n, i))
		c := cfg
		c.Shard = &dataset.Shard{Index: i, Count: n}
		if _, _, err := EvalInto(ctx, c, Output{Dir: out}, nil); err != nil {
			tb.Fatalf("shard %d/%d: %v", i, n, err)
		}
		shards = append(shards, out)
	}
	merged = filepath.Join(dir, fmt.Sprintf("n%d-merged", n))
	if _, err := MergeInto(ctx, shards, merged, MergeOptions{}); err != nil {
		tb.Fatalf("merge of %d shards: %v", n, err)
	}
	return merged, full
}

// checkMergedRun compares a merged run with the unsharded one: every system's records (exec_ms
// aside: a wall time), statistics.json, summary.json (created_at, the files' hashes and
// the manifest aside) and the manifest (start time and merged_from aside).
func checkMergedRun(tb testing.TB, merged, full string, systems []string) {
	tb.Helper()
	noTime := func(dir, s string) []record.Record {
		rs, err := rundir.ReadRecords(filepath.Join(dir, s, rundir.RecordsFile))
		if err != nil {
			tb.Fatal(err)
		}
		for i := range rs {
			rs[i].ExecMillis = 0
		}
		return rs
	}
	for _, s := range systems {
		if d := cmp.Diff(noTime(full, s), noTime(merged, s)); d != "" {
			tb.Errorf("%s records differ from the unsharded run (-unsharded +merged):\n%s", s, d)
		}
		gs, _ := os.ReadFile(filepath.Join(merged, s, "statistics.json"))
		ws, _ := os.ReadFile(filepath.Join(full, s, "statistics.json"))
		if string(gs) != string(ws) || len(gs) == 0 {
			tb.Errorf("%s statistics.json differs from the unsharded run", s)
		}
	}
	gsum, err := rundir.ReadSummary(merged)
	if err != nil {
		tb.Fatal(err)
	}
	wsum, err := rundir.ReadSummary(full)
	if err != nil {
		tb.Fatal(err)
	}
	if d := cmp.Diff(wsum.Metrics, gsum.Metrics); d != "" {
		tb.Errorf("summary metrics section differs (-unsharded +merged):\n%s", d)
	}
	gm, wm := gsum.Manifest, wsum.Manifest
	if gm == nil || wm == nil || len(gm.MergedFrom) == 0 {
		tb.Fatalf("merged summary's manifest names no shards: %+v", gm)
	}
	gsum.Manifest, wsum.Manifest = nil, nil
	gsum.CreatedAt = wsum.CreatedAt
	gsum.Files, wsum.Files = nil, nil // the records' hashes differ with their exec_ms
	if d := cmp.Diff(wsum, gsum); d != "" {
		tb.Errorf("summary.json differs (-unsharded +merged):\n%s", d)
	}
	gm.MergedFrom, gm.StartedAt = nil, wm.StartedAt
	if len(gm.Files) != 0 || gm.SummarySHA256 != "" {
		tb.Errorf("summary.json's manifest carries hashes: %v %q", gm.Files, gm.SummarySHA256)
	}
	if d := cmp.Diff(wm, gm); d != "" {
		tb.Errorf("merged manifest differs from the unsharded run's (-unsharded +merged):\n%s", d)
	}
}

// TestMergeSpiderShards is the sharding check: Spider dev with DAIL, C3 and DIN as 1, 3 and
// 7 shards, merged, equals the unsharded run (scripts/shard_check.sh runs the same
// comparison with separate processes; cli's TestMergeDemoShards runs it through the
// commands). In this package rather than cli's: its subject is the split and the merge,
// and cli's suite has a per-package time budget.
func TestMergeSpiderShards(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping: 12 Spider dev runs (-short)")
	}
	spider := testutil.Shared(t, "data/spider")
	systems := []string{"DAIL", "C3", "DIN"}
	cfg := Config{DatasetSpec: "spider:" + spider, Engine: "sqlite", Timeout: realTimeout, MaxRows: realMaxRows, Workers: 2} // eval's defaults
	for _, s := range systems {
		cfg.Preds = append(cfg.Preds, s+"="+filepath.Join(spider, "predictions", s+".txt"))
	}
	dir := t.TempDir()
	for _, n := range []int{1, 3, 7} {
		merged, full := shardedEval(t, dir, n, cfg)
		checkMergedRun(t, merged, full, systems)
		if t.Failed() {
			return
		}
		m, err := rundir.ReadSummary(merged)
		if err != nil {
			t.Fatal(err)
		}
		if m.Dataset.Questions != 1034 || len(m.Manifest.MergedFrom) != n {
			t.Errorf("N=%d: %d questions merged from %d shards, want 1034 from %d", n, m.Dataset.Questions, len(m.Manifest.MergedFrom), n)
		}
		t.Logf("N=%d: %d questions merged from %d shards, %s counts %+v", n, m.Dataset.Questions, len(m.Manifest.MergedFrom), m.Systems[0].System, m.Systems[0].Overall.Counts)
	}
}
