package match

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestReadFKMapsShared: the maps ReadFKMaps builds from dbschema's parse are the maps it
// builds reading the file itself, on the real Spider and BIRD tables.json and on files
// dbschema refuses but ESM accepts (those keep being read here).
func TestReadFKMapsShared(t *testing.T) {
	paths := map[string]string{}
	for _, rel := range []string{"data/spider/tables.json", "data/bird/dev_tables.json", "data/bird/mini_dev_sqlite_tables.json"} {
		if p, ok := testutil.SharedIfPresent(t, rel); ok {
			paths[rel] = p
		}
	}
	// dbschema refuses these (a foreign key to "*", column_types of the wrong length);
	// ESM's own reading accepts them.
	paths["fk to *"] = writeTables(t, `[{"db_id": "d", "table_names_original": ["t"], "column_names_original": [[-1, "*"], [0, "x"]], "foreign_keys": [[1, 0]]}]`)
	paths["column_types"] = writeTables(t, `[{"db_id": "d", "table_names_original": ["t"], "column_names_original": [[-1, "*"], [0, "x"], [0, "y"]], "column_types": ["text"], "foreign_keys": [[1, 2]]}]`)
	for name, p := range paths {
		t.Run(name, func(t *testing.T) {
			want, err := readFKMapsFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // parsed, then from dbschema's cache
				got, err := ReadFKMaps(p)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("ReadFKMaps differs from reading the file (-file +shared):\n%s", d)
				}
			}
			if len(want) == 0 {
				t.Fatal("no database read")
			}
			// The real files take the shared path; the two made-up ones cannot.
			if _, err := dbschema.ReadTablesEntries(p); (err == nil) != strings.HasPrefix(name, "data/") {
				t.Errorf("dbschema.ReadTablesEntries: %v", err)
			}
		})
	}
}
