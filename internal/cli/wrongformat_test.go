package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// wrongFormatCase is an input in a format eval does not read, or reads only since the
// wrong-format work of issue 12, with the answer it must get: the exit code, and words
// that name what was seen and the fix.
type wrongFormatCase struct {
	name string
	role string // as hostileCase.role: "pred", "bird", "spider", "jsonl"
	file string
	data string
	code int
	says []string // substrings stderr must hold
	// correct, when set, is how many of the fixture's two questions must be judged
	// correct (the file was accepted and paired right).
	correct int
}

const (
	wfPredOK      = "SELECT count(*) FROM t\nSELECT name FROM t\n"
	wfSpiderQs    = `[{"db_id": "shop", "question": "How many?", "query": "SELECT count(*) FROM t"}, {"db_id": "shop", "question": "Names?", "query": "SELECT name FROM t"}]`
	wfGold        = "SELECT count(*) FROM t\tshop\nSELECT name FROM t\tshop\n"
	wfBIRDPredStr = "{\"0\": \"SELECT count(*) FROM t\\t----- bird -----\\tshop\", \"1\": \"SELECT name FROM t\\t----- bird -----\\tshop\"}"
)

func wrongFormatCases() []wrongFormatCase {
	return []wrongFormatCase{
		// CSV is refused: which column is the SQL, whether ids are indexes or question_ids
		// and how SQL with commas was quoted would be guesses.
		{name: "csv with header", role: "pred", file: "p.csv", data: "question_id,sql\n0,SELECT count(*) FROM t\n1,SELECT name FROM t\n",
			code: 1, says: []string{":1:", "CSV", `"question_id,sql"`, "one SQL per line", "JSON list of SQL strings"}},
		{name: "csv rows", role: "pred", file: "p.csv", data: "0,SELECT count(*) FROM t\n1,SELECT name FROM t\n",
			code: 1, says: []string{":1:", "CSV", "one SQL per line"}},
		{name: "csv quoted", role: "pred", file: "p.csv", data: "\"SELECT count(*), name FROM t\",shop\n\"SELECT name FROM t\",shop\n",
			code: 1, says: []string{":1:", "CSV", "one SQL per line"}},
		{name: "csv after blank lines", role: "pred", file: "p.csv", data: "\n\nid,prediction\n0,SELECT 1\n",
			code: 1, says: []string{":3:", "CSV"}},
		{name: "tsv with header", role: "pred", file: "p.tsv", data: "question_id\tsql\n0\tSELECT count(*) FROM t\n",
			code: 1, says: []string{":1:", "CSV/TSV", "one SQL per line"}},
		// Trailing blank lines, which Spider's evaluation.py drops, are tolerated.
		{name: "spider trailing blank line", role: "pred", file: "p.txt", data: wfPredOK + "\n", code: 0, correct: 2},
		{name: "spider trailing blank lines CRLF", role: "pred", file: "p.txt", data: strings.ReplaceAll(wfPredOK, "\n", "\r\n") + "\r\n  \r\n", code: 0, correct: 2},
		{name: "spider empty last prediction", role: "pred", file: "p.txt", data: "SELECT count(*) FROM t\n\n", code: 0, correct: 1},
		// ... but a blank line inside still is a prediction, so the count is wrong.
		{name: "spider blank line inside", role: "pred", file: "p.txt", data: "SELECT count(*) FROM t\n\nSELECT name FROM t\n",
			code: 1, says: []string{"3 lines for 2 questions"}},
		{name: "spider short file stays short", role: "pred", file: "p.txt", data: "\n",
			code: 1, says: []string{"1 lines for 2 questions"}},
		// A JSON list of SQL strings: element i answers question i, counted strictly.
		{name: "sql list", role: "pred", file: "p.json", data: `["SELECT count(*) FROM t", "SELECT name FROM t"]`, code: 0, correct: 2},
		{name: "sql list with null", role: "pred", file: "p.json", data: "[\n\"SELECT count(*) FROM t\",\nnull\n]", code: 0, correct: 1},
		{name: "sql list too short", role: "pred", file: "p.json", data: `["SELECT count(*) FROM t"]`,
			code: 1, says: []string{"1 SQL strings for 2 questions"}},
		{name: "sql list too long", role: "pred", file: "p.json", data: `["SELECT 1", "SELECT 2", "SELECT 3"]`,
			code: 1, says: []string{"3 SQL strings for 2 questions"}},
		{name: "sql list with a number", role: "pred", file: "p.json", data: "[\n\"SELECT 1\",\n7\n]",
			code: 1, says: []string{":3:", "element 1", "only strings"}},
		// Question files given as predictions.
		{name: "spider questions as predictions", role: "pred", file: "dev.json", data: wfSpiderQs,
			code: 1, says: []string{"Spider question file", "--dataset spider:"}},
		{name: "bird questions as predictions", role: "pred", file: "dev.json", data: validBIRDQuestions,
			code: 1, says: []string{"BIRD question file", "--dataset bird:"}},
		// The wrong KIND for a question file names the right one.
		{name: "spider kind on bird questions", role: "spider", file: "mini_dev.json", data: validBIRDQuestions,
			code: 1, says: []string{"BIRD questions", "use --dataset bird:"}},
		{name: "bird kind on spider questions", role: "bird", file: "dev.json", data: wfSpiderQs,
			code: 1, says: []string{"Spider questions", "use --dataset spider:"}},
		{name: "bird kind on jsonl questions", role: "bird", file: "q.jsonl",
			data: "{\"question_id\": \"q0\", \"db_id\": \"shop\", \"gold\": \"SELECT count(*) FROM t\"}\n{\"question_id\": \"q1\", \"db_id\": \"shop\", \"gold\": \"SELECT name FROM t\"}\n",
			code: 1, says: []string{"JSONL questions", "use --dataset jsonl:"}},
		{name: "jsonl kind on bird questions", role: "jsonl", file: "dev.json", data: validBIRDQuestions,
			code: 1, says: []string{"BIRD questions", "use --dataset bird:"}},
		{name: "jsonl kind on a gold file", role: "jsonl", file: "gold.sql", data: wfGold,
			code: 1, says: []string{"gold SQL file", "--dataset spider:", "--dataset bird:"}},
		{name: "spider kind on predictions", role: "spider", file: "pred.txt", data: wfPredOK,
			code: 1, says: []string{"prediction file", "--pred"}},
		{name: "bird kind on predictions", role: "bird", file: "pred.txt", data: wfPredOK,
			code: 1, says: []string{"prediction file", "--pred"}},
		{name: "bird kind on bird predictions", role: "bird", file: "pred.json", data: wfBIRDPredStr,
			code: 1, says: []string{"BIRD predictions", "--pred"}},
		{name: "bird kind on a sql list", role: "bird", file: "pred.json", data: `["SELECT 1", "SELECT 2"]`,
			code: 1, says: []string{"JSON list of SQL strings", "--pred"}},
		// BIRD's gold .sql is a dataset (without its JSON: no difficulty, a warning).
		{name: "bird gold sql", role: "bird", file: "shop_gold.sql", data: wfGold, code: 0, correct: 2,
			says: []string{"--diff-json"}},
	}
}

