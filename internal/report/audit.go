package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The gold audit's section (internal/audit, written by `nl2sqlbench audit` or
// `eval --audit` as DIR/audit.jsonl): the counts per check, the findings, and each
// question's evidence beside it in the drill-down. Rendered from audit.jsonl as it is.

// auditShown caps the findings listed in the reports; audit.jsonl has them all.
const auditShown = 300

// AuditTables are the audit's counts per check and its findings; none without an audit.
func AuditTables(run *rundir.Run) []TextTable {
	if !run.Audited {
		return nil
	}
	counts := map[string]int{}
	for _, f := range run.Audit {
		counts[audit.CountKey(f.Check, f.Target)]++
	}
	c := TextTable{Title: "Gold audit: findings per check",
		Caption: "From audit.jsonl (docs/audit.md). gold: the dataset's gold SQL; predictions: predictions judged correct whose answer depends on row order. Confidence: how likely a finding is a real gold problem (high, medium, low; docs/audit.md gives each check's false-positive risk); id_for_name, partial_answer and part of ratio_scope are heuristics.",
		Head:    []string{"check", "gold", "predictions", "gold by confidence"}}
	for _, ch := range audit.AllChecks {
		c.Rows = append(c.Rows, []string{ch, strconv.Itoa(counts[audit.CountKey(ch, audit.TargetGold)]), strconv.Itoa(counts[audit.CountKey(ch, audit.TargetPrediction)]), byConfidence(run.Audit, ch)})
	}
	out := []TextTable{c}
	if len(run.Audit) == 0 {
		return out
	}
	l := TextTable{Title: "Gold audit: findings", Head: []string{"#", "question", "database", "check", "confidence", "query", "evidence"}}
	for i, f := range run.Audit {
		if i == auditShown {
			l.Caption = fmt.Sprintf("First %d of %d findings; every one is in audit.jsonl.", auditShown, len(run.Audit))
			break
		}
		who := f.Target
		if f.System != "" {
			who += " " + f.System
		}
		l.Rows = append(l.Rows, []string{strconv.Itoa(f.Index), f.QuestionID, f.DBID, f.Check, f.Confidence, who, f.Evidence})
	}
	return append(out, l)
}

// byConfidence counts a check's gold findings by confidence ("2 high, 1 low"); audit.jsonl
// files written before confidences existed count as "unstated".
func byConfidence(fs []audit.Finding, check string) string {
	n := map[string]int{}
	for _, f := range fs {
		if f.Check == check && f.Target == audit.TargetGold {
			c := f.Confidence
			if c == "" {
				c = "unstated"
			}
			n[c]++
		}
	}
	var parts []string
	for _, c := range []string{audit.High, audit.Medium, audit.Low, "unstated"} {
		if n[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[c], c))
		}
	}
	return strings.Join(parts, ", ")
}

// attachAudit puts each question's findings beside it in the drill-down.
func attachAudit(run *rundir.Run, qs []QuestionView) {
	by := map[int][]KV{}
	for _, f := range run.Audit {
		k := f.Check
		if f.Target == audit.TargetPrediction {
			k += " (prediction " + f.System + ")"
		}
		v := f.Evidence
		if f.Confidence != "" {
			v += " (confidence " + f.Confidence + ")"
		}
		by[f.Index] = append(by[f.Index], KV{Key: k, Value: v})
	}
	for i := range qs {
		qs[i].Audit = by[qs[i].Index]
	}
}

// KV is one key and its value as text (an audit finding beside its question).
type KV struct{ Key, Value string }
