package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
)

// printDemoIntro says what the demo runs: what each system is, which questions are broken
// on purpose (so their verdicts read as part of the demo, not as breakage) and why the
// limits are small.
func printDemoIntro(w io.Writer, files *demo.Files) {
	fmt.Fprintf(w, "nl2sqlbench demo: %d made-up systems' answers to the demo's questions, judged as eval would (limits: %s per query, %d rows):\n",
		len(files.SystemOrder), demo.Timeout, demo.MaxRows)
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
