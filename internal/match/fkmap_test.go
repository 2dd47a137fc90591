package match

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeTables(tb testing.TB, content string) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "tables.json")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestReadFKMaps(t *testing.T) {
	// Pairs (1,2), (3,4), (2,3): the third joins the first group (it holds 2) and the
	// groups are not merged, so column 3 ends up in both and the later group wins, as in
	// build_foreign_key_map.
	p := writeTables(t, `[{"db_id": "d", "table_names_original": ["A", "b"],
		"column_names_original": [[-1, "*"], [0, "Id"], [1, "a_id"], [1, "c_ID"], [0, "C"]],
		"foreign_keys": [[1, 2], [3, 4], [2, 3]]},
		{"db_id": "empty", "table_names_original": ["t"], "column_names_original": [[-1, "*"], [0, "x"]], "foreign_keys": []}]`)
	got, err := ReadFKMaps(p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]FKMap{
		"d": {
			"__a.id__":   "__a.id__",
			"__b.a_id__": "__a.id__",
			"__b.c_id__": "__b.c_id__",
			"__a.c__":    "__b.c_id__",
		},
		"empty": {},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadFKMaps (-want +got):\n%s", d)
	}
}

func TestReadFKMapsErrors(t *testing.T) {
	for name, content := range map[string]string{
		"not json":           `{`,
		"bad column":         `[{"db_id": "d", "table_names_original": ["t"], "column_names_original": [["x", "y"]], "foreign_keys": []}]`,
		"table out of range": `[{"db_id": "d", "table_names_original": ["t"], "column_names_original": [[3, "y"]], "foreign_keys": []}]`,
		"key out of range":   `[{"db_id": "d", "table_names_original": ["t"], "column_names_original": [[0, "y"]], "foreign_keys": [[0, 9]]}]`,
		// Refused by dbschema.ReadTablesJSON too: one tables.json, one verdict.
		"table index -9": `[{"db_id": "d", "table_names_original": ["t"], "column_names_original": [[-9, "y"]], "foreign_keys": []}]`,
		"no db_id":       `[{"table_names_original": ["t"], "column_names_original": [], "foreign_keys": []}]`,
		"db_id twice":    `[{"db_id": "d", "table_names_original": []}, {"db_id": "d", "table_names_original": []}]`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ReadFKMaps(writeTables(t, content)); !errors.Is(err, ErrTables) {
				t.Fatalf("error %v, want one wrapping ErrTables", err)
			}
		})
	}
	if _, err := ReadFKMaps(writeTables(t, "[\n{\"db_id\": \"a\"},\n{\"db_id\" \"b\"}\n]")); err == nil || !strings.Contains(err.Error(), "tables.json:3:") {
		t.Errorf("syntax error on line 3: %v, want it to name tables.json:3", err)
	}
	if _, err := ReadFKMaps(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}
