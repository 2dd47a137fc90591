package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
)

func frame(tb testing.TB, csv string) *pandascsv.Frame {
	tb.Helper()
	f, err := pandascsv.Parse([]byte(csv))
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func cc(tb testing.TB, js string) any {
	tb.Helper()
	var v any
	dec := json.NewDecoder(stringsReader(js))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		tb.Fatal(err)
	}
	return v
}

// TestSpider2Quirks holds each evaluate.py quirk official mode reproduces, and strict
// mode's answer to it, without the shared data.
func TestSpider2Quirks(t *testing.T) {
	for _, c := range []struct {
		name, suite, cc string
		ignoreOrder     bool
		golds           []string // variant names _a, _b, ... unless single
		single          bool
		pred            string
		official        int
		officialErr     bool
		strict          int
	}{
		// NaN is normalised to 0 (issue #157).
		{name: "null as zero", suite: "lite", cc: "[]", ignoreOrder: true, single: true, golds: []string{"k,v\n1,\n"}, pred: "k,v\n1,0\n", official: 1, strict: 0},
		// Each column sorted on its own: rows scrambled across columns match (issues #200, #226).
		{name: "columns sorted alone", suite: "lite", cc: "[]", ignoreOrder: true, single: true, golds: []string{"a,b\n1,x\n2,y\n"}, pred: "a,b\n1,y\n2,x\n", official: 1, strict: 0},
		// One prediction column can satisfy two gold columns.
		{name: "pred column reused", suite: "snow", cc: "[]", ignoreOrder: true, single: true, golds: []string{"a,b\n1,1\n2,2\n"}, pred: "a\n1\n2\n", official: 1, strict: 0},
		// Sorting by str(x) pairs 20.0 with 10.001 (9.999 sorts last) and defeats the tolerance (issue #225).
		{name: "str sort defeats tolerance", suite: "lite", cc: "[]", ignoreOrder: true, single: true, golds: []string{"v\n9.999\n20.0\n"}, pred: "v\n10.001\n20.0\n", official: 0, strict: 1},
		// The tolerance is absolute: 1e9 and 1e9+5 differ for evaluate.py, not for strict's relative part.
		{name: "absolute tolerance", suite: "lite", cc: "[]", ignoreOrder: true, single: true, golds: []string{"v\n1000000000\n"}, pred: "v\n1000000005\n", official: 0, strict: 1},
		// A bool is an int to Python: True == 1.
		{name: "bool equals 1", suite: "lite", cc: "[]", ignoreOrder: true, single: true, golds: []string{"v\nTrue\n"}, pred: "v\n1\n", official: 1, strict: 0},
		// lite: a one-variant flat list gives variant 0 the int cc[0]; 0 is falsy: all columns.
		{name: "lite one-variant flat cc 0", suite: "lite", cc: "[0, 1]", ignoreOrder: true, golds: []string{"a,b,c\n1,2,3\n"}, pred: "a,b,c\n1,2,9\n", official: 0, strict: 1},
		// snow: the same int 0 selects column 0 only.
		{name: "snow one-variant flat cc 0", suite: "snow", cc: "[0, 1]", ignoreOrder: true, golds: []string{"a,b,c\n1,2,3\n"}, pred: "a,b,c\n1,9,9\n", official: 1, strict: 0},
		// Several variants and a flat list: every variant gets the list.
		{name: "flat cc replicated", suite: "lite", cc: "[1]", ignoreOrder: true, golds: []string{"a,b\n1,5\n", "a,b\n9,7\n"}, pred: "x\n7\n", official: 1, strict: 1},
		// A nested list shorter than the variants raises IndexError once past its end.
		{name: "nested cc too short", suite: "lite", cc: "[[0]]", ignoreOrder: true, golds: []string{"a\n1\n", "a\n2\n"}, pred: "a\n2\n", official: 0, officialErr: true, strict: 1},
		// A plain <id>.csv takes the whole flat list.
		{name: "plain gold flat cc", suite: "lite", cc: "[0, 1]", ignoreOrder: true, single: true, golds: []string{"a,b,c\n1,2,3\n"}, pred: "a,b\n1,2\n", official: 1, strict: 1},
		// Row counts must agree.
		{name: "extra row", suite: "lite", cc: "[]", ignoreOrder: true, single: true, golds: []string{"a\n1\n"}, pred: "a\n1\n1\n", official: 0, strict: 0},
		// Order kept when ignore_order is false.
		{name: "ordered", suite: "lite", cc: "[]", ignoreOrder: false, single: true, golds: []string{"a\n1\n2\n"}, pred: "a\n2\n1\n", official: 0, strict: 0},
		// Strict pairs rows within the tolerance even when sorting misplaces them.
		{name: "tolerant row matching", suite: "lite", cc: "[]", ignoreOrder: true, single: true, golds: []string{"n,s\n1.000,b\n1.004,a\n"}, pred: "n,s\n1.004,b\n1.000,a\n", official: 1, strict: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			task := dataset.Spider2Task{ID: "x", ConditionCols: cc(t, c.cc), HasConditionCols: true, IgnoreOrder: c.ignoreOrder, HasIgnoreOrder: true, Single: c.single}
			var golds []Spider2Gold
			for i, g := range c.golds {
				name := "x.csv"
				if !c.single {
					name = "x_" + string(rune('a'+i)) + ".csv"
				}
				golds = append(golds, Spider2Gold{File: dataset.Spider2GoldFile{Name: name}, Frame: frame(t, g)})
				task.Gold = append(task.Gold, golds[i].File)
			}
			v := CompareSpider2(c.suite, &task, frame(t, c.pred), golds)
			if v.Official.Score != c.official || (v.Official.Error != "") != c.officialErr {
				t.Errorf("official %+v, want score %d (error %v)", v.Official, c.official, c.officialErr)
			}
			if v.Strict.Score != c.strict {
				t.Errorf("strict %+v, want %d", v.Strict, c.strict)
			}
			if (v.Why != "") != (c.official != c.strict) {
				t.Errorf("why %q with official %d, strict %d", v.Why, v.Official.Score, v.Strict.Score)
			}
		})
	}
}