// TestEvalWrongFormats runs eval on each input of wrongFormatCases and checks the exit
// code, that stderr names the file and the fix, and, for accepted files, the verdicts.
func TestEvalWrongFormats(t *testing.T) {
	t.Parallel()
	fx := newHostileFixture(t)
	for _, c := range wrongFormatCases() {
		t.Run(c.name, func(t *testing.T) {
			args, file := fx.args(t, hostileCase{name: c.name, role: c.role, file: c.file, data: []byte(c.data)})
			code, _, stderr := run(args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, stderr)
			}
			if c.code != 0 && !strings.Contains(stderr, filepath.Base(file)) {
				t.Errorf("stderr does not name %s: %s", filepath.Base(file), stderr)
			}
			for _, s := range c.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q: %s", s, stderr)
				}
			}
			if c.code == 0 {
				if got := correctCount(t, outOf(args)); got != c.correct {
					t.Errorf("%d questions judged correct, want %d", got, c.correct)
				}
			}
		})
	}
}

// outOf returns the --out value of an eval command line.
func outOf(args []string) string {
	for i, a := range args {
		if a == "--out" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// correctCount counts the correct verdicts in a one-system run directory.
func correctCount(tb testing.TB, out string) int {
	tb.Helper()
	recs := rawRecords(tb, out)
	n := 0
	for _, r := range recs {
		if r["verdict"] == "correct" {
			n++
		}
	}
	return n
}

// rawRecords reads the records.jsonl of the one system in run directory out.
func rawRecords(tb testing.TB, out string) []map[string]any {
	tb.Helper()
	paths, _ := filepath.Glob(filepath.Join(out, "*", "records.jsonl"))
	if len(paths) != 1 {
		tb.Fatalf("want one records.jsonl under %s, found %v", out, paths)
	}
	f, err := os.Open(paths[0])
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var recs []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestEvalBIRDGoldSQL checks that BIRD's own layout, the gold .sql with the question
// JSON for difficulty (--ground_truth_path / --diff_json_path in BIRD's scripts), judges
// exactly as the JSON dataset does: on the 52 superhero mini-dev questions every record
// is the same but for timings, whether the JSON is found beside the .sql or named by
// --diff-json.
func TestEvalBIRDGoldSQL(t *testing.T) {
	t.Parallel()
	root := testutil.Shared(t, "data/bird")
	pred := filepath.Join(root, "predictions/mini_dev/predict_mini_dev_gpt-4-32k_sqlite.json")
	base := func(spec string, extra ...string) ([]map[string]any, string) {
		out := filepath.Join(t.TempDir(), "out")
		args := append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", spec, "--pred", "gpt4=" + pred, "--db-id", "superhero", "--out", out, "--json"}, extra...)
		code, _, stderr := run(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return rawRecords(t, out), stderr
	}
	want, _ := base("bird:" + filepath.Join(root, "mini_dev_sqlite.json"))
	if len(want) != 52 {
		t.Fatalf("%d superhero records from the JSON dataset, want 52", len(want))
	}
	gold := filepath.Join(root, "mini_dev_sqlite_gold.sql")
	beside, _ := base("bird:" + gold)
	named, _ := base("bird:"+gold, "--diff-json", filepath.Join(root, "mini_dev_sqlite.json"))
	for name, got := range map[string][]map[string]any{"beside": beside, "--diff-json": named} {
		if len(got) != len(want) {
			t.Fatalf("%s: %d records, want %d", name, len(got), len(want))
		}
		for i := range want {
			for _, k := range []string{"exec_ms", "gold_ms", "pred_ms"} {
				delete(want[i], k)
				delete(got[i], k)
			}
			a, _ := json.Marshal(want[i])
			b, _ := json.Marshal(got[i])
			if string(a) != string(b) {
				t.Errorf("%s: record %d differs:\n json: %s\n  sql: %s", name, i, a, b)
			}
		}
	}
	// BIRD's directory given as spider: names bird:.
	checkExit(t, []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:" + root, "--pred", "gpt4=" + pred, "--out", filepath.Join(t.TempDir(), "out")},
		1, "BIRD questions", "use --dataset bird:")
	// A question JSON that does not belong to the .sql is refused, naming both files.
	checkExit(t, []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:" + gold, "--diff-json", filepath.Join(root, "dev.json"),
		"--pred", "gpt4=" + pred, "--out", filepath.Join(t.TempDir(), "out")}, 1, "dev.json", "mini_dev_sqlite_gold.sql")
}
