package metrics

import (
	"math"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func ip(v int) *int { return &v }

// registryRecords: four judged questions (two easy, two hard), one skipped.
func registryRecords() []record.Record {
	return []record.Record{
		{Index: 0, Difficulty: "easy", Verdict: record.Correct, ExBird: 1, ExSpider: 1, Structural: record.Structural{ESM: ip(1), ETM: ip(1)},
			Efficiency: record.Efficiency{SoftF1: fp(1)}, SchemaLinking: record.SchemaLinking{SchemaColumnF1: fp(0.5)},
			Candidates: cands(record.Incorrect, record.Correct)},
		{Index: 1, Difficulty: "easy", Verdict: record.Incorrect, ExBird: 1, Structural: record.Structural{ETM: ip(0)},
			Efficiency: record.Efficiency{SoftF1: fp(0.5)}, SchemaLinking: record.SchemaLinking{SchemaColumnF1: fp(1)}},
		{Index: 2, Difficulty: "hard", Verdict: record.Error, ErrorCategory: record.Timeout, Structural: record.Structural{ETM: ip(0)},
			Efficiency: record.Efficiency{SoftF1: fp(0)}},
		{Index: 3, Difficulty: "hard", Verdict: record.Correct, ExBird: 1, ExSpider: 1, Structural: record.Structural{ETM: ip(1)},
			Efficiency: record.Efficiency{SoftF1: fp(1)}, Candidates: cands(record.Error, record.Error, record.Correct)},
		{Index: 4, Difficulty: "hard", Verdict: record.Skipped, SchemaLinking: record.SchemaLinking{SchemaColumnF1: fp(0)}},
	}
}

func TestAggregate(t *testing.T) {
	sec := Aggregate(Declared(Options{PassK: []int{1, 2}}), []SystemRecords{
		{Name: "a", Records: registryRecords()},
		{Name: "single", Records: registryRecords()[1:3]},
	})
	tests := []struct {
		system, id, difficulty string
		value                  float64 // NaN: no value
		n, den                 int
		text                   string
	}{
		{"a", "ex", "all", 0.5, 4, 4, "50.00"},
		{"a", "ex", "easy", 0.5, 2, 2, "50.00"},
		{"a", "error", "hard", 0.5, 2, 2, "50.00"},
		{"a", "ex_bird", "all", 0.75, 4, 4, "75.00"},
		{"a", "ex_spider", "all", 0.5, 4, 4, "50.00"},
		// ESM computed for 1 of 4 judged: a number exists but is not reported.
		{"a", "esm", "all", 0.25, 1, 4, "n/a: covers 1 of 4"},
		{"a", "etm", "all", 0.5, 4, 4, "50.00"},
		{"a", "soft_f1", "all", 0.625, 4, 4, "62.50"},
		// Schema column F1: judged with a value only (the skipped question's 0 is left out).
		{"a", "schema_column_f1", "all", 0.75, 2, 2, "75.00"},
		{"a", "schema_column_f1", "hard", math.NaN(), 0, 0, "n/a: covers 0 of 2"},
		{"a", "pass@1", "all", 0, 4, 4, "0.00"}, // first candidates: I, (own) I, (own) E, E
		{"a", "pass@2", "all", 0.25, 4, 4, "25.00"},
		{"single", "pass@2", "all", 0, 2, 2, "n/a: 1 candidate"},
		{"single", "esm", "all", math.NaN(), 0, 2, "n/a: covers 0 of 2"},
	}
	for _, tt := range tests {
		_, v, ok := sec.Lookup(tt.system, tt.id)
		if !ok {
			t.Errorf("%s %s: missing", tt.system, tt.id)
			continue
		}
		v = v.In(tt.difficulty)
		got := math.NaN()
		if v.Value != nil {
			got = *v.Value
		}
		if !(got == tt.value || math.IsNaN(got) && math.IsNaN(tt.value)) || v.N != tt.n || v.Denominator != tt.den || v.Text != tt.text {
			t.Errorf("%s %s %s: value %v n %d den %d text %q; want %v %d %d %q", tt.system, tt.id, tt.difficulty,
				got, v.N, v.Denominator, v.Text, tt.value, tt.n, tt.den, tt.text)
		}
	}
	for _, absent := range []string{"ves", "rves", "flex", "schema_table_p"} {
		if sec.Has(absent) {
			t.Errorf("%s: no record carries it, yet the run lists it", absent)
		}
	}
}

// TestAggregateAgreesWithTally: the registry's EX family and the verdict tallies are two
// views of one count and must never disagree.
func TestAggregateAgreesWithTally(t *testing.T) {
	recs := registryRecords()
	sec := Aggregate(Declared(Options{}), []SystemRecords{{Name: "a", Records: recs}})
	g := Tally("all", recs)
	for id, want := range map[string]float64{"ex": g.Rates.Correct, "incorrect": g.Rates.Incorrect, "error": g.Rates.Error,
		"ex_bird": g.Rates.ExBird, "ex_spider": g.Rates.ExSpider} {
		_, v, _ := sec.Lookup("a", id)
		if v.Float() != want {
			t.Errorf("%s: registry %v, tally %v", id, v.Float(), want)
		}
	}
}

func TestUnitFormat(t *testing.T) {
	for _, tt := range []struct {
		u    Unit
		v    float64
		want string
	}{{Percent, 0.83231, "83.23"}, {Tokens, 887.49, "887.5"}, {Calls, 1.1, "1.10"}, {Dollars, 0.000123143, "0.000123"}, {Millis, 12.25, "12.2"}} {
		if got := tt.u.Format(tt.v); got != tt.want {
			t.Errorf("%s.Format(%v) = %q, want %q", tt.u, tt.v, got, tt.want)
		}
	}
}

// TestRegistryAgreesWithAnalyses: where an analysis of the modules section reports the
// same quantity as a registry metric (schema P/R/F1, Pass@k, usage means over every
// judged question), the two are one number and must be equal.
func TestRegistryAgreesWithAnalyses(t *testing.T) {
	recs := registryRecords()
	for i := range recs {
		recs[i].Usage = record.Usage{PromptTokens: 100 * i, CompletionTokens: 10 * i, LLMCalls: i, LatencyMS: int64(7 * i)}
		recs[i].GoldSchema = map[string][]string{"t": {"a", "b"}}
		recs[i].PredSchema = map[string][]string{"t": {"a"}}
		if i == 2 {
			recs[i].PredSchema = map[string][]string{"u": {"x"}}
		}
		ScoreSchema(&recs[i])
	}
	p, err := ParsePricing([]byte("default_model: m\nmodels: {m: {input: 1, cached_input: 0.5, output: 4}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sec := Aggregate(Declared(Options{PassK: []int{1, 2}, Pricing: p}), []SystemRecords{{Name: "a", Records: recs}})
	val := func(id string) float64 { _, v, _ := sec.Lookup("a", id); return v.Float() }
	ss := SchemaSelectionOf(recs)
	cg := CandidateGenerationOf(recs, []int{1, 2})
	tc := TokenCostOf("a", recs, p)
	for _, tt := range []struct {
		id       string
		analysis float64
	}{
		{"schema_table_p", ss.Tables.P}, {"schema_table_f1", ss.Tables.F1}, {"schema_column_r", ss.Column.R},
		{"pass@1", cg.PassAt[0].Rate}, {"pass@2", cg.PassAt[1].Rate},
		{"tokens", tc.Tokens.AllQuestions}, {"calls", tc.Calls.AllQuestions}, {"cost", tc.Cost.AllQuestions},
		{"latency_ms", tc.LatencyMS.AllQuestions},
	} {
		if got := val(tt.id); math.Abs(got-tt.analysis) > 1e-12 {
			t.Errorf("%s: registry %v, analysis %v", tt.id, got, tt.analysis)
		}
	}
}

// BenchmarkAggregate: the metrics section of seven systems x 1034 questions (Spider
// dev's size), every metric declared.
func BenchmarkAggregate(b *testing.B) {
	recs := registryRecords()
	var systems []SystemRecords
	for s := range 7 {
		var rs []record.Record
		for i := range 1034 {
			r := recs[i%len(recs)]
			r.Index = i
			rs = append(rs, r)
		}
		systems = append(systems, SystemRecords{Name: string(rune('a' + s)), Records: rs})
	}
	ms := Declared(Options{})
	b.ReportAllocs()
	for b.Loop() {
		Aggregate(ms, systems)
	}
}
