package collect

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

func TestRenderSchema(t *testing.T) {
	ds := demoDataset(t)
	path, ok := ds.DBPath("library")
	if !ok {
		t.Fatal("no library database")
	}
	eng := engine.NewSQLite()
	defer eng.Close()
	db, err := loadDB(context.Background(), eng, path, 2)
	if err != nil {
		t.Fatal(err)
	}
	full := db.renderSchema(nil)
	if n := strings.Count(full, "CREATE TABLE "); n != len(db.schema.Tables) {
		t.Errorf("%d CREATE TABLE for %d tables:\n%s", n, len(db.schema.Tables), full)
	}
	if !strings.Contains(full, "-- examples: ") || strings.Contains(full, ",\n);") {
		t.Errorf("no sample values, or a trailing comma:\n%s", full)
	}
	// A selection keeps its tables, its columns and their keys, nothing else.
	tb := db.schema.Tables[0]
	last := tb.Columns[len(tb.Columns)-1].Name
	sel := db.renderSchema(map[string][]string{tb.Name: {last}})
	if strings.Count(sel, "CREATE TABLE ") != 1 || !strings.Contains(sel, last) {
		t.Errorf("selection of %s.%s:\n%s", tb.Name, last, sel)
	}
	ps, err := loadPrompts(&Config{Pipeline: PipelineConfig{SchemaSelection: SchemaSelection{Strategy: SchemaFull}, QueryRevision: QueryRevision{Strategy: ReviseNone}}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ps.render(promptGenerate, PromptData{Dialect: "SQLite", Schema: full, Evidence: "E!", Question: "Q?"})
	if err != nil || !strings.Contains(p, "Evidence: E!") || !strings.Contains(p, "\nQuestion: Q?\n") || !strings.Contains(p, "CREATE TABLE") {
		t.Errorf("prompt %q, %v", p, err)
	}
}
