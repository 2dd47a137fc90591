package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

// WriteAuditCoverage prints how an audit's findings meet the corrected golds of the
// corrections file at path (audit --corrections).
func WriteAuditCoverage(w io.Writer, c audit.Coverage, ds *dataset.Dataset, path string) error {
	label := func(i int) string {
		if i >= 0 && i < len(ds.Questions) {
			return QuestionLabel(i, ds.Questions[i].ID)
		}
		return fmt.Sprintf("#%d ?", i)
	}
	fmt.Fprintf(w, "corrections %s: %d corrected golds audited (%d without a database); the audit flags %d, misses %d; %d other questions have gold findings\n",
		path, c.Corrected, c.Skipped, len(c.Flagged), len(c.Missed), c.Elsewhere)
	var flagged []int
	for i := range c.Flagged {
		flagged = append(flagged, i)
	}
	sort.Ints(flagged)
	for _, i := range flagged {
		fmt.Fprintf(w, "  flagged %s: %s\n", label(i), strings.Join(c.Flagged[i], ", "))
	}
	var missed []string
	for _, i := range c.Missed {
		missed = append(missed, label(i))
	}
	if len(missed) > 0 {
		fmt.Fprintf(w, "  missed: %s\n", strings.Join(missed, ", "))
	}
	return nil
}

// WriteAudit prints an audit's counts per check and its first findings; path is
// audit.jsonl's as written, abs the same made absolute.
func WriteAudit(w io.Writer, res *audit.Result, path, abs string, took time.Duration) error {
	counts := res.Counts()
	fmt.Fprintf(w, "audit: %d questions audited (%d without a database), %d predictions judged correct checked, %d findings in %.1fs\n",
		res.Audited, res.Skipped, res.Predictions, len(res.Findings), took.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "check\tgold\tpredictions\t\n")
	for _, c := range audit.AllChecks {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", c, counts[audit.CountKey(c, audit.TargetGold)], counts[audit.CountKey(c, audit.TargetPrediction)])
	}
	tw.Flush()
	for i, f := range res.Findings {
		if i == 10 {
			fmt.Fprintf(w, "... %d more in %s\n", len(res.Findings)-10, path)
			break
		}
		who := f.Target
		if f.System != "" {
			who += " " + f.System
		}
		fmt.Fprintf(w, "%s %s [%s, %s]: %s\n", QuestionLabel(f.Index, f.QuestionID), f.DBID, f.Check, who, clipEvidence(f.Evidence, 300))
	}
	_, err := fmt.Fprintf(w, "findings: %s\n", abs)
	return err
}

func clipEvidence(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
