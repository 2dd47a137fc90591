package counterex

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestReferenceTables: the profile marks a small catalogue of ids, names and pointers as
// a reference table (its rows are fixed facts), and only such a table: Spider car_1's
// car_makers and model_list are; a table of seven teachers whose hometowns differ by
// chance is not, nor a stadium table with measurements. model_list's declared foreign
// key to car_makers, broken only by the model 'hi' of a maker 10 car_makers lacks, is
// kept for every other value.
func TestReferenceTables(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		db   string
		refs map[string]bool // table -> reference table or not
	}{
		{"car_1", map[string]bool{"car_makers": true, "model_list": true, "car_names": false, "cars_data": false}},
		{"course_teach", map[string]bool{"teacher": false}},
		{"concert_singer", map[string]bool{"stadium": false, "singer": false}},
	} {
		d, err := openDBInfo(ctx, testutil.SpiderDB(t, tc.db))
		if err != nil {
			t.Fatal(err)
		}
		p := d.profile(ctx)
		for name, want := range tc.refs {
			tp := p.tables[name]
			if tp == nil {
				t.Fatalf("%s: no table %s", tc.db, name)
			}
			if tp.reference != want {
				t.Errorf("%s.%s: reference %v, want %v", tc.db, name, tp.reference, want)
			}
			if want && !tp.lookup {
				t.Errorf("%s.%s: a reference table whose rows are not fixed", tc.db, name)
			}
		}
		if tc.db == "car_1" {
			var got *inclusion
			for i, in := range p.incl {
				if strings.EqualFold(in.child, "model_list") && strings.EqualFold(in.parent, "car_makers") {
					got = &p.incl[i]
				}
			}
			if got == nil || len(got.except) != 1 || !got.except[valKey(int64(10))] {
				t.Errorf("model_list.Maker -> car_makers.Id not kept with the one dangling maker 10: %+v", got)
			}
		}
		d.Close()
	}
}

// TestReferenceFalseAlarm: DAIL's answer to Spider dev #138 ("the average edispl for all
// volvos": the cars of the maker volvo, where the gold takes the model volvo) was
// refuted by a database in which the model volvo is made by nissan. In car_1's
// catalogue the maker volvo makes the model volvo and no other, so an expert accepts
// it: no realistic counterexample now, and the declared domain's finding names the
// made-up catalogue row. A prediction that does differ on the catalogue's own rows (the
// maker gm makes five models, the gold asks for one) is still refuted.
func TestReferenceFalseAlarm(t *testing.T) {
	db := testutil.SpiderDB(t, "car_1")
	ctx := context.Background()
	gold := "SELECT avg(T2.edispl) FROM CAR_NAMES AS T1 JOIN CARS_DATA AS T2 ON T1.MakeId  =  T2.Id WHERE T1.Model  =  'volvo';"
	pred := "SELECT avg(cars_data.Edispl) FROM cars_data JOIN car_names ON cars_data.Id = car_names.MakeId JOIN model_list ON car_names.Model = model_list.Model JOIN car_makers ON model_list.Maker = car_makers.Id WHERE car_makers.Maker = 'volvo'"
	for _, dom := range []Domain{DomainRealistic, DomainDeclared} {
		s := New(Options{Seed: 1, Budget: Budget{DBs: 300}, Semantics: judge.Spider, Domain: dom})
		out, err := s.Search(ctx, db, 138, []string{gold}, pred)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if out.Found != nil && out.Found.Refutes() {
			t.Errorf("%s: refuted through a made-up catalogue row:\n%s", dom, out.Found.Script)
		}
		if dom == DomainDeclared {
			if out.Found == nil {
				t.Fatal("declared: no robustness finding")
			}
			t.Logf("declared: %v", out.Found.Assumes)
		}
	}
	s := New(Options{Seed: 1, Budget: Budget{DBs: 300}, Semantics: judge.Spider})
	defer s.Close()
	gm := "SELECT avg(cars_data.Edispl) FROM cars_data JOIN car_names ON cars_data.Id = car_names.MakeId JOIN model_list ON car_names.Model = model_list.Model JOIN car_makers ON model_list.Maker = car_makers.Id WHERE car_makers.Maker = 'gm'"
	out, err := s.Search(ctx, db, 138, []string{strings.ReplaceAll(gold, "'volvo'", "'chevrolet'")}, gm)
	if err != nil {
		t.Fatal(err)
	}
	if out.Found == nil || !out.Found.Refutes() {
		t.Errorf("the maker gm for the model chevrolet is not refuted (found: %+v)", out.Found)
	}
}
