package judge

import (
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
)

// Reasons the two modes disagree, as the report prints them. Each names the
// evaluate.py rule that decides the official verdict.
const (
	WhyNullAsZero   = "NULL read as 0 (evaluate.py normalises NaN to 0; issue #157)"
	WhyStrSort      = "string sort defeats the tolerance (values sorted by str(x); issue #225)"
	WhyCondCols     = "condition_cols rule (one-variant flat list uses only its first entry, or a nested list shorter than the variants)"
	WhyRelTol       = "relative tolerance (strict accepts 1e-6 of the magnitude; evaluate.py only 0.01 absolute)"
	WhyBoolNumber   = "bool compared with a number (evaluate.py: True == 1)"
	WhyColumnwise   = "columns matched one by one (each column sorted on its own, a prediction column may serve several gold columns; issues #200, #226)"
	WhyTypes        = "types differ (evaluate.py compares pandas' per-column types: an int 0 for NaN is not the str '0')"
	WhyUnclassified = "the modes' rules differ"
)

// spider2Why names the evaluate.py rules whose fix alone turns the official verdict into
// the strict one; when none does, the structural difference (columns one by one against
// rows as rows).
func spider2Why(suite string, t *dataset.Spider2Task, pred *pandascsv.Frame, golds []Spider2Gold, v Spider2Verdict) string {
	var why []string
	for _, c := range []struct {
		q    spider2Quirks
		text string
	}{
		{spider2Quirks{keepNull: true}, WhyNullAsZero},
		{spider2Quirks{numericSort: true}, WhyStrSort},
		{spider2Quirks{fixCondCols: true}, WhyCondCols},
		{spider2Quirks{relTol: true}, WhyRelTol},
	} {
		if spider2Official(suite, t, pred, golds, c.q).Score == v.Strict.Score {
			why = append(why, c.text)
		}
	}
	if len(why) == 0 && v.Strict.Score == 0 && spider2Strict(t, pred, golds, strictOptions{boolAsInt: true}).Score == 1 {
		why = append(why, WhyBoolNumber)
	}
	if len(why) == 0 {
		switch v.Official.Score {
		case 1:
			why = append(why, WhyColumnwise)
		default:
			why = append(why, WhyTypes)
		}
	}
	return strings.Join(why, "; ")
}
