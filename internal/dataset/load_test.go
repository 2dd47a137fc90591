package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeFiles creates files (relative path -> content) under a new temporary directory
// and returns the directory.
func writeFiles(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

func load(tb testing.TB, spec string, opt Options) *Dataset {
	tb.Helper()
	d, err := Load(context.Background(), spec, opt)
	if err != nil {
		tb.Fatalf("Load(%q): %v", spec, err)
	}
	return d
}

const birdDev = `[
  {"question_id": 0, "db_id": "shop", "question": "How many?", "evidence": "count rows", "SQL": "SELECT count(*) FROM t", "difficulty": "simple"},
  {"question_id": 1, "db_id": "zoo", "question": "Names?", "evidence": "", "SQL": "SELECT name FROM animal", "difficulty": "moderate"},
  {"question_id": 1, "db_id": "zoo", "question": "Names?", "evidence": "", "SQL": "SELECT name FROM animal"}
]`

func TestLoadBIRD(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"dev.json":                       birdDev,
		"dev_tables.json":                "[]",
		"shop/shop.sqlite":               "",
		"dev_databases/zoo/zoo.sqlite":   "",
		"dev_databases/shop/shop.sqlite": "",
	})
	d := load(t, "bird:"+dir, Options{})
	want := []Question{
		{Index: 0, ID: "0", DBID: "shop", Text: "How many?", Evidence: "count rows", Gold: []string{"SELECT count(*) FROM t"}, Difficulty: "simple"},
		{Index: 1, ID: "1", DBID: "zoo", Text: "Names?", Gold: []string{"SELECT name FROM animal"}, Difficulty: "moderate"},
		{Index: 2, ID: "1", DBID: "zoo", Text: "Names?", Gold: []string{"SELECT name FROM animal"}, Difficulty: Unknown},
	}
	if diff := cmp.Diff(want, d.Questions); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	if d.Kind != KindBIRD || d.Path != filepath.Join(dir, "dev.json") || d.DBRoot != dir || d.Tables != filepath.Join(dir, "dev_tables.json") {
		t.Errorf("dataset %+v", d)
	}
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "dev.json:4: question 2 repeats question_id 1 (first at line 3)") {
		t.Errorf("warnings %q, want one about the repeated question_id", d.Warnings)
	}
	// <root>/<db>/<db>.sqlite comes first, then <root>/dev_databases/<db>/<db>.sqlite.
	for db, want := range map[string]string{
		"shop": filepath.Join(dir, "shop", "shop.sqlite"),
		"zoo":  filepath.Join(dir, "dev_databases", "zoo", "zoo.sqlite"),
		"farm": "",
		"..":   "",
	} {
		got, ok := d.DBPath(db)
		if got != want || ok != (want != "") {
			t.Errorf("DBPath(%q) = %q, %v; want %q", db, got, ok, want)
		}
	}

	// The question file itself, with its own tables file and an overridden root.
	other := writeFiles(t, map[string]string{"zoo/zoo.sqlite": ""})
	dir2 := writeFiles(t, map[string]string{
		"mini_dev_sqlite.json": birdDev, "mini_dev_sqlite_tables.json": "[]", "dev_tables.json": "[]", "tables.json": "[]",
	})
	d = load(t, "BIRD:"+filepath.Join(dir2, "mini_dev_sqlite.json"), Options{DBRoot: other})
	if d.Tables != filepath.Join(dir2, "mini_dev_sqlite_tables.json") || d.DBRoot != other {
		t.Errorf("tables %s, root %s", d.Tables, d.DBRoot)
	}
	if p, ok := d.DBPath("zoo"); !ok || p != filepath.Join(other, "zoo", "zoo.sqlite") {
		t.Errorf("DBPath(zoo) under --db-root = %q, %v", p, ok)
	}
	// Fallbacks for the tables file: tables.json, then nothing.
	dir3 := writeFiles(t, map[string]string{"q.json": birdDev, "tables.json": "[]"})
	if d = load(t, "bird:"+filepath.Join(dir3, "q.json"), Options{}); d.Tables != filepath.Join(dir3, "tables.json") {
		t.Errorf("tables %q, want tables.json", d.Tables)
	}
	dir4 := writeFiles(t, map[string]string{"q.json": strings.ReplaceAll(birdDev, "\n", "\r\n")})
	if d = load(t, "bird:"+filepath.Join(dir4, "q.json"), Options{}); d.Tables != "" || len(d.Questions) != 3 {
		t.Errorf("CRLF file: tables %q, %d questions", d.Tables, len(d.Questions))
	}
}

