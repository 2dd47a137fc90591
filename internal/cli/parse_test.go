package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
)

// TestParseTablesJSONOnly: a dataset with no database files takes schemas from
// tables.json, and each question's line says exactly what its gold SQL uses.
func TestParseTablesJSONOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("tables.json", `[{"db_id": "shop",
	  "table_names_original": ["Customers", "orders"],
	  "column_names_original": [[-1, "*"], [0, "Id"], [0, "Name"], [1, "id"], [1, "customer_id"], [1, "name"]],
	  "column_types": ["text", "number", "text", "number", "number", "text"],
	  "primary_keys": [1, 3], "foreign_keys": [[4, 1]]}]`)
	qs := write("questions.jsonl", strings.Join([]string{
		`{"question_id": "a", "db_id": "shop", "question": "q", "gold": "SELECT COUNT(*) FROM customers"}`,
		`{"question_id": "b", "db_id": "shop", "question": "q", "gold": "SELECT T1.name FROM customers AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id WHERE T2.name = \"x\""}`,
		`{"question_id": "c", "db_id": "shop", "question": "q", "gold": "SELECT name, zip FROM customers JOIN orders ON 1"}`,
		`{"question_id": "d", "db_id": "shop", "question": "q", "gold": "SELECT FROM"}`,
		`{"question_id": "e", "db_id": "nowhere", "question": "q", "gold": "SELECT 1"}`,
	}, "\n")+"\n")
	code, out, errOut := run("parse", "--dataset", "jsonl:"+qs, "--json")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	var got []benchrun.ParseLine
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ln benchrun.ParseLine
		if err := json.Unmarshal(sc.Bytes(), &ln); err != nil {
			t.Fatalf("stdout line %q is not JSON: %v", sc.Text(), err)
		}
		ln.SQL = ""
		got = append(got, ln)
	}
	want := []benchrun.ParseLine{
		{Index: 0, QuestionID: "a", DBID: "shop", Parsed: true, Tables: []string{"Customers"}},
		{Index: 1, QuestionID: "b", DBID: "shop", Parsed: true, Tables: []string{"Customers", "orders"},
			Columns: []string{"Customers.Id", "Customers.Name", "orders.customer_id", "orders.name"}},
		{Index: 2, QuestionID: "c", DBID: "shop", Parsed: true, Tables: []string{"Customers", "orders"},
			Unresolved: []string{"zip"}, Ambiguous: []string{"name"}},
		{Index: 3, QuestionID: "d", DBID: "shop", Error: `sql parse error: 1:8: near "FROM": syntax error`},
		{Index: 4, QuestionID: "e", DBID: "nowhere", Parsed: true},
	}
	// Line e's error names the missing schema; compare it separately.
	if len(got) == len(want) {
		if !strings.Contains(got[4].Error, `schema of db "nowhere"`) {
			t.Errorf("line e error = %q, want it to name the missing schema", got[4].Error)
		}
		got[4].Error = ""
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("parse --json (-want +got):\n%s", diff)
	}

	// Without --json: a summary and one line per problem.
	code, out, _ = run("parse", "--dataset", "jsonl:"+qs)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, w := range []string{"2 (c, shop): unresolved zip ambiguous name", "3 (d, shop): sql parse error",
		"5 questions, 5 gold queries: 4 parse (80.0%), 2 parse with every reference resolved (40.0%)"} {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
}

// TestParseDemo parses the demo's gold and one system's predictions (SQLite files
// introspected): every gold query parses and resolves.
func TestParseDemo(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	code, out, errOut := run("parse", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 45 {
		t.Fatalf("%d lines, want one per demo question (45+)", len(lines))
	}
	for _, l := range lines {
		var ln benchrun.ParseLine
		if err := json.Unmarshal([]byte(l), &ln); err != nil {
			t.Fatal(err)
		}
		switch {
		case ln.QuestionID == "lib-021":
			// The demo's deliberately broken gold names a column that does not exist.
			if !slices.Equal(ln.Unresolved, []string{"page_count"}) || !slices.Equal(ln.Columns, []string{"books.genre"}) {
				t.Errorf("lib-021: want unresolved [page_count] and columns [books.genre]: %s", l)
			}
		case ln.DBID == "archive":
			// The demo ships no archive database, and the JSONL dataset has no tables.json.
			if !ln.Parsed || !strings.Contains(ln.Error, `schema of db "archive"`) {
				t.Errorf("archive question: want parsed with a missing-schema error: %s", l)
			}
		case !ln.Parsed || ln.Error != "" || len(ln.Unresolved)+len(ln.Ambiguous) > 0 || len(ln.Tables) == 0:
			t.Errorf("demo gold does not parse and resolve cleanly: %s", l)
		}
	}
	sys := f.SystemOrder[0]
	code, out, errOut = run("parse", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot, "--pred", f.Systems[sys])
	if code != exitOK {
		t.Fatalf("parse --pred %s: exit %d: %s", sys, code, errOut)
	}
	if !strings.Contains(out, "predictions: ") {
		t.Errorf("parse --pred summary does not mention predictions:\n%s", out)
	}
}

func TestParseUsage(t *testing.T) {
	t.Parallel()
	if code, _, _ := run("parse"); code != exitUsage {
		t.Errorf("parse without --dataset: exit %d, want %d", code, exitUsage)
	}
}
