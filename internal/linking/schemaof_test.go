package linking

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// schemaOfOracle is SchemaOf as first written, kept as the oracle of its faster form.
func schemaOfOracle(u *sqlast.Use) map[string][]string {
	out := map[string][]string{}
	for _, t := range u.Tables {
		t = strings.ToLower(t)
		if _, ok := out[t]; !ok {
			out[t] = []string{}
		}
	}
	for _, c := range u.Columns {
		t, col, ok := strings.Cut(c, ".")
		if !ok {
			continue
		}
		t = strings.ToLower(t)
		out[t] = append(out[t], strings.ToLower(col))
	}
	for t := range out {
		sort.Strings(out[t])
	}
	return out
}

// TestSchemaOfOracle: SchemaOf equals its first form on every Spider dev gold query and on
// uses a query cannot produce (a column of a table not listed, a column without a table).
func TestSchemaOfOracle(t *testing.T) {
	uses := []*sqlast.Use{
		{},
		{Tables: []string{"A", "a", "B"}, Columns: []string{"A.X", "a.y", "C.z", "nodot"}},
	}
	if _, ok := testutil.SharedIfPresent(t, "data/spider/dev.json"); ok {
		schemas := map[string]*dbschema.Schema{}
		for _, q := range testutil.SpiderDev(t) {
			path := testutil.SpiderDB(t, q.DBID)
			s, ok := schemas[path]
			if !ok {
				if _, err := os.Stat(path); err == nil {
					s, _ = dbschema.Introspect(t.Context(), path)
				}
				schemas[path] = s
			}
			if u, err := sqlast.ExtractSchema(q.Query, s); err == nil {
				uses = append(uses, u)
			}
		}
	}
	for i, u := range uses {
		if d := cmp.Diff(schemaOfOracle(u), SchemaOf(u)); d != "" {
			t.Fatalf("use %d %+v (-oracle +SchemaOf):\n%s", i, u, d)
		}
	}
	t.Logf("%d uses", len(uses))
}
