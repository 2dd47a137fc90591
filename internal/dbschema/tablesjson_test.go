package dbschema

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeFile(tb testing.TB, name, content string) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

const goodTables = `[{
  "db_id": "school",
  "table_names_original": ["Student", "Course", "Enrol"],
  "table_names": ["student", "course", "enrol"],
  "column_names_original": [[-1, "*"], [0, "StuID"], [0, "Name"], [1, "CID"], [2, "StuID"], [2, "CID"], [2, "Grade"]],
  "column_types": ["text", "number", "text", "number", "number", "number", "real"],
  "primary_keys": [1, 3, [4, 5]],
  "foreign_keys": [[4, 1], [5, 3]]
}, {
  "db_id": "empty",
  "table_names_original": [],
  "column_names_original": [[-1, "*"]],
  "column_types": ["text"],
  "primary_keys": [],
  "foreign_keys": []
}]`

func TestReadTablesJSON(t *testing.T) {
	path := writeFile(t, "tables.json", goodTables)
	got, err := ReadTablesJSON(path)
	if err != nil {
		t.Fatalf("ReadTablesJSON: %v", err)
	}
	want := map[string]*Schema{
		"school": {DBID: "school", Tables: []*Table{
			{
				Name:       "Student",
				Columns:    []*Column{{Name: "StuID", Type: "number", PrimaryKey: true}, {Name: "Name", Type: "text"}},
				PrimaryKey: []string{"StuID"},
			},
			{
				Name:       "Course",
				Columns:    []*Column{{Name: "CID", Type: "number", PrimaryKey: true}},
				PrimaryKey: []string{"CID"},
			},
			{
				Name: "Enrol",
				Columns: []*Column{
					{Name: "StuID", Type: "number", PrimaryKey: true}, {Name: "CID", Type: "number", PrimaryKey: true},
					{Name: "Grade", Type: "real"},
				},
				PrimaryKey: []string{"StuID", "CID"},
				ForeignKeys: []ForeignKey{
					{Columns: []string{"StuID"}, RefTable: "Student", RefColumns: []string{"StuID"}},
					{Columns: []string{"CID"}, RefTable: "Course", RefColumns: []string{"CID"}},
				},
			},
		}},
		"empty": {DBID: "empty"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schemas (-want +got):\n%s", diff)
	}
	if !got["school"].Table("enrol").IsUnique("cid", "stuid") {
		t.Error("composite key from a list element not usable by IsUnique")
	}
}

func TestReadTablesJSONErrors(t *testing.T) {
	entry := func(fields string) string {
		return `[{"db_id": "d1", "table_names_original": ["t"], ` + fields + `}]`
	}
	tests := []struct {
		name    string
		content string
		want    []string // substrings the error must hold (besides the file name)
	}{
		{"not json", `{"db_id":`, []string{":1:"}},
		{"not a list", `{"db_id": "x"}`, []string{":1:"}},
		{"syntax error on line 3", "[\n{\"db_id\": \"a\"},\n{\"db_id\" \"b\"}\n]", []string{":3:"}},
		{"truncated after line 2", "[\n{\"db_id\": \"a\"},\n", []string{":2:"}},
		{"no db_id", `[{"table_names_original": []}]`, []string{"entry 0"}},
		{"duplicate db_id", `[{"db_id": "a"}, {"db_id": "a"}]`, []string{`"a"`, "entry 1"}},
		{"bad column table index", entry(`"column_names_original": [[-1, "*"], [0, "a"], [3, "b"]]`),
			[]string{`"d1"`, "column_names_original[2]", "table index 3"}},
		{"malformed column pair", entry(`"column_names_original": [[-1, "*"], ["a"]]`),
			[]string{`"d1"`, "column_names_original[1]"}},
		{"type count mismatch", entry(`"column_names_original": [[-1, "*"], [0, "a"]], "column_types": ["text"]`),
			[]string{`"d1"`, "1 column_types for 2"}},
		{"primary key out of range", entry(`"column_names_original": [[-1, "*"], [0, "a"]], "primary_keys": [1, 9]`),
			[]string{`"d1"`, "primary_keys[1]", "index 9"}},
		{"primary key on star", entry(`"column_names_original": [[-1, "*"], [0, "a"]], "primary_keys": [[1, 0]]`),
			[]string{`"d1"`, "primary_keys[0]", "index 0"}},
		{"primary key not a number", entry(`"column_names_original": [[-1, "*"], [0, "a"]], "primary_keys": ["a"]`),
			[]string{`"d1"`, "primary_keys[0]"}},
		{"foreign key out of range", entry(`"column_names_original": [[-1, "*"], [0, "a"]], "foreign_keys": [[1, 1], [1, -4]]`),
			[]string{`"d1"`, "foreign_keys[1]", "index -4"}},
		{"foreign key not a pair", entry(`"column_names_original": [[-1, "*"], [0, "a"]], "foreign_keys": [[1]]`),
			[]string{`"d1"`, "foreign_keys[0]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "tables.json", tc.content)
			_, err := ReadTablesJSON(path)
			if !errors.Is(err, ErrBadTablesJSON) {
				t.Fatalf("err = %v, want ErrBadTablesJSON", err)
			}
			for _, w := range append([]string{path}, tc.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, err := ReadTablesJSON(filepath.Join(t.TempDir(), "none.json"))
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("err = %v, want os.ErrNotExist", err)
		}
	})
}
