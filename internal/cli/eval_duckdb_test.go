package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// duckShop writes a DuckDB database "shop" under dir/dbs and three questions on it (the
// third on a database with no file) to dir/q.jsonl.
func duckShop(t *testing.T, lib string) (dir, root, questions string) {
	dir = t.TempDir()
	root = filepath.Join(dir, "dbs")
	if err := os.MkdirAll(filepath.Join(root, "shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := engine.CreateDuckDB(lib, filepath.Join(root, "shop", "shop.duckdb"),
		"CREATE TABLE item (name VARCHAR, price DECIMAL(8, 2))",
		"INSERT INTO item VALUES ('pen', 1.50), ('book', 12.00), ('cup', 3.25)"); err != nil {
		t.Fatal(err)
	}
	questions = filepath.Join(dir, "q.jsonl")
	os.WriteFile(questions, []byte(`{"question_id": "q1", "db_id": "shop", "question": "Cheapest item?", "gold": "SELECT name FROM item ORDER BY price LIMIT 1"}
{"question_id": "q2", "db_id": "shop", "question": "Total price?", "gold": "SELECT SUM(price) FROM item"}
{"question_id": "q3", "db_id": "gone", "question": "Anything?", "gold": "SELECT 1"}
`), 0o644)
	return dir, root, questions
}

// TestEvalEngineDuckDB: --engine duckdb runs gold and predictions of a JSONL dataset on
// <db-root>/<db>/<db>.duckdb files; a question whose database has no DuckDB file is
// skipped; no library is a usage-level error naming --duckdb-lib and the variable.
func TestEvalEngineDuckDB(t *testing.T) {
	lib := testutil.LibDuckDB(t)
	dir, root, questions := duckShop(t, lib)
	preds := filepath.Join(dir, "p.txt")
	os.WriteFile(preds, []byte("SELECT name FROM item WHERE price = (SELECT MIN(price) FROM item)\nSELECT SUM(price) - 1 FROM item\nSELECT 1\n"), 0o644)
	out := filepath.Join(dir, "run")
	runCLI(t, "eval", "--dataset", "jsonl:"+questions, "--db-root", root, "--engine", "duckdb", "--duckdb-lib", lib, "--pred", "sys="+preds, "--out", out)
	want := map[string]record.Verdict{"q1": record.Correct, "q2": record.Incorrect, "q3": record.Skipped}
	recs := readRecords(t, filepath.Join(out, "sys", "records.jsonl"))
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		if r.Verdict != want[r.QuestionID] {
			t.Errorf("%s: %s (%s), want %s", r.QuestionID, r.Verdict, r.ErrorMessage, want[r.QuestionID])
		}
	}

	if engine.DuckDBIsolationSupported {
		evalDuckDBExpressionMemory(t, lib, questions, root)
	}

	t.Setenv(engine.LibDuckDBEnv, "")
	code, _, stderr := run("eval", "--dataset", "jsonl:"+questions, "--db-root", root, "--engine", "duckdb", "--pred", "sys="+preds, "--out", filepath.Join(dir, "run2"))
	if code == 0 || !strings.Contains(stderr, "--duckdb-lib") || !strings.Contains(stderr, engine.LibDuckDBEnv) {
		t.Errorf("no library: exit %d, stderr %q", code, stderr)
	}
}

// evalDuckDBExpressionMemory (issue 45): a prediction whose one expression builds two
// 1.2 GB strings. DuckDB's memory_limit does not count them: in-process, eval peaked at
// 7.1 GB and judged it incorrect 25 s later. Each statement now runs in a worker process
// with a capped address space, so it is refused at once as over the cap (row_limit,
// naming it; 0.6 s and 190 MB peak for the whole eval), and the next question is judged.
func evalDuckDBExpressionMemory(t *testing.T, lib, questions, root string) {
	dir := t.TempDir()
	preds := filepath.Join(dir, "p.txt")
	os.WriteFile(preds, []byte("SELECT length(repeat(repeat('abcdefghij', 1000000), 120) || repeat(repeat('abcdefghij', 1000000), 120)) FROM item LIMIT 1\nSELECT SUM(price) FROM item\nSELECT 1\n"), 0o644)
	out := filepath.Join(dir, "run")
	// The users' timeout: this package's shortened default could end the refusal first on
	// a loaded machine.
	runCLI(t, "eval", "--dataset", "jsonl:"+questions, "--db-root", root, "--engine", "duckdb", "--duckdb-lib", lib, "--pred", "sys="+preds, "--out", out, "--timeout", "30s")
	recs := readRecords(t, filepath.Join(out, "sys", "records.jsonl"))
	if len(recs) != 3 || recs[0].ErrorCategory != record.RowLimit || !strings.Contains(recs[0].ErrorMessage, "worker's 2 GiB") || recs[1].Verdict != record.Correct {
		for _, r := range recs {
			t.Logf("%s: %s %s %s", r.QuestionID, r.Verdict, r.ErrorCategory, r.ErrorMessage)
		}
		t.Fatalf("a 2.4 GB expression: want q1 row_limit naming the worker's 2 GiB, q2 correct")
	}
}

// TestEvalDuckDBWorkersEndWithRun (round 55's attack): the command's DuckDB workers run in
// their own process group, so a signal for the terminal's group reaches only the command,
// which stops them. A SIGHUP (a closed terminal) ended the command without a resume hint
// and left the worker running its statement, orphaned; a SIGKILL left it too. Now SIGHUP
// stops the run as Ctrl-C does, and a worker dies with its parent however it ends.
func TestEvalDuckDBWorkersEndWithRun(t *testing.T) {
	t.Parallel()
	if !engine.DuckDBIsolationSupported {
		t.Skip("DuckDB worker processes need Linux")
	}
	lib := testutil.LibDuckDB(t)
	dir, root, questions := duckShop(t, lib)
	preds := filepath.Join(dir, "slow.txt")
	os.WriteFile(preds, []byte("SELECT count(*) FROM range(100000000) a, range(100000000) b WHERE a.range + b.range = 7\nSELECT 1\nSELECT 1\n"), 0o644)
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGKILL} {
		out := filepath.Join(dir, "run-"+sig.String())
		cmd := exec.Command(testBinary(t), "eval", "--dataset", "jsonl:"+questions, "--db-root", root, "--engine", "duckdb",
			"--duckdb-lib", lib, "--pred", "sys="+preds, "--out", out, "--workers", "1", "--timeout", "120s")
		var stderr testutil.SyncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The gold of q1 is quick: once a worker has run for a second, it runs the prediction.
		var workers []int
		for deadline := time.Now().Add(time.Minute); len(workers) == 0; {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("%v: no DuckDB worker within a minute:\n%s", sig, stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
			workers = testutil.DuckDBWorkers(t, cmd.Process.Pid)
		}
		time.Sleep(time.Second)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if sig == syscall.SIGHUP && (err == nil || !strings.Contains(stderr.String(), "--resume")) {
			t.Errorf("SIGHUP: %v, want a stopped run with a resume hint:\n%s", err, stderr.String())
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if left := stillRunning(workers); len(left) == 0 {
				break
			} else if time.Now().After(deadline) {
				t.Errorf("%v: workers %v still run 5 s after their command ended", sig, left)
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
				break
			}
		}
	}
}

// stillRunning is the pids of pids that are still processes (not zombies).
func stillRunning(pids []int) []int {
	var left []int
	for _, pid := range pids {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err == nil && !strings.Contains(string(stat), ") Z ") {
			left = append(left, pid)
		}
	}
	return left
}
