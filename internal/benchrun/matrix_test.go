package benchrun

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

const testPlan = `datasets:
  d1: {dataset: "jsonl:q.jsonl", db_root: dbs}
  d2: {dataset: "jsonl:/abs/q2.jsonl", db_id: [a]}
models:
  m1: {base_url: http://h/v1, model: x, concurrency: 2, pricing: {input: 1, output: 2}}
  m2: {base_url: http://h/v1, model: y}
pipelines:
  p1: {schema_selection: {strategy: full}}
  p2: {query_revision: {strategy: execution_guided}}
systems:
  S: {d1: preds.txt}
`

func TestParseMatrixPlan(t *testing.T) {
	p, err := ParseMatrixPlan([]byte(testPlan+"exclude: [d2/m2+p2]\n"), "/plans")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range p.Cells {
		names = append(names, c.Name)
	}
	want := "d1/S d1/m1+p1 d1/m1+p2 d1/m2+p1 d1/m2+p2 d2/m1+p1 d2/m1+p2 d2/m2+p1"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("cells %q, want %q", got, want)
	}
	if d := p.Datasets["d1"]; d.Dataset != "jsonl:/plans/q.jsonl" || d.DBRoot != "/plans/dbs" {
		t.Errorf("relative paths not resolved against the plan: %+v", d)
	}
	if p.Systems["S"]["d1"] != "/plans/preds.txt" {
		t.Errorf("system file %q", p.Systems["S"]["d1"])
	}
	if c := p.Configs["m1+p1"]; c.Resolve("gen.tmpl") != "/plans/gen.tmpl" || c.Resolve("/abs.tmpl") != "/abs.tmpl" {
		t.Errorf("a cell's prompt paths resolve to %s, %s: not against the plan's directory", c.Resolve("gen.tmpl"), c.Resolve("/abs.tmpl"))
	}
	if c := p.Configs["m1+p2"]; c.LLM.Model != "x" || c.Pricing == nil || c.Pipeline.QueryRevision.Rounds != 2 {
		t.Errorf("m1+p2 config: %+v", c)
	}

	bad := []struct{ name, plan, want string }{
		{"unknown key", testPlan + "extra: 1\n", "field extra not found"},
		{"unknown llm key", strings.Replace(testPlan, "model: y}", "model: y, temprature: 1}", 1), "field temprature not found"},
		{"unknown pipeline key", strings.Replace(testPlan, "{strategy: full}", "{strategy: fll}", 1), `strategy "fll"`},
		{"exclude typo", testPlan + "exclude: [d1/m1+p3]\n", "is not a cell"},
		{"plus in a name", strings.Replace(testPlan, "  p1:", "  p+1:", 1), "a name is"},
		{"endpoint unused", testPlan + "endpoints: {http://other/v1: {concurrency: 1}}\n", "no model calls it"},
		{"no model", strings.Replace(testPlan, "model: y}", "api_key_env: K}", 1), "llm.model is required"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMatrixPlan([]byte(tt.plan), "/plans")
			if !errors.Is(err, ErrBadPlan) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v; want ErrBadPlan with %q", err, tt.want)
			}
		})
	}
}

func TestMatrixInputHash(t *testing.T) {
	base, err := ParseMatrixPlan([]byte(testPlan), "/plans")
	if err != nil {
		t.Fatal(err)
	}
	cell := func(p *MatrixPlan, name string) PlanCell {
		for _, c := range p.Cells {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no cell %s", name)
		return PlanCell{}
	}
	h0 := base.InputHash(cell(base, "d1/m1+p1"), "q", "")
	tests := []struct {
		name, from, to string
		same           bool
	}{
		{"pricing", "pricing: {input: 1, output: 2}", "pricing: {input: 9, output: 9}", true},
		{"concurrency", "concurrency: 2", "concurrency: 7", true},
		{"another model's change", "model: y}", "model: z}", true},
		{"model", "model: x,", "model: x2,", false},
		{"pipeline", "{schema_selection: {strategy: full}}", "{schema_selection: {strategy: llm}}", false},
		{"db_root", "db_root: dbs", "db_root: dbs2", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseMatrixPlan([]byte(strings.Replace(testPlan, tt.from, tt.to, 1)), "/plans")
			if err != nil {
				t.Fatal(err)
			}
			if same := p.InputHash(cell(p, "d1/m1+p1"), "q", "") == h0; same != tt.same {
				t.Errorf("hash unchanged %v, want %v", same, tt.same)
			}
		})
	}
	if base.InputHash(cell(base, "d1/m1+p1"), "q2", "") == h0 {
		t.Error("another question file gave the same hash")
	}
	if s := cell(base, "d1/S"); base.InputHash(s, "q", "a") == base.InputHash(s, "q", "b") {
		t.Error("another prediction file gave the same hash")
	}
}

// cellRun builds a judged run of one system whose question i is correct when ok(i).
func cellRun(system string, n int, ok func(int) bool, tokens int) *rundir.Run {
	recs := make([]record.Record, n)
	for i := range recs {
		recs[i] = record.Record{Index: i, Verdict: record.Incorrect}
		recs[i].Usage = record.Usage{PromptTokens: tokens, CompletionTokens: 10, TotalTokens: tokens + 10, LLMCalls: 1, LatencyMS: 100}
		if ok(i) {
			recs[i].Verdict, recs[i].ExBird = record.Correct, 1
		}
	}
	sys := []metrics.SystemRecords{{Name: system, Records: recs}}
	r := &rundir.Run{Systems: []rundir.SystemRun{{Name: system, Records: recs}}}
	r.Summary.Metrics = metrics.Aggregate(metrics.Declared(metrics.Options{}), sys)
	return r
}