func TestLoadJSONL(t *testing.T) {
	content := "{\"question_id\": \"a\", \"db_id\": \"shop\", \"question\": \"Q1\", \"gold\": \"SELECT 1\", \"difficulty\": \"easy\"}\r\n" +
		"\r\n" +
		"   \n" +
		"{\"question_id\": 7.0, \"db_id\": \"shop\", \"question\": \"Q2\", \"evidence\": \"E\", \"gold\": [\"SELECT 2\", \"SELECT 2.0\"]}\n" +
		"{\"db_id\": \"farm\", \"SQL\": \"SELECT 3\"}\n" +
		"{\"question_id\": 8, \"db_id\": \"zoo\", \"query\": \"SELECT 4\"}"
	dir := writeFiles(t, map[string]string{
		"q.jsonl":                    content,
		"shop/shop.sqlite":           "",
		"shop.sqlite":                "",
		"farm.sqlite":                "",
		"databases/farm/farm.sqlite": "",
		"databases/zoo/zoo.sqlite":   "",
	})
	d := load(t, "jsonl:"+filepath.Join(dir, "q.jsonl"), Options{})
	want := []Question{
		{Index: 0, ID: "a", DBID: "shop", Text: "Q1", Gold: []string{"SELECT 1"}, Difficulty: "easy"},
		{Index: 1, ID: "7", DBID: "shop", Text: "Q2", Evidence: "E", Gold: []string{"SELECT 2", "SELECT 2.0"}, Difficulty: Unknown},
		{Index: 2, ID: "2", DBID: "farm", Gold: []string{"SELECT 3"}, Difficulty: Unknown},
		{Index: 3, ID: "8", DBID: "zoo", Gold: []string{"SELECT 4"}, Difficulty: Unknown},
	}
	if diff := cmp.Diff(want, d.Questions); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	if d.Kind != KindJSONL || d.DBRoot != dir || d.Tables != "" || len(d.Warnings) != 0 {
		t.Errorf("dataset %+v", d)
	}
	for db, rel := range map[string]string{
		"shop": "shop/shop.sqlite", "farm": "farm.sqlite", "zoo": "databases/zoo/zoo.sqlite", "none": "",
	} {
		got, ok := d.DBPath(db)
		want := ""
		if rel != "" {
			want = filepath.Join(dir, rel)
		}
		if got != want || ok != (rel != "") {
			t.Errorf("DBPath(%q) = %q, %v; want %q", db, got, ok, want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		spec     string // {dir} is replaced by the temporary directory
		opt      Options
		sentinel error
		wantMsg  []string
	}{
		{"no colon", nil, "bird", Options{}, ErrBadSpec, []string{`"bird"`}},
		{"empty kind", nil, ":{dir}", Options{}, ErrBadSpec, nil},
		{"empty path", nil, "bird:", Options{}, ErrBadSpec, nil},
		{"unknown kind", nil, "csv:{dir}", Options{}, ErrUnknownKind, []string{`"csv"`}},
		{"missing file", nil, "bird:{dir}/nope.json", Options{}, os.ErrNotExist, []string{"nope.json"}},
		{"directory without dev.json", map[string]string{"x.txt": ""}, "bird:{dir}", Options{}, os.ErrNotExist, []string{"dev.json"}},
		{"missing --tables", map[string]string{"dev.json": birdDev}, "bird:{dir}", Options{Tables: "/nonexistent/tables.json"}, os.ErrNotExist,
			[]string{"/nonexistent/tables.json"}},
		{"bird malformed json", map[string]string{"dev.json": "[\n{\"db_id\": \"a\",\n \"SQL\" \"x\"}\n]"}, "bird:{dir}", Options{}, ErrMalformed,
			[]string{"dev.json:3:"}},
		{"bird truncated", map[string]string{"dev.json": "[\n{\"db_id\": \"a\", \"SQL\": \"x\"},\n{\"db_id\": \"a\",\n"}, "bird:{dir}", Options{}, ErrMalformed,
			[]string{"dev.json:3:", "unexpected end"}},
		{"bird not an array", map[string]string{"dev.json": "{\"db_id\": \"a\"}"}, "bird:{dir}", Options{}, ErrMalformed, []string{"dev.json:1:", "array"}},
		{"bird element not an object", map[string]string{"dev.json": "[\n{\"db_id\": \"a\", \"SQL\": \"x\"},\n 5]"}, "bird:{dir}", Options{}, ErrMalformed,
			[]string{"dev.json:3:", "question 1"}},
		{"bird missing db_id", map[string]string{"dev.json": "[\n{\"db_id\": \"a\", \"SQL\": \"x\"},\n{\"question_id\": 9, \"SQL\": \"y\"}\n]"}, "bird:{dir}", Options{},
			ErrMissing, []string{"dev.json:3:", "question 1", "db_id"}},
		{"bird missing SQL", map[string]string{"dev.json": "[\n{\"db_id\": \"a\", \"SQL\": \"  \"}\n]"}, "bird:{dir}", Options{}, ErrMissing,
			[]string{"dev.json:2:", "question 0", "gold"}},
		{"bird wrong type", map[string]string{"dev.json": "[\n{\"db_id\": 5, \"SQL\": \"x\"}\n]"}, "bird:{dir}", Options{}, ErrMalformed,
			[]string{"dev.json:2:", `key "db_id"`}},
		{"bird duplicate key", map[string]string{"dev.json": "[\n{\"db_id\": \"a\", \"SQL\": \"x\", \"SQL\": \"y\"}\n]"}, "bird:{dir}", Options{}, ErrMalformed,
			[]string{"dev.json:2:", "question 0", `key "SQL" appears twice`}},
		{"jsonl duplicate key", map[string]string{"q.jsonl": "{\"db_id\": \"a\", \"gold\": \"x\"}\n{\"db_id\": \"a\", \"db_id\": \"b\", \"gold\": \"x\"}\n"}, "jsonl:{dir}/q.jsonl", Options{}, ErrMalformed,
			[]string{"q.jsonl:2:", "question 1", `key "db_id" appears twice`}},
		{"bird unsafe db_id", map[string]string{"dev.json": "[\n{\"db_id\": \"../etc\", \"SQL\": \"x\"}\n]"}, "bird:{dir}", Options{}, ErrMalformed,
			[]string{"dev.json:2:", `"../etc"`}},
		{"bird non-UTF-8", map[string]string{"dev.json": "[\n{\"db_id\": \"a\",\n \"question\": \"caf\xe9\", \"SQL\": \"x\"}\n]"}, "bird:{dir}", Options{}, ErrMalformed,
			[]string{"dev.json:3:", "UTF-8"}},
		{"spider gold without tab", map[string]string{"dev_gold.sql": "SELECT 1\tdb\n\nSELECT 2\n"}, "spider:{dir}", Options{}, ErrMissing,
			[]string{"dev_gold.sql:3:", "question 1", "tab"}},
		{"spider gold without SQL", map[string]string{"g.sql": "\tdb\n"}, "spider:{dir}/g.sql", Options{}, ErrMissing,
			[]string{"g.sql:1:", "gold"}},
		{"spider json missing query", map[string]string{"dev.json": "[{\"db_id\": \"a\", \"question\": \"q\"}]"}, "spider:{dir}", Options{}, ErrMissing,
			[]string{"dev.json:1:", "question 0"}},
		{"spider non-UTF-8", map[string]string{"dev_gold.sql": "SELECT 1\tdb\nSELECT '\xff'\tdb\n"}, "spider:{dir}", Options{}, ErrMalformed,
			[]string{"dev_gold.sql:2:", "0xff"}},
		{"jsonl malformed", map[string]string{"q.jsonl": "{\"db_id\": \"a\", \"gold\": \"x\"}\n\n{\"db_id\": \"a\" \"gold\": \"x\"}\n"}, "jsonl:{dir}/q.jsonl", Options{},
			ErrMalformed, []string{"q.jsonl:3:"}},
		{"jsonl not an object", map[string]string{"q.jsonl": "[1, 2]\n"}, "jsonl:{dir}/q.jsonl", Options{}, ErrMalformed, []string{"q.jsonl:1:"}},
		{"jsonl missing db_id", map[string]string{"q.jsonl": "{\"gold\": \"x\"}\n"}, "jsonl:{dir}/q.jsonl", Options{}, ErrMissing,
			[]string{"q.jsonl:1:", "db_id"}},
		{"jsonl missing gold", map[string]string{"q.jsonl": "{\"db_id\": \"a\", \"gold\": \"x\"}\n{\"db_id\": \"a\", \"question\": \"q\"}\n"}, "jsonl:{dir}/q.jsonl", Options{},
			ErrMissing, []string{"q.jsonl:2:", "question 1", "gold"}},
		{"jsonl empty gold list", map[string]string{"q.jsonl": "{\"db_id\": \"a\", \"gold\": []}\n"}, "jsonl:{dir}/q.jsonl", Options{}, ErrMissing,
			[]string{"q.jsonl:1:"}},
		{"jsonl gold wrong type", map[string]string{"q.jsonl": "{\"db_id\": \"a\", \"gold\": {\"x\": 1}}\n"}, "jsonl:{dir}/q.jsonl", Options{}, ErrMalformed,
			[]string{"q.jsonl:1:", `key "gold"`}},
		{"jsonl duplicate id", map[string]string{"q.jsonl": "{\"question_id\": 7, \"db_id\": \"a\", \"gold\": \"x\"}\n{\"question_id\": \"b\", \"db_id\": \"a\", \"gold\": \"x\"}\n{\"question_id\": 7.0, \"db_id\": \"a\", \"gold\": \"y\"}\n"},
			"jsonl:{dir}/q.jsonl", Options{}, ErrDuplicateID, []string{"q.jsonl:3:", `"7"`, "line 1"}},
		{"jsonl bad id", map[string]string{"q.jsonl": "{\"question_id\": [1], \"db_id\": \"a\", \"gold\": \"x\"}\n"}, "jsonl:{dir}/q.jsonl", Options{}, ErrMalformed,
			[]string{"q.jsonl:1:", "question_id"}},
		{"jsonl non-UTF-8", map[string]string{"q.jsonl": "{\"db_id\": \"a\", \"gold\": \"x\"}\n{\"db_id\": \"a\", \"gold\": \"\xc3\"}\n"}, "jsonl:{dir}/q.jsonl", Options{},
			ErrMalformed, []string{"q.jsonl:2:", "UTF-8"}},
		{"jsonl directory", map[string]string{"q.jsonl": ""}, "jsonl:{dir}", Options{}, ErrBadSpec, []string{"directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			spec := strings.ReplaceAll(tt.spec, "{dir}", dir)
			d, err := Load(context.Background(), spec, tt.opt)
			if err == nil {
				t.Fatalf("Load(%q) succeeded with %d questions, want an error", spec, len(d.Questions))
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %q does not wrap %v", err, tt.sentinel)
			}
			for _, want := range tt.wantMsg {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func TestLoadCancelled(t *testing.T) {
	dir := writeFiles(t, map[string]string{"dev.json": birdDev})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, "bird:"+dir, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context: %v", err)
	}
}

func TestLoadWarnsAboutDBRoot(t *testing.T) {
	dir := writeFiles(t, map[string]string{"dev.json": birdDev})
	d := load(t, "bird:"+dir, Options{DBRoot: filepath.Join(dir, "nowhere")})
	found := false
	for _, w := range d.Warnings {
		found = found || strings.Contains(w, "nowhere")
	}
	if !found {
		t.Errorf("warnings %q do not mention the missing database root", d.Warnings)
	}
}
