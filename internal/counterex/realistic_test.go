package counterex

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestProfileFacts: the profile of real databases says what the examples need:
// Has_Pet.StuID is never NULL and is included in Student.StuID, superhero's gender is a
// lookup table its gender_id points at, singer.Age is an integer in a range.
func TestProfileFacts(t *testing.T) {
	ctx := context.Background()
	col := func(p *profile, table, name string) *colProfile {
		tp := p.tables[strings.ToLower(table)]
		if tp == nil {
			t.Fatalf("no table %s in the profile", table)
		}
		for i := range tp.cols {
			if strings.EqualFold(tp.cols[i].name, name) {
				return &tp.cols[i]
			}
		}
		t.Fatalf("no column %s.%s in the profile", table, name)
		return nil
	}
	hasIncl := func(p *profile, child, ccol, parent, pcol string) bool {
		for _, in := range p.incl {
			if strings.EqualFold(in.child, child) && strings.EqualFold(in.ccol, ccol) && strings.EqualFold(in.parent, parent) && strings.EqualFold(in.pcol, pcol) {
				return true
			}
		}
		return false
	}
	pets, err := openDBInfo(ctx, testutil.SpiderDB(t, "pets_1"))
	if err != nil {
		t.Fatal(err)
	}
	defer pets.Close()
	p := pets.profile(ctx)
	if c := col(p, "Has_Pet", "StuID"); c.nulls {
		t.Errorf("Has_Pet.StuID: NULL claimed")
	}
	if !hasIncl(p, "Has_Pet", "StuID", "Student", "StuID") {
		t.Errorf("no inclusion Has_Pet.StuID in Student.StuID among %v", p.incl)
	}
	if c := col(p, "Student", "Sex"); !c.closed || !c.domain[valKey("F")] || c.domain[valKey("f")] {
		t.Errorf("Student.Sex: closed %v domain %v; want the exact set {F, M}", c.closed, c.domain)
	}
	cs, err := openDBInfo(ctx, testutil.SpiderDB(t, "concert_singer"))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if c := col(cs.profile(ctx), "singer", "Age"); c.nulls || !c.integral || c.lo > c.hi {
		t.Errorf("singer.Age: nulls %v integral %v range [%g, %g]", c.nulls, c.integral, c.lo, c.hi)
	}
	sh, err := openDBInfo(ctx, testutil.Shared(t, "data/bird/dev_databases/superhero/superhero.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	sp := sh.profile(ctx)
	if tp := sp.tables["gender"]; tp == nil || !tp.lookup {
		t.Errorf("superhero's gender is not a lookup table")
	}
	if !hasIncl(sp, "superhero", "gender_id", "gender", "id") {
		t.Errorf("no inclusion superhero.gender_id in gender.id")
	}
}

// TestRealisticModeLabels: the examples. A prediction differing from the gold
// only on a NULL the data never has gets no realistic counterexample, and in declared
// mode one labelled with that assumption; the tie under a gold's LIMIT marks the gold.
func TestRealisticModeLabels(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		db, gold, pred string
		sem            judge.Semantics
		declAssumes    string // a fact the declared-mode finding must list ("" when none expected)
		tie            bool   // realistic mode: a gold-tie finding (else none at all)
	}{
		{"pets_1", "SELECT count(*) FROM Student AS T1 WHERE T1.StuID NOT IN (SELECT T2.StuID FROM Has_Pet AS T2)",
			"SELECT count(*) FROM Student WHERE StuID NOT IN (SELECT StuID FROM Has_Pet)", judge.Spider, "", false},
		{"pets_1", "SELECT StuID FROM Student EXCEPT SELECT T1.StuID FROM Student AS T1 JOIN Has_Pet AS T2 ON T1.StuID = T2.StuID",
			"SELECT StuID FROM Student WHERE StuID NOT IN (SELECT StuID FROM Has_Pet)", judge.Spider, "NULL in Has_Pet.StuID (never NULL in the data)", false},
		{"concert_singer", "SELECT song_name, song_release_year FROM singer ORDER BY age LIMIT 1",
			"SELECT song_name, song_release_year FROM singer WHERE age = (SELECT min(age) FROM singer)", judge.Spider, "", true},
	} {
		db := testutil.SpiderDB(t, tc.db)
		for _, dom := range []Domain{DomainRealistic, DomainDeclared} {
			s := New(Options{Seed: 1, Budget: Budget{DBs: 200}, Semantics: tc.sem, Domain: dom})
			out, err := s.Search(ctx, db, 1, []string{tc.gold}, tc.pred)
			s.Close()
			if err != nil {
				t.Fatalf("%s: %v", tc.pred, err)
			}
			f := out.Found
			if f != nil {
				t.Logf("%s %s: assumes %q tie %q\n%s", dom, tc.pred, f.Assumes, f.GoldTie, f.Script)
				if _, _, err := Verify(ctx, f.Script, []string{tc.gold}, tc.pred, tc.sem); err != nil {
					t.Errorf("%s: verify: %v", tc.pred, err)
				}
			}
			switch {
			case dom == DomainRealistic && tc.tie:
				if f == nil || !f.Realistic() || f.GoldTie == "" || f.Refutes() {
					t.Errorf("%s: want a realistic gold-tie finding, got %+v", tc.pred, f)
				}
			case dom == DomainRealistic:
				if f != nil {
					t.Errorf("%s: realistic counterexample assuming %q", tc.pred, f.Assumes)
				}
			case tc.declAssumes != "":
				if f == nil || !slices.Contains(f.Assumes, tc.declAssumes) {
					t.Errorf("%s: declared mode: want a finding assuming %q, got %+v", tc.pred, tc.declAssumes, f)
				}
			}
		}
	}
}
