package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// shardedRun runs eval once unsharded into dir/full and as n shards into dir/shard-I,
// merges the shards into dir/merged and returns the merged directory and the full one.
// args are eval's arguments without --shard and --out.
func shardedRun(t *testing.T, dir string, n int, args []string) (merged, full string) {
	t.Helper()
	full = filepath.Join(dir, "full")
	if _, err := os.Stat(full); err != nil {
		runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--json", "--out", full)...)
	}
	var shards []string
	for i := range n {
		out := filepath.Join(dir, fmt.Sprintf("n%d-shard-%d", n, i))
		runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--json", "--shard", fmt.Sprintf("%d/%d", i, n), "--out", out)...)
		shards = append(shards, out)
	}
	merged = filepath.Join(dir, fmt.Sprintf("n%d-merged", n))
	runCLI(t, append(append([]string{"merge"}, shards...), "--json", "--out", merged)...)
	return merged, full
}

// checkSameRun compares a merged run with the unsharded one: every system's records
// (exec_ms aside: a wall time), statistics.json, summary.json (its metrics section above
// all; created_at and the manifest aside) and the manifest (start time and merged_from
// aside).
func checkSameRun(t *testing.T, merged, full string, systems []string) {
	t.Helper()
	noTime := func(rs []record.Record) []record.Record {
		for i := range rs {
			rs[i].ExecMillis = 0
		}
		return rs
	}
	for _, s := range systems {
		got, want := noTime(readRecords(t, filepath.Join(merged, s, recordsFile))), noTime(readRecords(t, filepath.Join(full, s, recordsFile)))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s records differ from the unsharded run (-unsharded +merged):\n%s", s, d)
		}
		gs, _ := os.ReadFile(filepath.Join(merged, s, "statistics.json"))
		ws, _ := os.ReadFile(filepath.Join(full, s, "statistics.json"))
		if string(gs) != string(ws) || len(gs) == 0 {
			t.Errorf("%s statistics.json differs from the unsharded run", s)
		}
	}
	gsum, wsum := readSummary(t, merged), readSummary(t, full)
	if d := cmp.Diff(wsum.Metrics, gsum.Metrics); d != "" {
		t.Errorf("summary metrics section differs (-unsharded +merged):\n%s", d)
	}
	gm, wm := gsum.Manifest, wsum.Manifest
	if gm == nil || len(gm.MergedFrom) == 0 {
		t.Fatalf("merged summary's manifest names no shards: %+v", gm)
	}
	gsum.Manifest, wsum.Manifest = nil, nil
	gsum.CreatedAt = wsum.CreatedAt
	// The records' hashes differ with their exec_ms (a wall time); the records are
	// compared above.
	gsum.Files, wsum.Files = nil, nil
	if d := cmp.Diff(wsum, gsum); d != "" {
		t.Errorf("summary.json differs (-unsharded +merged):\n%s", d)
	}
	gm.MergedFrom, gm.StartedAt = nil, wm.StartedAt
	if len(gm.Files) != 0 || gm.SummarySHA256 != "" {
		t.Errorf("summary.json's manifest carries hashes: %v %q", gm.Files, gm.SummarySHA256)
	}
	if d := cmp.Diff(wm, gm); d != "" {
		t.Errorf("merged manifest differs from the unsharded run's (-unsharded +merged):\n%s", d)
	}
}

// demoTimeout is testTimeout, and 2 s in a -race binary: there reading the 10,000 rows of
// the demo's row_limit candidate took over 500 ms on a loaded CI machine, so one run of
// TestMergeDemoShards called it a timeout and the other a row_limit.
var demoTimeout = func() time.Duration {
	if raceEnabled {
		return 2 * time.Second
	}
	return testTimeout
}()

func demoArgs(t testing.TB) ([]string, []string) {
	args, systems, _ := demoArgsFiles(t)
	return args, systems
}

// demoArgsFiles: the arguments that judge every demo system over the shared demo files.
func demoArgsFiles(t testing.TB) ([]string, []string, *demo.Files) {
	f := sharedDemoFiles(t)
	args := []string{"--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--workers", "2", "--timeout", demoTimeout.String(), "--max-rows", "10000"} // the demo's row cap (demo.go): without it a loaded machine turned a row_limit candidate (1M rows) into a timeout
	for _, name := range f.SystemOrder {
		args = append(args, "--pred", name+"="+f.Systems[name])
	}
	return args, f.SystemOrder, f
}

func TestMergeDemoShards(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	args, systems := demoArgs(t)
	dir := t.TempDir()
	copyTree(t, sharedFullDemoRun(t), filepath.Join(dir, "full")) // shardedRun's unsharded run
	for _, n := range []int{1, 2, 3} {                            // 3: one shard is the demo's missing database alone
		merged, full := shardedRun(t, dir, n, args)
		checkSameRun(t, merged, full, systems)
	}
}

// Spider dev as 1, 3 and 7 shards, merged, equals the unsharded run: that check is
// benchrun.TestMergeSpiderShards, in process (its subject is the split and the merge);
// TestMergeDemoShards above runs the same comparison through the commands.

