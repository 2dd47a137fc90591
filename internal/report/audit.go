package report

import (
	"fmt"
	"strconv"

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
		Caption: "From audit.jsonl (docs/audit.md). gold: the dataset's gold SQL; predictions: predictions judged correct whose answer depends on row order. id_for_name is a heuristic.",
		Head:    []string{"check", "gold", "predictions"}}
	for _, ch := range audit.AllChecks {
		c.Rows = append(c.Rows, []string{ch, strconv.Itoa(counts[audit.CountKey(ch, audit.TargetGold)]), strconv.Itoa(counts[audit.CountKey(ch, audit.TargetPrediction)])})
	}
	out := []TextTable{c}
	if len(run.Audit) == 0 {
		return out
	}
	l := TextTable{Title: "Gold audit: findings", Head: []string{"#", "question", "database", "check", "query", "evidence"}}
	for i, f := range run.Audit {
		if i == auditShown {
			l.Caption = fmt.Sprintf("First %d of %d findings; every one is in audit.jsonl.", auditShown, len(run.Audit))
			break
		}
		who := f.Target
		if f.System != "" {
			who += " " + f.System
		}
		l.Rows = append(l.Rows, []string{strconv.Itoa(f.Index), f.QuestionID, f.DBID, f.Check, who, f.Evidence})
	}
	return append(out, l)
}

// attachAudit puts each question's findings beside it in the drill-down.
func attachAudit(run *rundir.Run, qs []QuestionView) {
	by := map[int][]KV{}
	for _, f := range run.Audit {
		k := f.Check
		if f.Target == audit.TargetPrediction {
			k += " (prediction " + f.System + ")"
		}
		by[f.Index] = append(by[f.Index], KV{Key: k, Value: f.Evidence})
	}
	for i := range qs {
		qs[i].Audit = by[qs[i].Index]
	}
}

// KV is one key and its value as text (an audit finding beside its question).
type KV struct{ Key, Value string }
