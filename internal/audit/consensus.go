package audit

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Loose agreement: systems rarely return the exact same rows (one adds a name column,
// one rounds), so results are compared up to extra columns, column order, rounding and
// duplicates. Bounds keep the column matching small.
const (
	looseMaxRows = 2000 // larger results are compared exactly only
	looseMaxCols = 8
	maxDecimals  = 10 // an unrounded float counts as this many decimals
)

// consensus: most judged systems agree with each other (loosely) on a result that
// differs from the gold's; failing that, all_differ when every judged system differs
// from the gold and none is loosely the gold's answer.
func consensus(ctx context.Context, q querier, path string, gold *engine.Result, recs []*record.Record, opt Options) ([]finding, error) {
	judged, correct := 0, 0
	for _, r := range recs {
		if r != nil && r.Judged() {
			judged++
			if r.Verdict == record.Correct {
				correct++
			}
		}
	}
	if judged < 2 {
		return nil, nil
	}
	goldRows := gold.BoxedRows()
	type ran struct {
		name string
		rows [][]any
	}
	var differ []ran
	nearGold := 0 // judged incorrect, yet loosely the gold's answer
	for si, r := range recs {
		if r == nil || r.Verdict != record.Incorrect {
			continue
		}
		res, err := q.Query(ctx, path, r.PredSQL, opt.Limits)
		if err != nil {
			if fault(ctx, err) {
				return nil, err
			}
			continue
		}
		rows := res.BoxedRows()
		if nothing(rows) {
			// Agreeing on "nothing found" (no rows, a lone 0 or NULL) is how systems fail
			// together on a value spelled otherwise than in the data: no evidence against
			// the gold, so such results form no consensus.
			continue
		}
		if same, _ := agree(rows, goldRows); same {
			nearGold++
			continue
		}
		differ = append(differ, ran{opt.Systems[si].Name, rows})
	}
	// The largest group: a result and every result that agrees with it.
	best, bestExact := []int(nil), false
	for i := range differ {
		group, exact := []int{i}, true
		for j := range differ {
			if j == i {
				continue
			}
			if ok, how := agree(differ[i].rows, differ[j].rows); ok {
				group = append(group, j)
				exact = exact && how == ""
			}
		}
		if len(group) > len(best) || (len(group) == len(best) && exact && !bestExact) {
			best, bestExact = group, exact
		}
	}
	if len(best) >= 2 && 2*len(best) > judged {
		var names []string
		for _, i := range best {
			names = append(names, differ[i].name)
		}
		sort.Strings(names)
		how, conf := "", High
		if !bestExact {
			how, conf = " (up to extra columns, column order, rounding to the shared precision or duplicates)", Medium
		}
		c := differ[best[0]].rows
		return []finding{{check: CheckConsensus, confidence: conf, evidence: fmt.Sprintf("%d of %d judged systems (%s) agree%s on a result different from the gold's: e.g. %s's %s (%d rows), the gold's %s (%d rows)",
			len(best), judged, strings.Join(names, ", "), how, differ[best[0]].name, sampleRows(c), len(c), sampleRows(goldRows), len(goldRows))}}, nil
	}
	if correct == 0 && nearGold == 0 && judged >= 3 {
		largest := 0
		if len(best) > 0 {
			largest = len(best)
		}
		return []finding{{check: CheckAllDiffer, evidence: fmt.Sprintf("none of the %d judged systems matches the gold, even loosely: %d ran and differ from it (the largest group agreeing with each other: %d), %d failed or returned nothing; the gold's %s (%d rows)",
			judged, len(differ), largest, judged-len(differ), sampleRows(goldRows), len(goldRows))}}, nil
	}
	return nil, nil
}

// agree reports whether two results hold the same answer up to extra columns (every
// column of the narrower found in the wider), column order, rounding to the fewer
// decimals of the two, and duplicate rows. how is "" for an exact agreement (as sets of
// rows), else what was loosened.
func agree(a, b [][]any) (ok bool, how string) {
	if setKey(a) == setKey(b) {
		return true, ""
	}
	if len(a) == 0 || len(b) == 0 {
		return false, ""
	}
	na, nb := len(a[0]), len(b[0])
	if na > nb {
		a, b, na, nb = b, a, nb, na
	}
	if na == 0 || nb > looseMaxCols || len(a) > looseMaxRows || len(b) > looseMaxRows {
		return false, ""
	}
	da, db := columnDecimals(a), columnDecimals(b)
	// cand[i]: the columns of b whose distinct values match a's column i.
	cand := make([][]int, na)
	for i := range na {
		for j := range nb {
			d := min(da[i], db[j])
			if columnSet(a, i, d) == columnSet(b, j, d) {
				cand[i] = append(cand[i], j)
			}
		}
		if len(cand[i]) == 0 {
			return false, ""
		}
	}
	used := make([]bool, nb)
	pick := make([]int, na)
	var try func(i int) bool
	try = func(i int) bool {
		if i == na {
			return projectedSet(a, nil, da, db, pick, true) == projectedSet(b, pick, da, db, pick, false)
		}
		for _, j := range cand[i] {
			if !used[j] {
				used[j], pick[i] = true, j
				if try(i + 1) {
					return true
				}
				used[j] = false
			}
		}
		return false
	}
	if !try(0) {
		return false, ""
	}
	return true, "loose"
}

// columnDecimals is, per column, the most decimals its numbers show (-1: no numbers).
func columnDecimals(rows [][]any) []int {
	out := make([]int, len(rows[0]))
	for i := range out {
		out[i] = -1
	}
	for _, r := range rows {
		for i, v := range r {
			if i >= len(out) {
				break
			}
			switch x := v.(type) {
			case int64:
				out[i] = max(out[i], 0)
			case float64:
				s := strconv.FormatFloat(x, 'f', -1, 64)
				d := 0
				if k := strings.IndexByte(s, '.'); k >= 0 {
					d = min(len(s)-k-1, maxDecimals)
				}
				out[i] = max(out[i], d)
			}
		}
	}
	return out
}

// looseValue prints a value with numbers rounded to d decimals (d < 0: as is).
func looseValue(v any, d int) string {
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		return rowText([]any{v})
	}
	if d < 0 {
		d = maxDecimals
	}
	p := math.Pow(10, float64(d))
	return strconv.FormatFloat(math.Round(f*p)/p, 'f', d, 64)
}

func columnSet(rows [][]any, c, d int) string {
	seen := map[string]bool{}
	var ks []string
	for _, r := range rows {
		k := looseValue(r[c], d)
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return strings.Join(ks, "\x00")
}

// projectedSet is the set of rows, a's columns in order (narrow) or b's columns picked
// for them, each pair rounded to the fewer decimals of the two.
func projectedSet(rows [][]any, cols []int, da, db []int, pick []int, narrow bool) string {
	seen := map[string]bool{}
	var ks []string
	for _, r := range rows {
		parts := make([]string, len(pick))
		for i, j := range pick {
			d := min(da[i], db[j])
			if narrow {
				parts[i] = looseValue(r[i], d)
			} else {
				parts[i] = looseValue(r[cols[i]], d)
			}
		}
		k := strings.Join(parts, "\x01")
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return strings.Join(ks, "\x00")
}

// nothing: no rows, or one row of zeros and NULLs.
func nothing(rows [][]any) bool {
	if len(rows) == 0 {
		return true
	}
	if len(rows) > 1 {
		return false
	}
	for _, v := range rows[0] {
		switch x := v.(type) {
		case nil:
		case int64:
			if x != 0 {
				return false
			}
		case float64:
			if x != 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
