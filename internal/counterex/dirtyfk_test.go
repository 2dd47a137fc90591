package counterex

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestDirtyForeignKeyKept: Spider car_1 declares car_names.Model -> model_list.Model and
// one row of 406 breaks it (' volkswagen'). The foreign key is kept as a realistic fact,
// so a join through model_list that experts accept is no longer refuted; a database
// breaking it is a robustness finding that names the dirty row.
func TestDirtyForeignKeyKept(t *testing.T) {
	db := testutil.SpiderDB(t, "car_1")
	ctx := context.Background()
	d, err := openDBInfo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var desc string
	for _, v := range d.fkDirty {
		if strings.Contains(v, "car_names.Model -> model_list.Model") {
			desc = v
		}
	}
	if !strings.Contains(desc, "1 of 406 rows") || !strings.Contains(desc, "' volkswagen'") {
		t.Fatalf("dirty foreign key not kept or not described: %q (all: %v)", desc, d.fkDirty)
	}
	gold := "SELECT count(*) FROM car_names WHERE MakeId < 100"
	pred := "SELECT count(*) FROM car_names AS T1 JOIN model_list AS T2 ON T1.Model = T2.Model WHERE T1.MakeId < 100"
	for _, dom := range []Domain{DomainRealistic, DomainDeclared} {
		s := New(Options{Seed: 5, Budget: Budget{DBs: 300}, Semantics: judge.Spider, Domain: dom})
		out, err := s.Search(ctx, db, 1, []string{gold}, pred)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if out.Found != nil && out.Found.Refutes() {
			t.Errorf("%s: refuted through the dirty foreign key:\n%s", dom, out.Found.Script)
		}
		if dom == DomainDeclared {
			if out.Found == nil {
				t.Fatalf("declared: no robustness finding")
			}
			if !strings.Contains(strings.Join(out.Found.Assumes, "; "), "' volkswagen'") {
				t.Errorf("the robustness finding does not name the dirty row: %v", out.Found.Assumes)
			}
		}
	}
}
