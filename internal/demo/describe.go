package demo

import "time"

// What the demo's command tells a newcomer about the data: what each made-up system does
// (read from its file in data/systems/) and which questions are broken on purpose. Keep
// these in step with the data: describe_test.go checks that every system has a line and
// that the broken questions are the ones the data breaks.

// SystemNotes says in a few words what each demo system's file holds, by system name.
var SystemNotes = map[string]string{
	"baseline":  "one SQL per question from one LLM call (flat records with token counts)",
	"reviser":   "selects a schema, writes one candidate SQL, then a revision step rewrites some; the revised SQL is judged",
	"sampler-5": "selects a schema and samples 5 candidate SQLs per question; the first is judged, Pass@k looks at all 5",
}

// Broken is a demo question that cannot be judged on purpose, to show a verdict.
type Broken struct {
	QuestionID string
	Verdict    string // the verdict every system gets: skipped or gold_error
	Why        string
}

// Deliberate are the demo's questions broken on purpose; every score leaves them out.
var Deliberate = []Broken{
	{QuestionID: "arc-001", Verdict: "skipped", Why: "database not shipped"},
	{QuestionID: "lib-021", Verdict: "gold_error", Why: "gold SQL names a missing column"},
}

// The demo's limits are small so that its runaway query and its oversized result show
// their verdicts in a second rather than in 30. Timeout is a variable only for tests: a
// test binary that runs the demo many times lowers it (each demo run spends Timeout of
// CPU on each of its three runaway queries).
var Timeout = time.Second

// MaxRows is the demo's row cap.
const MaxRows = 10_000

// Pricing prices the demo's token counts so its cost columns and cost/accuracy chart
// have data: illustrative prices, $ per 1M tokens, not any provider's current list.
// PricingName names them wherever cost is shown ("cost $ = tokens priced with ...").
const (
	Pricing = `
cache_hit_share: 0.5
default_model: demo-model
models:
  demo-model: {input: 0.15, cached_input: 0.075, output: 0.60}
`
	PricingName = "the demo's made-up prices ($ per 1M tokens: 0.15 input, 0.075 cached input, 0.60 output)"
)