// TestSpider2MissingVariant: a variant missing from this copy makes the task unknown
// unless a present variant matches.
func TestSpider2MissingVariant(t *testing.T) {
	task := dataset.Spider2Task{ID: "x", ConditionCols: []any{}, HasConditionCols: true, IgnoreOrder: true, HasIgnoreOrder: true}
	golds := []Spider2Gold{{File: dataset.Spider2GoldFile{Name: "x_a.csv", Missing: true}}, {File: dataset.Spider2GoldFile{Name: "x_b.csv"}, Frame: frame(t, "a\n1\n")}}
	for _, g := range golds {
		task.Gold = append(task.Gold, g.File)
	}
	if v := CompareSpider2("lite", &task, frame(t, "a\n1\n"), golds); v.Official.Score != 1 || v.Official.Variant != "x_b.csv" || v.Strict.Score != 1 {
		t.Errorf("a present variant matches: %+v", v)
	}
	if v := CompareSpider2("lite", &task, frame(t, "a\n2\n"), golds); !v.Official.Unknown || !v.Strict.Unknown || v.Official.Score != 0 {
		t.Errorf("no present variant matches: want unknown, got %+v", v)
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// TestResultCSV: a query result goes through pandas' to_csv and read_csv as in
// evaluate.py's SQL mode.
func TestResultCSV(t *testing.T) {
	res := engine.NewResult([]string{"n", "x", "s"}, [][]any{{int64(1), 1.5, "a,b"}, {nil, 2.0, ""}, {int64(3), nil, `q"q`}})
	got := string(ResultCSV(res))
	want := "n,x,s\n1.0,1.5,\"a,b\"\n,2.0,\n3.0,,\"q\"\"q\"\n"
	if got != want {
		t.Errorf("ResultCSV:\n%s\nwant\n%s", got, want)
	}
	one := engine.NewResult([]string{"v"}, [][]any{{int64(1)}, {nil}})
	f := frame(t, string(ResultCSV(one)))
	if f.Rows != 2 {
		t.Errorf("a one-column NULL row is written \"\" and kept: %d rows", f.Rows)
	}
	if s := ExtractSpider2SQL("text\n```sql\nSELECT 1\n```\nmore"); s != "SELECT 1" {
		t.Errorf("ExtractSpider2SQL: %q", s)
	}
}
