package match

import (
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// ps is a PartialScore written short: score, label_total, pred_total.
func ps(score, label, pred int) record.PartialScore {
	return record.PartialScore{Score: score, LabelTotal: label, PredTotal: pred}
}

// TestPartialHandComputed checks components worked out by hand from evaluation.py's
// eval_partial_match rules (values dropped, the official options).
func TestPartialHandComputed(t *testing.T) {
	tests := []struct {
		name, pred, gold string
		want             map[string]record.PartialScore
	}{
		{"select no AGG, where counts, and/or swap",
			"SELECT name, age FROM singer WHERE age > 30",
			"SELECT name, max(age) FROM singer WHERE age > 40 AND country = 'x'",
			map[string]record.PartialScore{
				"select":         ps(0, 2, 2), // (none, age) is not (max, age)
				"select(no AGG)": ps(1, 2, 2), // the val_units name and age both match
				"where":          ps(0, 2, 1), // one of two conditions
				"where(no OP)":   ps(0, 2, 1),
				// Neither query has the component: 0 == 0 units, all matched.
				"group(no Having)": ps(1, 0, 0),
				"group":            ps(1, 0, 0),
				"order":            ps(1, 0, 0),
				// {} vs {and}: eval_and_or puts len(pred) = 0 in label_total and
				// len(gold) = 1 in pred_total.
				"and/or":   ps(0, 0, 1),
				"IUEN":     ps(1, 0, 0),
				"keywords": ps(1, 1, 1), // {where} both
			}},
		{"set operations",
			"SELECT name FROM singer UNION SELECT name FROM stadium",
			"SELECT name FROM singer INTERSECT SELECT name FROM stadium",
			map[string]record.PartialScore{
				"select":   ps(1, 1, 1),
				"IUEN":     ps(0, 1, 1), // intersect vs union: no operand pair matches
				"keywords": ps(0, 1, 1), // {intersect} vs {union}
				"and/or":   ps(1, 1, 1), // equal (empty) sets score (1, 1, 1)
			}},
		{"same set operation, other operand",
			"SELECT name FROM singer EXCEPT SELECT name FROM singer WHERE age > 3",
			"SELECT name FROM singer EXCEPT SELECT name FROM stadium",
			map[string]record.PartialScore{
				"IUEN":     ps(0, 1, 1),
				"keywords": ps(1, 1, 1),
			}},
		{"limit presence decides order",
			"SELECT name FROM singer ORDER BY age DESC",
			"SELECT name FROM singer ORDER BY age DESC LIMIT 1",
			map[string]record.PartialScore{
				"order":    ps(0, 1, 1),
				"keywords": ps(0, 3, 2), // {order, desc, limit} vs {order, desc}
			}},
		{"having only in group",
			"SELECT country, count(*) FROM singer GROUP BY country",
			"SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 2",
			map[string]record.PartialScore{
				"group(no Having)": ps(1, 1, 1),
				"group":            ps(0, 1, 1),
				"keywords":         ps(0, 2, 1),
			}},
		{"group(no Having) compares column names only",
			"SELECT count(*) FROM singer AS T1 JOIN stadium AS T2 GROUP BY T2.name",
			"SELECT count(*) FROM singer AS T1 JOIN stadium AS T2 GROUP BY T1.name",
			map[string]record.PartialScore{
				"group(no Having)": ps(1, 1, 1), // "name__" both, once the table is cut off
				"group":            ps(0, 1, 1), // eval_having compares whole column ids
			}},
		{"unparsable prediction is the empty query",
			"SELEC name FROM",
			"SELECT name FROM singer WHERE age > 3 OR country = 'x'",
			map[string]record.PartialScore{
				"select":   ps(0, 1, 0),
				"where":    ps(0, 2, 0),
				"and/or":   ps(0, 0, 1),
				"keywords": ps(0, 2, 0), // {where, or}
			}},
	}
	s, fk := testSchema(), testFK()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := PrepareGold(tt.gold, s, fk, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, got := g.MatchPartial(PredText(tt.pred), s, fk, Options{})
			for comp, want := range tt.want {
				g, ok := got[comp]
				if want.Trivial() {
					// Left out of the record; the script's score for it is 1.
					if ok || want.Score != 1 {
						t.Errorf("%s = %+v (present %v), want left out", comp, g, ok)
					}
					continue
				}
				if g != want {
					t.Errorf("%s = %+v, want %+v", comp, g, want)
				}
			}
		})
	}
}

// TestPartialAgreesWithESM holds eval_exact_match's definition on every Spider dev
// prediction of DAIL, C3 and DIN: a prediction matches exactly when all ten partial
// scores are 1 and the FROM tables agree.
func TestPartialAgreesWithESM(t *testing.T) {
	for _, system := range []string{"DAIL", "C3", "DIN"} {
		t.Run(system, func(t *testing.T) {
			cases := readSpiderCases(t, system)
			d := loadSpiderData(t, caseDBs(cases))
			exact := 0
			for _, c := range cases {
				s, fk := d.schemas[c.db], d.fks[c.db]
				g, err := PrepareGold(c.gold, s, fk, Options{})
				if err != nil {
					t.Fatalf("question %d: %v", c.index, err)
				}
				ok, part := g.MatchPartial(PredText(c.pred), s, fk, Options{})
				q, err := spidersql.Parse(PredText(c.pred), s)
				if err != nil {
					q = &spidersql.SQL{}
				}
				p := newRebuilder(q, fk, Options{}).norm(q)
				all := true
				for _, comp := range record.PartialComponents {
					ps, present := part[comp]
					all = all && (!present || ps.Score == 1) // absent: neither has it, score 1
				}
				tables := len(g.n.tables) == 0 || slices.Equal(p.tables, g.n.tables)
				if ok != (all && tables) {
					t.Errorf("question %d: exact %v but partial %v, tables %v", c.index, ok, part, tables)
				}
				if ok != (c.want == 1) {
					t.Errorf("question %d: exact %v, reference ts_exact %d", c.index, ok, c.want)
				}
				exact += boolInt(ok)
			}
			t.Logf("%s: %d/%d exact", system, exact, len(cases))
		})
	}
}
