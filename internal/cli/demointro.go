package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// demoPricingName names the demo's prices wherever cost is shown ("cost $ = tokens priced
// with ...").
const demoPricingName = "the demo's made-up prices ($ per 1M tokens: 0.15 input, 0.075 cached input, 0.60 output)"

// printDemoIntro says what the demo runs: what each system is, which questions are broken
// on purpose (so their verdicts read as part of the demo, not as breakage) and why the
// limits are small.
func printDemoIntro(w io.Writer, files *demo.Files) {
	fmt.Fprintf(w, "nl2sqlbench demo: %d made-up systems' answers to the demo's questions, judged as eval would (limits: %s per query, %d rows):\n",
		len(files.SystemOrder), demoTimeout, demoMaxRows)
	width := 0
	for _, name := range files.SystemOrder {
		width = max(width, len(name))
	}
	for _, name := range files.SystemOrder {
		fmt.Fprintf(w, "  %-*s  %s\n", width, name, demo.SystemNotes[name])
	}
	var broken []string
	for _, b := range demo.Deliberate {
		broken = append(broken, fmt.Sprintf("%s %s (%s)", b.QuestionID, b.Verdict, b.Why))
	}
	fmt.Fprintf(w, "broken on purpose: %s; no score counts them\n\n", strings.Join(broken, ", "))
}

// warnUnexpected prints the run's warnings unless they are exactly the demo's deliberate
// ones (printDemoIntro announced those): the questions not judged must be those of
// demo.Deliberate, with their verdicts, for every system.
func warnUnexpected(obs benchrun.Observer, res *benchrun.Result) {
	if res == nil || res.Summary == nil {
		return
	}
	want := map[string]string{}
	for _, b := range demo.Deliberate {
		want[b.QuestionID] = b.Verdict
	}
	expected := true
	for _, s := range res.Systems {
		seen := 0
		for i := range s.Records {
			r := &s.Records[i]
			if r.Verdict != record.Skipped && r.Verdict != record.GoldError {
				continue
			}
			seen++
			expected = expected && want[r.QuestionID] == string(r.Verdict)
		}
		expected = expected && seen == len(want)
	}
	if expected {
		return
	}
	for _, w := range res.Summary.Warnings {
		obs.Warn(w)
	}
}
