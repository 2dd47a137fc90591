package report

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The secrets of a hostile run's victim: rows of a database and evidence in a question
// file, both outside any root the user gave, which the run's summary.json names.
const (
	secretRow      = "TOPSECRET-ROW"
	secretEvidence = "TOPSECRET-EVIDENCE"
)

// countingEngine counts the queries it is asked to run, then runs them.
type countingEngine struct {
	engine.Engine
	n atomic.Int64
}

func (c *countingEngine) Query(ctx context.Context, db, q string, lim engine.Limits) (*engine.Result, error) {
	c.n.Add(1)
	return c.Engine.Query(ctx, db, q, lim)
}

// hostileRun writes, under base, a run directory whose summary.json records the
// victim's database root and BIRD question file (base/victim), and returns the run.
func hostileRun(tb testing.TB, base string) (dir, victim string) {
	tb.Helper()
	victim = filepath.Join(base, "victim")
	shopDB(tb, victim, 3)
	db, err := sql.Open("sqlite3", filepath.Join(victim, "shop", "shop.sqlite"))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE secrets (v TEXT); INSERT INTO secrets VALUES ('` + secretRow + `')`); err != nil {
		tb.Fatal(err)
	}
	db.Close()
	qs := []map[string]any{
		{"question_id": "qa", "db_id": "shop", "question": "question A", "evidence": secretEvidence, "SQL": "SELECT v FROM secrets", "difficulty": "simple"},
	}
	b, _ := json.Marshal(qs)
	if err := os.WriteFile(filepath.Join(victim, "dev.json"), b, 0o644); err != nil {
		tb.Fatal(err)
	}
	dir = filepath.Join(base, "run")
	writeRun(tb, dir, victim, sys{"solo", []map[string]any{rec(0, "simple", "correct", "SELECT v FROM secrets", "SELECT v FROM secrets")}})
	// The run names the victim's BIRD file: its evidence would be shown.
	p := filepath.Join(dir, rundir.SummaryFile)
	raw, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		tb.Fatal(err)
	}
	m["dataset"].(map[string]any)["kind"] = "bird"
	m["dataset"].(map[string]any)["path"] = filepath.Join(victim, "dev.json")
	if raw, err = json.Marshal(m); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir, victim
}

// TestReportRunsNoQueryByDefault (issue 45): a run directory is anyone's; the report of
// one whose summary.json names a database root and a question file outside any root the
// user gave opens neither (no query reaches the engine, neither secret is shown) and says
// in one line each which flag gives the result tables and the evidence. Given a root,
// a database that is a link out of it is refused, naming the file.
func TestReportRunsNoQueryByDefault(t *testing.T) {
	base := t.TempDir()
	dir, victim := hostileRun(t, base)
	run := loadFixture(t, dir)
	eng := &countingEngine{Engine: engine.NewSQLite()}
	defer eng.Close()

	out := renderHTML(t, run, HTMLOptions{Engine: eng})
	if n := eng.n.Load(); n != 0 {
		t.Errorf("the default report ran %d queries", n)
	}
	for _, bad := range []string{secretRow, secretEvidence, `class="result"`} {
		if strings.Contains(out, bad) {
			t.Errorf("the default report shows %q from the files the run names", bad)
		}
	}
	for _, want := range []string{"--db-root DIR", "pass --dataset FILE"} {
		if !strings.Contains(out, want) {
			t.Errorf("the default report does not name %q", want)
		}
	}

	// A root the user gave whose shop database is a link to the victim's: refused.
	trusted := filepath.Join(base, "trusted")
	if err := os.MkdirAll(trusted, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(victim, "shop"), filepath.Join(trusted, "shop")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	out = renderHTML(t, run, HTMLOptions{Engine: eng, Exec: ExecOptions{DBRoot: trusted}})
	if n := eng.n.Load(); n != 0 {
		t.Errorf("a database linked out of the root was queried (%d queries)", n)
	}
	if strings.Contains(out, secretRow) || !strings.Contains(out, "outside the database root: "+filepath.Join(trusted, "shop", "shop.sqlite")) {
		t.Errorf("a database linked out of --db-root is not refused by name")
	}

	// The question file the user names is read, once it holds the run's questions.
	out = renderHTML(t, run, HTMLOptions{Dataset: filepath.Join(victim, "dev.json")})
	if !strings.Contains(out, secretEvidence) {
		t.Error("the evidence of the question file given as --dataset is not shown")
	}
}

// TestServeRunsNoQueryByDefault: the dashboard over the same hostile run runs no query
// and reads no question file unless given them, and says how.
func TestServeRunsNoQueryByDefault(t *testing.T) {
	base := t.TempDir()
	hostileRun(t, base)
	root := filepath.Join(base, "run")
	srv := NewServer(root, ExecOptions{})
	eng := &countingEngine{Engine: srv.eng}
	srv.eng = eng
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	for _, path := range []string{"/", "/run/run/", "/run/run/q/0"} {
		code, body := get(t, ts.URL+path)
		if code != 200 || strings.Contains(body, secretRow) || strings.Contains(body, secretEvidence) {
			t.Errorf("GET %s: %d, or a secret shown:\n%s", path, code, body)
		}
		if path == "/run/run/q/0" && !strings.Contains(body, "unless started with --db-root DIR") {
			t.Errorf("GET %s does not say how to enable re-execution", path)
		}
	}
	if n := eng.n.Load(); n != 0 {
		t.Errorf("the dashboard ran %d queries", n)
	}
}
