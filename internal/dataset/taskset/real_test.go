package taskset

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestLiveSQLReal reads bat-interact and checks the counts its README gives.
func TestLiveSQLReal(t *testing.T) {
	dir := testutil.Shared(t, "data/evalbench/bat-interact")
	ds, err := LoadLiveSQL(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{"tasks": len(ds.Tasks)}
	for _, task := range ds.Tasks {
		got["category "+string(task.Category)]++
		got["difficulty "+task.Difficulty]++
		if len(task.TestCases) > 0 {
			got["with test cases"]++
		}
		if task.FollowUp != nil {
			got["follow-up "+string(task.FollowUp.Category)]++
		}
		if task.DB != "db_blog" {
			got["other database"]++
		}
	}
	want := map[string]int{
		"tasks": 405, "category Query": 258, "category Management": 147,
		"difficulty Simple": 144, "difficulty Moderate": 195, "difficulty Challenging": 66,
		"with test cases": 147, "follow-up Query": 352, "follow-up Management": 53,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	if n := len(ds.Knowledge["db_blog"]); n == 0 {
		t.Errorf("db_blog's knowledge base is empty")
	}
	first := ds.Tasks[0]
	if first.ID != "db_blog_0" || first.Line != 1 || !first.Conditions.Order || !first.Conditions.Distinct || first.Conditions.Decimal != -1 || len(first.SolSQL) != 1 {
		t.Errorf("first task read wrong: %+v", first)
	}
}

// TestEvalBenchReal reads bat's prompts.json: 23 tasks, 16 dql, 4 ddl, 3 dml.
func TestEvalBenchReal(t *testing.T) {
	dir := testutil.Shared(t, "data/evalbench/bat")
	ds, err := LoadEvalBench(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{"tasks": len(ds.Tasks)}
	for _, task := range ds.Tasks {
		got[task.QueryType]++
		for _, d := range []string{"postgres", "sqlite", "mysql"} {
			if len(task.Golden[d]) == 0 {
				got["no golden "+d]++
			}
		}
		if task.QueryType != "dql" && len(task.EvalQuery["postgres"]) == 0 {
			got["dml/ddl without eval_query"]++
		}
	}
	want := map[string]int{"tasks": 23, "dql": 16, "ddl": 4, "dml": 3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

// TestSetupBuilds builds bat's SQLite database and checks every table is there with
// rows; with a PostgreSQL server, bat-interact's too.
func TestSetupBuilds(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, setup taskdb.Setup, tmpl interface {
		Copy(context.Context) (taskdb.Copy, error)
	}) {
		c, err := tmpl.Copy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Drop(ctx)
		sums, err := c.Checksum(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(sums) < 20 { // 20 tables and the schema
			t.Errorf("%d checksums, want at least 21: %v", len(sums), sums)
		}
		res, err := c.Exec(ctx, "SELECT count(*) FROM tbl_users", taskdb.ExecLimits{})
		if err != nil || res.Rows[0][0] == nil {
			t.Fatalf("count users: %v", err)
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		dir := testutil.Shared(t, "data/evalbench/bat")
		setup, err := EvalBenchSetup(ctx, dir, "db_blog", "sqlite")
		if err != nil {
			t.Fatal(err)
		}
		s, err := taskdb.OpenSQLite(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := s.Template(ctx, setup)
		if err != nil {
			t.Fatal(err)
		}
		check(t, setup, tmpl)
	})
	t.Run("postgres", func(t *testing.T) {
		dir := testutil.Shared(t, "data/evalbench/bat-interact")
		dsn := os.Getenv("NL2SQLBENCH_PG_DSN")
		if dsn == "" {
			t.Skip("skipping: NL2SQLBENCH_PG_DSN not set")
		}
		setup, err := LiveSQLSetup(ctx, dir, "db_blog")
		if err != nil {
			t.Fatal(err)
		}
		p, err := taskdb.OpenPostgres(ctx, dsn)
		if err != nil {
			t.Skip("skipping: ", err)
		}
		defer p.Close()
		tmpl, err := p.Template(ctx, setup) // kept: later runs and tests reuse it
		if err != nil {
			t.Fatal(err)
		}
		check(t, setup, tmpl)
	})
}