// copyDir copies a run directory (two levels deep).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	args, systems, f := demoArgsFiles(t)
	dir := t.TempDir()
	shard := func(name, spec string, extra ...string) string {
		out := filepath.Join(dir, name)
		runCLI(t, append(append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), extra...), "--json", "--shard", spec, "--out", out)...)
		return out
	}
	s0, s1 := shard("s0", "0/2"), shard("s1", "1/2")
	full := sharedFullDemoRun(t)

	// A foreign shard: shard 1 judged with another prediction file for the first system.
	other := filepath.Join(dir, "other.jsonl")
	b, err := os.ReadFile(f.Systems[systems[0]])
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(other, append(b, '\n'), 0o644) // same predictions, another file (sha256)
	fargs := slicesReplace(args, f.Systems[systems[0]], other)
	foreign := filepath.Join(dir, "foreign")
	runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, fargs...), "--json", "--shard", "1/2", "--out", foreign)...)
	// Another split: a shard of 1.
	whole := shard("whole", "0/1")
	// An unfinished shard: no summary.json.
	unfinished := filepath.Join(dir, "unfinished")
	copyDir(t, s1, unfinished)
	os.Remove(filepath.Join(unfinished, "summary.json"))
	// A shard whose records were cut short (summary.json still there).
	short := filepath.Join(dir, "short")
	copyDir(t, s1, short)
	recs := readRecords(t, filepath.Join(short, systems[1], recordsFile))
	if err := rundir.WriteRecords(filepath.Join(short, systems[1], rundir.RecordsFile), recs[:len(recs)-1]); err != nil {
		t.Fatal(err)
	}
	dup := filepath.Join(dir, "s1-copy")
	copyDir(t, s1, dup)

	out := func() string { return filepath.Join(t.TempDir(), "merged") }
	tests := []struct {
		name     string
		dirs     []string
		contains []string
	}{
		{"missing", []string{s0}, []string{"1 of 2 shards missing: 1/2 (", "question indexes "}},
		{"duplicated", []string{s0, s1, dup}, []string{"shard 1/2 is given twice: " + s1 + " and " + dup}},
		{"same directory twice", []string{s0, s1, s1}, []string{"shard 1/2 is given twice"}},
		{"foreign prediction file", []string{s0, foreign}, []string{foreign + " is not a shard of the same run as " + s0, "prediction file for system " + systems[0] + " changed"}},
		{"not a shard", []string{s0, full}, []string{full + " is not a shard run"}},
		{"another split", []string{s0, s1, whole}, []string{whole + " is shard 0/1 but"}},
		{"unfinished", []string{s0, unfinished}, []string{unfinished + ": shard 1/2 did not finish", "--resume --shard 1/2"}},
		// Refused by its recorded hashes, before the count of its records is looked at.
		{"records cut short", []string{s0, short}, []string{short + ": this run was changed after it was written", systems[1] + "/records.jsonl differs"}},
		{"not a run directory", []string{s0, filepath.Join(dir, "nowhere")}, []string{filepath.Join(dir, "nowhere")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := out()
			checkExit(t, append(append([]string{"merge"}, tt.dirs...), "--out", o), exitError, append(tt.contains, "cannot merge")...)
			if _, err := os.Stat(o); err == nil {
				t.Errorf("a refused merge wrote %s", o)
			}
		})
	}
	// --out that holds something is refused (and left alone).
	checkExit(t, []string{"merge", s0, s1, "--out", full}, exitError, "run directory is not empty")
	checkExit(t, []string{"merge", s0, s1}, exitUsage, "--out is required")
	// A good merge still works after all that.
	runCLI(t, "merge", s1, s0, "--json", "--out", out())
}

func slicesReplace(args []string, from, to string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.Replace(a, from, to, 1)
	}
	return out
}