func TestMatrixSummary(t *testing.T) {
	p, err := ParseMatrixPlan([]byte(testPlan), "/plans")
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	right := map[string]func(int) bool{
		"d1/m1+p1": func(i int) bool { return i < 10 },
		"d1/m1+p2": func(i int) bool { return i < 30 },
		"d1/m2+p1": func(i int) bool { return i < 12 },
		"d1/m2+p2": func(i int) bool { return i < 31 },
		"d1/S":     func(i int) bool { return i%2 == 0 },
	}
	var cells []MatrixCellRun
	for _, c := range p.Cells {
		cr := MatrixCellRun{Cell: c}
		if f, ok := right[c.Name]; ok {
			cr.Run = cellRun(c.EvalName(), n, f, 90)
		}
		cells = append(cells, cr)
	}
	s, err := MatrixSummary(p, cells, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cells) != 5 || len(s.Missing) != 4 {
		t.Fatalf("%d cells, %d missing; want 5 and 4 (d2 not run)", len(s.Cells), len(s.Missing))
	}
	var pipe *rundir.MarginalPair
	for i := range s.Pairs {
		if s.Pairs[i].Dataset == "d1" && s.Pairs[i].Factor == "pipeline" {
			pipe = &s.Pairs[i]
		}
	}
	// p1 vs p2 paired over both models: 80 pairs, p2 alone right on 20 + 19.
	if pipe == nil || pipe.N != 80 || pipe.AOnly != 0 || pipe.BOnly != 39 || pipe.P >= 0.0001 {
		t.Errorf("pipeline test %+v", pipe)
	}
	for _, m := range s.Marginals {
		if m.Dataset == "d1" && m.Factor == "pipeline" && m.Level == "p1" && (m.Cells != 2 || m.Mean != (10.0+12.0)/2/n) {
			t.Errorf("p1 marginal %+v", m)
		}
	}
	// Best: m2+p2 (31) over m1+p2 (30), one question apart: not significant.
	if len(s.Best) != 1 || s.Best[0].Best != "d1/m2+p2" || s.Best[0].RunnerUp != "d1/m1+p2" || s.Best[0].Significant || s.Best[0].N != n {
		t.Errorf("best %+v", s.Best)
	}
	for _, c := range s.Cells {
		switch c.Name {
		case "d1/m1+p1": // priced: $1 and $2 per 1M prompt and completion tokens
			want := (40*90*1.0*(0.5+0.5*0) + 40*10*2.0) / 1e6 / 10
			if c.CostPerCorrect == nil || c.Correct != 10 || *c.LatencyPerCorrectMS != 400 {
				t.Errorf("m1+p1: %+v", c)
			} else if got := *c.CostPerCorrect; got <= 0 || got > 2*want {
				t.Errorf("m1+p1 cost per correct %v, about %v expected", got, want)
			}
		case "d1/m2+p1", "d1/S":
			if c.CostPerCorrect != nil {
				t.Errorf("%s has a cost without pricing: %v", c.Name, *c.CostPerCorrect)
			}
		}
	}
}

// TestMatrixLimitsInInputHash: eval's default limits leave a cell's input hash as it was
// before matrix took --timeout/--max-rows (a matrix run then keeps its cells); any other
// timeout or row cap gives another hash, so those cells are judged again.
func TestMatrixLimitsInInputHash(t *testing.T) {
	const h = "0f00"
	def := withLimits(h, engine.DefaultTimeout, engine.DefaultMaxRows)
	if def != h {
		t.Errorf("the default limits changed the hash: %s", def)
	}
	seen := map[string]bool{def: true}
	for _, l := range []struct {
		timeout time.Duration
		rows    int
	}{{engine.DefaultTimeout + time.Second, engine.DefaultMaxRows}, {engine.DefaultTimeout, engine.DefaultMaxRows - 1}, {time.Second, 10}} {
		got := withLimits(h, l.timeout, l.rows)
		if seen[got] {
			t.Errorf("limits %s/%d: hash %s is another's", l.timeout, l.rows, got)
		}
		seen[got] = true
	}
}

// TestMatrixPlanHostile: a plan naming a billion cells in a few kilobytes is refused
// before any cell is built, naming the count; a YAML alias bomb is refused by the
// decoder; both in bounded time and memory.
func TestMatrixPlanHostile(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("datasets:\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "  d%d: {dataset: jsonl:q.jsonl}\n", i)
	}
	b.WriteString("models:\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "  m%d: {base_url: http://x/v1, model: y}\n", i)
	}
	b.WriteString("pipelines:\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "  p%d: {schema_selection: {strategy: full}}\n", i)
	}
	start := time.Now()
	_, err := ParseMatrixPlan([]byte(b.String()), "/plans")
	if !errors.Is(err, ErrBadPlan) || !strings.Contains(err.Error(), "more than 10000 cells") {
		t.Errorf("a billion-cell plan: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("refused after %v", d)
	}
	// 10 levels of 10 aliases: 10^10 nodes if expanded.
	bomb := "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i <= 10; i++ {
		bomb += fmt.Sprintf("a%d: &a%d [", i, i) + strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", ") + "]\n"
	}
	if _, err := ParseMatrixPlan([]byte(bomb+"datasets: {d: {dataset: jsonl:q}}\n"), "/plans"); !errors.Is(err, ErrBadPlan) {
		t.Errorf("an alias bomb: %v", err)
	}
}
