package taskset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeFiles writes files (relative path -> content) under a new directory.
func writeFiles(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

const goodTask = `{"instance_id": "a_1", "selected_database": "a", "sol_sql": ["SELECT 1"], "category": "Query"}`

// TestLiveSQLStream: several objects on a line, one over several lines, each with its line.
func TestLiveSQLStream(t *testing.T) {
	dir := writeFiles(t, map[string]string{"prompts.jsonl": goodTask + ` {"instance_id": "a_2", "selected_database": "a", "sol_sql": "SELECT 2"}` +
		"\n\n{\"instance_id\": \"a_3\",\n \"selected_database\": \"a\", \"sol_sql\": [\"SELECT 3\"], \"category\": \"Management\", \"test_cases\": [\"def test_case(): pass\"]}\n"})
	ds, err := LoadLiveSQL(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, task := range ds.Tasks {
		got = append(got, task.ID+":"+string(task.Category)+":"+strings.Join(task.SolSQL, "|")+":"+strconv.Itoa(task.Line))
	}
	want := "a_1:Query:SELECT 1:1 a_2:Query:SELECT 2:1 a_3:Management:SELECT 3:3"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	if c := ds.Tasks[1].Conditions; c.Decimal != -1 || c.Order || c.Distinct {
		t.Errorf("missing conditions read as %+v", c)
	}
}

// TestBadInput: each broken file is an error naming the file, the line and the key.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		load  func(dir string) error
		want  []string // in the message
	}{
		{"not json", map[string]string{"prompts.jsonl": goodTask + "\n{oops"}, liveSQL, []string{"prompts.jsonl:2"}},
		{"not an object", map[string]string{"prompts.jsonl": goodTask + "\n[1]"}, liveSQL, []string{"prompts.jsonl:2", "want a JSON object"}},
		{"duplicate key", map[string]string{"prompts.jsonl": `{"instance_id": "x", "instance_id": "y"}`}, liveSQL, []string{"prompts.jsonl:1", `"instance_id" appears twice`}},
		{"duplicate id", map[string]string{"prompts.jsonl": goodTask + "\n" + goodTask}, liveSQL, []string{"prompts.jsonl:2", "already at line 1"}},
		{"sol_sql a number", map[string]string{"prompts.jsonl": `{"instance_id": "a", "selected_database": "a", "sol_sql": 3}`}, liveSQL, []string{"prompts.jsonl:1 (a)", `"sol_sql"`}},
		{"no sol_sql", map[string]string{"prompts.jsonl": `{"instance_id": "a", "selected_database": "a"}`}, liveSQL, []string{"prompts.jsonl:1 (a)", `"sol_sql"`}},
		{"bad category", map[string]string{"prompts.jsonl": `{"instance_id": "a", "selected_database": "a", "sol_sql": "x", "category": "Other"}`}, liveSQL, []string{`"category"`}},
		{"bad conditions", map[string]string{"prompts.jsonl": `{"instance_id": "a", "selected_database": "a", "sol_sql": "x", "conditions": {"order": "yes"}}`}, liveSQL, []string{"conditions", `"order"`}},
		{"database with a slash", map[string]string{"prompts.jsonl": `{"instance_id": "a", "selected_database": "../a", "sol_sql": "x"}`}, liveSQL, []string{`"selected_database"`}},
		{"unknown knowledge", map[string]string{"prompts.jsonl": `{"instance_id": "a", "selected_database": "a", "sol_sql": "x", "external_knowledge": [9]}`,
			"a/a_kb.jsonl": `{"id": 1, "knowledge": "k"}`}, liveSQL, []string{"prompts.jsonl:1", "external_knowledge 9"}},
		{"bad knowledge file", map[string]string{"prompts.jsonl": goodTask, "a/a_kb.jsonl": "{\"id\": 1}\n{\"id\": \"two\"}"}, liveSQL, []string{"a_kb.jsonl:2", `"id"`}},
		{"no task file", map[string]string{"other.txt": ""}, liveSQL, []string{"no task file"}},
		{"evalbench not an array", map[string]string{"prompts.json": `{}`}, evalBench, []string{"prompts.json:1", "array"}},
		{"evalbench bad type", map[string]string{"prompts.json": "[\n{\"id\": 1, \"nl_prompt\": \"p\", \"query_type\": \"dql\", \"database\": \"d\", \"golden_sql\": {\"sqlite\": [\"SELECT 1\"]}},\n" +
			"{\"id\": 2, \"nl_prompt\": \"p\", \"query_type\": \"xyz\", \"database\": \"d\", \"golden_sql\": {}}]"}, evalBench, []string{"prompts.json:3 (id 2)", `"query_type"`}},
		{"evalbench golden not a list", map[string]string{"prompts.json": `[{"id": 1, "nl_prompt": "p", "query_type": "dql", "database": "d", "golden_sql": {"sqlite": 5}}]`}, evalBench, []string{`"golden_sql"`, `"sqlite"`}},
		{"csv empty cell", map[string]string{"setup/a/alloydb/setup.sql": "CREATE TABLE t (x int);", "setup/a/data/t.csv": "1\n2,,3\n"}, setup, []string{"t.csv:2", "cell 2 is empty"}},
		{"csv bad quote", map[string]string{"setup/a/alloydb/setup.sql": "", "setup/a/data/t.csv": "1\n\"a\n"}, setup, []string{"t.csv"}},
		{"csv bad table name", map[string]string{"setup/a/alloydb/setup.sql": "", "setup/a/data/t;x.csv": "1\n"}, setup, []string{"not a table name"}},
		{"no setup folder", map[string]string{"setup/a/data/t.csv": "1\n"}, setup, []string{"no folder"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load(writeFiles(t, tc.files))
			if !errors.Is(err, ErrMalformed) && !strings.Contains(err.Error(), "no ") {
				t.Fatalf("error %v is not ErrMalformed", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func liveSQL(dir string) error {
	_, err := LoadLiveSQL(context.Background(), dir)
	return err
}

func evalBench(dir string) error {
	_, err := LoadEvalBench(context.Background(), dir)
	return err
}

func setup(dir string) error {
	_, err := LiveSQLSetup(context.Background(), dir, "a")
	return err
}

// TestSetupOrder: pre_setup, setup, the rows, post_setup; each row an INSERT naming its line.
func TestSetupOrder(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"setup/a/alloydb/pre_setup.sql":  "SET x = 1;",
		"setup/a/alloydb/setup.sql":      "CREATE TABLE t (x int, y text);",
		"setup/a/alloydb/post_setup.sql": "ALTER TABLE t ADD PRIMARY KEY (x);",
		"setup/a/data/t.csv":             "1,'a'\n2,\"'b,\"\"c'\"\n",
	})
	s, err := LiveSQLSetup(context.Background(), dir, "a")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range s.Steps {
		got = append(got, st.Source+" => "+st.SQL)
	}
	want := []string{
		"setup/a/alloydb/pre_setup.sql => SET x = 1;",
		"setup/a/alloydb/setup.sql => CREATE TABLE t (x int, y text);",
		"setup/a/data/t.csv:1 => INSERT INTO t VALUES (1, 'a')",
		`setup/a/data/t.csv:2 => INSERT INTO t VALUES (2, 'b,"c')`,
		"setup/a/alloydb/post_setup.sql => ALTER TABLE t ADD PRIMARY KEY (x);",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
