package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine/sqlppfake"
)

// eval --engine sqlpp sends predictions to the query service (here the fake, which runs
// them on the same SQLite files) while gold SQL runs on SQLite: verdicts must agree with
// a plain SQLite eval of the same predictions, and records carry the flexible comparison.
func TestEvalSQLPPThroughFake(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	ctx := context.Background()
	files, ds, _ := demoDocs(t)
	cb := sqlppfake.New(files.DBRoot)
	defer cb.Close()
	pred := files.Systems[files.SystemOrder[0]]
	dir := t.TempDir()
	run := func(out string, extra ...string) {
		t.Helper()
		args := append([]string{"eval", "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot, "--pred", "sys=" + pred, "--out", out, "--json", "--timeout", "1s",
			"--max-rows", "10000"}, extra...) // the demo's cross join hits the row cap at once on both paths, never the timeout
		var stdout, stderr strings.Builder
		if code := Run(ctx, cmdline(args...), nil, &stdout, &stderr); code != 0 {
			t.Fatalf("eval %v: exit %d: %s", extra, code, stderr.String())
		}
	}
	run(filepath.Join(dir, "sqlite"))
	run(filepath.Join(dir, "sqlpp"), "--engine", "sqlpp", "--sqlpp-endpoint", cb.URL(), "--sqlpp-bucket", "bench")

	type flexRec struct {
		Index       int    `json:"index"`
		Verdict     string `json:"verdict"`
		PredSQL     string `json:"pred_sql"`
		Flex        *int   `json:"flex"`
		FlexVerdict string `json:"flex_verdict"`
	}
	read := func(path string) []flexRec {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []flexRec
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r flexRec
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	plain := read(filepath.Join(dir, "sqlite", "sys", "records.jsonl"))
	viaCB := read(filepath.Join(dir, "sqlpp", "sys", "records.jsonl"))
	if len(plain) != len(ds.Questions) || len(viaCB) != len(plain) {
		t.Fatalf("%d and %d records for %d questions", len(plain), len(viaCB), len(ds.Questions))
	}
	statements := map[string]bool{}
	for _, s := range cb.Seen() {
		statements[s.Statement] = true
		if s.QueryContext != "default:`bench`.`"+s.DBID+"`" || !s.ReadOnly {
			t.Errorf("request %+v", s)
		}
	}
	judged, flexCorrect := 0, 0
	for i, r := range viaCB {
		if r.Verdict != plain[i].Verdict {
			t.Errorf("question %d: verdict %s through SQL++, %s on SQLite", r.Index, r.Verdict, plain[i].Verdict)
		}
		if r.Verdict != "correct" && r.Verdict != "incorrect" && r.Verdict != "error" {
			continue
		}
		judged++
		if r.Flex == nil || r.FlexVerdict == "" {
			t.Errorf("question %d: no flex fields", r.Index)
			continue
		}
		flexCorrect += *r.Flex
		if r.PredSQL != "" && !statements[r.PredSQL] {
			t.Errorf("question %d: prediction never reached the query service", r.Index)
		}
	}
	if judged < 40 || flexCorrect == 0 || flexCorrect == judged {
		t.Errorf("%d judged, %d flex-correct", judged, flexCorrect)
	}
	sum := readSummary(t, filepath.Join(dir, "sqlpp"))
	if sum.Settings.Engine != "sqlpp" || sum.Settings.GoldEngine != "sqlite" {
		t.Errorf("summary settings %+v", sum.Settings)
	}
}
