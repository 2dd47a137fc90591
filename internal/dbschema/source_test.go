package dbschema

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestSource: a database's schema comes from its file when that exists, else from
// tables.json; neither is ErrNoSchema naming where it looked; each is read once, a
// failure remembered with it.
func TestSource(t *testing.T) {
	ctx := context.Background()
	db := makeDB(t, "shop.sqlite", "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)")
	tables := writeFile(t, "tables.json", goodTables)
	missing := filepath.Join(t.TempDir(), "school.sqlite")
	src := &Source{Tables: tables}
	tests := []struct {
		name, db, path string
		table, err     string
	}{
		{"database file", "shop", db, "items", ""},
		{"file missing: tables.json", "school", missing, "student", ""},
		{"no file given: tables.json", "school", "", "student", ""},
		{"in neither", "nowhere", missing, "", "not in " + tables},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := src.Schema(ctx, tt.db, tt.path)
			if tt.err != "" {
				if !errors.Is(err, ErrNoSchema) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want ErrNoSchema naming %q", err, tt.err)
				}
				return
			}
			if err != nil || s.Table(tt.table) == nil {
				t.Fatalf("schema %v, %v: want table %s", s, err, tt.table)
			}
			again, _ := src.Schema(ctx, tt.db, tt.path)
			if again != s {
				t.Error("asked twice, read twice: the schema is not shared")
			}
		})
	}
	if _, err := (&Source{}).Schema(ctx, "school", missing); !errors.Is(err, ErrNoSchema) || !strings.Contains(err.Error(), "no tables.json") {
		t.Errorf("no tables.json: %v", err)
	}
	bad := &Source{Tables: filepath.Join(t.TempDir(), "absent.json")}
	_, err1 := bad.Schema(ctx, "school", "")
	_, err2 := bad.Schema(ctx, "school", "")
	if err1 == nil || errors.Is(err1, ErrNoSchema) || err1 != err2 {
		t.Errorf("unreadable tables.json: %v then %v, want one remembered read error", err1, err2)
	}
}
