package livesql

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestCompareDecimal: corrected mode rounds to conditions.decimal places; the official
// comparison always to 2.
func TestCompareDecimal(t *testing.T) {
	p := pg(t, []string{"numeric"}, row("0.12345"))
	g := pg(t, []string{"numeric"}, row("0.12"))
	if ok, _, _ := Compare(p, g, false); !ok {
		t.Errorf("official: 0.12345 and 0.12 differ; want equal at 2 places")
	}
	if ok, _, _ := compare(p, g, false, 4); ok {
		t.Errorf("decimal 4: 0.12345 and 0.12 equal; want them to differ (0.1235, 0.1200)")
	}
	if ok, _, _ := compare(p, pg(t, []string{"numeric"}, row("0.1235")), false, 4); !ok {
		t.Errorf("decimal 4: 0.12345 and 0.1235 differ; want equal (half up)")
	}
}

func TestCleanCorrected(t *testing.T) {
	got := cleanCorrected([]string{"SELECT DISTINCT ON (a) a, ROUND(b, 1) FROM t -- note\n"})
	if want := []string{"SELECT DISTINCT ON (a) a, b FROM t"}; !slices.Equal(got, want) {
		t.Errorf("cleanCorrected: %q, want %q", got, want)
	}
}

// TestRunQueryCorrected judges bat-interact tasks with the gold as the prediction in
// corrected mode on PostgreSQL copies: a task both modes pass (db_blog_0), a gold that
// returns no rows (db_blog_15: official fails, corrected passes by empty_result), a
// DISTINCT ON that the official stripping breaks (db_blog_19: distinct_kept), and a
// wrong prediction with an empty result against a non-empty gold (fails both ways).
func TestRunQueryCorrected(t *testing.T) {
	dir := testutil.Shared(t, "data/evalbench/bat-interact")
	dsn := os.Getenv("NL2SQLBENCH_PG_DSN")
	if dsn == "" {
		t.Skip("skipping: NL2SQLBENCH_PG_DSN not set (eval \"$(bash .ci/servers.sh)\" starts a server)")
	}
	ctx := context.Background()
	ds, err := taskset.LoadLiveSQL(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := taskset.LiveSQLSetup(ctx, dir, "db_blog")
	if err != nil {
		t.Fatal(err)
	}
	p, err := taskdb.OpenPostgres(ctx, dsn)
	if err != nil {
		t.Skip("skipping: ", err)
	}
	defer p.Close()
	tmpl, err := p.Template(ctx, setup)
	if err != nil {
		t.Fatal(err)
	}
	tasks := map[string]taskset.Task{}
	for _, task := range ds.Tasks {
		tasks[task.ID] = task
	}
	cases := []struct {
		id       string
		pred     []string // nil: the gold
		pass     bool
		official bool
		corr     []Correction
		changed  []Correction // what made the verdict differ (decimal applied to db_blog_19 but did not)
	}{
		{"db_blog_0", nil, true, true, nil, nil},
		{"db_blog_15", nil, true, false, []Correction{CorrEmptyResult}, []Correction{CorrEmptyResult}},
		{"db_blog_19", nil, true, false, []Correction{CorrDistinct, CorrDecimal}, []Correction{CorrDistinct}}, // its conditions.decimal is 4
		{"db_blog_0", []string{"SELECT 1 WHERE false"}, false, false, nil, nil},
	}
	for _, c := range cases {
		task := tasks[c.id]
		pred := c.pred
		if pred == nil {
			pred = task.SolSQL
		}
		cp, err := tmpl.Copy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		v, err := RunQueryCorrected(ctx, cp, task.Preprocess, pred, task.SolSQL, task.CleanUp,
			Conditions{Order: task.Conditions.Order, Decimal: task.Conditions.Decimal}, 0)
		if derr := cp.Drop(ctx); derr != nil {
			t.Fatal(derr)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		corr := slices.DeleteFunc(slices.Clone(v.Corrections), func(c Correction) bool { return c == CorrCleanUp })
		if v.Pass != c.pass || v.OfficialPass == nil || *v.OfficialPass != c.official || !slices.Equal(corr, c.corr) {
			t.Errorf("%s (pred %q): pass %v official %v corrections %v (%s); want %v %v %v", c.id, c.pred, v.Pass, v.OfficialPass != nil && *v.OfficialPass, v.Corrections, v.Detail, c.pass, c.official, c.corr)
		}
		if !slices.Equal(v.ChangedBy, c.changed) {
			t.Errorf("%s: changed by %v, want %v", c.id, v.ChangedBy, c.changed)
		}
		if len(task.CleanUp) > 0 && !slices.Contains(v.Corrections, CorrCleanUp) {
			t.Errorf("%s: clean_up_sqls did not run", c.id)
		}
	}
}

// TestChangedBy: a verdict corrected mode changed is credited to the corrections that
// made the difference, each tried alone on the official comparison; when none does
// alone, to all that applied (together); clean_up_sqls never.
func TestChangedBy(t *testing.T) {
	num := func(vals ...string) [][]Value {
		var rows [][]any
		for _, v := range vals {
			rows = append(rows, row(v))
		}
		return pg(t, []string{"numeric"}, rows...)
	}
	empty := &resultPair{num(), num()}
	tests := []struct {
		name                string
		applied             []Correction
		official, corrected *resultPair
		cond                Conditions
		officialOK, corrOK  bool
		want                []Correction
	}{
		{"empty alone, clean-up not credited", []Correction{CorrEmptyResult, CorrCleanUp}, empty, empty, Conditions{Decimal: -1}, false, true,
			[]Correction{CorrEmptyResult}},
		// decimal 4 separates 0.12345 from 0.12 (equal at 2 places); DISTINCT kept gives the same rows.
		{"decimal, not distinct", []Correction{CorrDistinct, CorrDecimal}, &resultPair{num("0.12345"), num("0.12")}, &resultPair{num("0.12345"), num("0.12")},
			Conditions{Decimal: 4}, true, false, []Correction{CorrDecimal}},
		// DISTINCT kept makes the prediction's rows right; decimal alone changes nothing.
		{"distinct, not decimal", []Correction{CorrDistinct, CorrDecimal}, &resultPair{num("1", "2"), num("3")}, &resultPair{num("3"), num("3")},
			Conditions{Decimal: 3}, false, true, []Correction{CorrDistinct}},
		// Both empty only with DISTINCT kept, and equal only when empty results are: together.
		{"together", []Correction{CorrDistinct, CorrEmptyResult}, &resultPair{num("1"), num("2")}, empty,
			Conditions{Decimal: -1}, false, true, []Correction{CorrDistinct, CorrEmptyResult}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := changedBy(tt.applied, tt.official, tt.corrected, tt.cond, tt.officialOK, tt.corrOK); !slices.Equal(got, tt.want) {
				t.Errorf("changedBy = %v, want %v", got, tt.want)
			}
		})
	}
}