// TestMergeMixedHostsVES: shards that timed VES on different hosts are refused unless
// --allow-mixed-hosts, which says so in the summary; on one host they merge.
func TestMergeMixedHostsVES(t *testing.T) {
	skipLongInShort(t)
	args, _ := demoArgs(t)
	args = append(args, "--ves", "--ves-iterations", "1")
	dir := t.TempDir()
	shard := func(name, spec, host string) string {
		t.Setenv("NL2SQLBENCH_HOST", host)
		out := filepath.Join(dir, name)
		runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--json", "--shard", spec, "--out", out)...)
		return out
	}
	a0, b1, a1 := shard("a0", "0/2", "host-a"), shard("b1", "1/2", "host-b"), shard("a1", "1/2", "host-a")
	checkExit(t, []string{"merge", a0, b1, "--out", filepath.Join(dir, "m1")}, exitError,
		"timed VES on different hosts", a0+" on host-a", b1+" on host-b", "--allow-mixed-hosts")
	runCLI(t, "merge", a0, b1, "--allow-mixed-hosts", "--json", "--out", filepath.Join(dir, "m2"))
	if s := readSummary(t, filepath.Join(dir, "m2")); !strings.Contains(strings.Join(s.Warnings, "\n"), "VES times were measured on 2 hosts (host-a, host-b)") {
		t.Errorf("mixed-host merge does not warn: %q", s.Warnings)
	}
	runCLI(t, "merge", a0, a1, "--json", "--out", filepath.Join(dir, "m3"))
	var m rundir.Manifest
	b, err := os.ReadFile(filepath.Join(dir, "m3", manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Host != "host-a" || len(m.MergedFrom) != 2 || m.MergedFrom[1].Host != "host-a" || m.Settings.Shard != nil {
		t.Errorf("merged manifest: host %q, merged_from %+v, shard %+v", m.Host, m.MergedFrom, m.Settings.Shard)
	}
}

// TestEvalShardManifestAndResume: a shard's manifest names it; resuming a run with
// another shard is refused; bad --shard values are usage errors.
func TestEvalShardManifestAndResume(t *testing.T) {
	args, _ := demoArgs(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "s0")
	runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--json", "--shard", "0/2", "--out", out)...)
	var m rundir.Manifest
	b, _ := os.ReadFile(filepath.Join(out, manifestFile))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	sh := m.Settings.Shard
	if sh == nil || sh.Index != 0 || sh.Count != 2 || sh.Questions == 0 || sh.Questions >= sh.DatasetQuestions || len(sh.DBIDs) == 0 || len(sh.IndexesSHA256) != 64 || m.Host == "" {
		t.Fatalf("shard manifest: shard %+v host %q", sh, m.Host)
	}
	checkExit(t, append(append([]string{"eval"}, args...), "--shard", "1/2", "--resume", "--out", out), exitError, "setting shard changed")
	checkExit(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--shard", "2/2"), exitUsage, "INDEX is 0-based")
	checkExit(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--shard", "0/4"), exitUsage, "at most 3 shards")
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	checkExit(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--shard", "auto"), exitUsage, "NL2SQLBENCH_SHARDS is not")
	t.Setenv("NL2SQLBENCH_SHARDS", "2")
	auto := filepath.Join(dir, "auto")
	runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--json", "--shard", "auto", "--out", auto)...)
	b, _ = os.ReadFile(filepath.Join(auto, manifestFile))
	m = rundir.Manifest{}
	if err := json.Unmarshal(b, &m); err != nil || m.Settings.Shard == nil || m.Settings.Shard.Index != 1 {
		t.Errorf("--shard auto with JOB_COMPLETION_INDEX=1: manifest shard %+v (%v)", m.Settings.Shard, err)
	}
}

// TestCollectShards: collect --shard I/N asks only the shard's questions, collect.json
// pins the shard (another shard into the same directory is refused), and the shards'
// module records, concatenated, judge as the unsharded collect's do.
func TestCollectShards(t *testing.T) {
	t.Parallel()
	files, ds, srv := demoLLM(t, 5000)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "p.yaml")
	os.WriteFile(cfg, []byte("llm: {base_url: "+srv.BaseURL+", model: fake, api_key_env: CLI_TEST_KEY, concurrency: 2}\npipeline: {schema_selection: {strategy: full}}\n"), 0o644)
	collectArgs := func(out string, extra ...string) []string {
		return append([]string{"collect", "--config", cfg, "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot, "--out", out}, extra...)
	}
	runCLI(t, collectArgs(filepath.Join(dir, "full"))...)
	var all []byte
	for i := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		runCLI(t, collectArgs(out, "--shard", fmt.Sprintf("%d/2", i))...)
		b, err := os.ReadFile(filepath.Join(out, "modules.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if n, whole := bytes.Count(b, []byte("\n")), countLines(filepath.Join(dir, "full", "modules.jsonl")); n == 0 || n >= whole {
			t.Errorf("shard %d/2 has %d module records, the unsharded collect %d: want some, not all", i, n, whole)
		}
		all = append(all, b...)
	}
	checkExit(t, collectArgs(filepath.Join(dir, "shard-0"), "--shard", "1/2"), exitError, "shard", "use another --out")
	checkExit(t, collectArgs(filepath.Join(dir, "x"), "--shard", "2/2"), exitUsage, "INDEX is 0-based")
	cat := filepath.Join(dir, "shards.jsonl")
	if err := os.WriteFile(cat, all, 0o644); err != nil {
		t.Fatal(err)
	}
	judge := func(name, pred string) []record.Record {
		out := filepath.Join(dir, "eval-"+name)
		runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "jsonl:"+files.Questions, "--db-root", files.DBRoot, "--timeout", "2s", "--json", "--pred", "sys="+pred, "--out", out)
		return readRecords(t, filepath.Join(out, "sys", recordsFile))
	}
	got, want := judge("shards", cat), judge("full", filepath.Join(dir, "full", "modules.jsonl"))
	if len(got) != len(ds.Questions) || len(want) != len(ds.Questions) {
		t.Fatalf("%d and %d records for %d questions", len(got), len(want), len(ds.Questions))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Index != w.Index || g.Verdict != w.Verdict || g.PredSQL != w.PredSQL {
			t.Errorf("question %d: sharded collect %s %q, unsharded %s %q", w.Index, g.Verdict, g.PredSQL, w.Verdict, w.PredSQL)
		}
	}
}
