package audit

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// Checks, as audit.jsonl names them.
const (
	CheckLimitTie    = "limit_tie"
	CheckNullsFirst  = "nulls_first"
	CheckTextNumber  = "text_number"
	CheckReverseScan = "reverse_scan"
	CheckGoldError   = "gold_error"
	CheckGoldEmpty   = "gold_empty"
	CheckGoldAllNull = "gold_all_null"
	CheckIDForName   = "id_for_name"
	CheckConsensus   = "consensus"
	CheckAllDiffer   = "all_differ"
	CheckSentinel    = "sentinel_value"
	CheckPartial     = "partial_answer"
	CheckRatioScope  = "ratio_scope"
	// Tasks on a database copy (livesql:, tasks.go).
	CheckPreprocessError = "preprocess_error"
	CheckDistinctOn      = "distinct_on_stripped"
	CheckNowOnFixedData  = "now_on_fixed_data"
)

// Confidences: how likely a finding is a real gold problem (docs/audit.md gives each
// check's false-positive risk).
const (
	High   = "high"
	Medium = "medium"
	Low    = "low"
)

// checkConfidence is each check's confidence unless its finding sets its own.
var checkConfidence = map[string]string{
	CheckLimitTie: High, CheckNullsFirst: High, CheckTextNumber: Medium, CheckReverseScan: High,
	CheckGoldError: High, CheckGoldEmpty: Medium, CheckGoldAllNull: Medium, CheckIDForName: Low,
	CheckConsensus: High, CheckAllDiffer: Low, CheckSentinel: Medium, CheckPartial: Low, CheckRatioScope: Medium,
	CheckPreprocessError: High, CheckDistinctOn: High, CheckNowOnFixedData: Medium,
}

// AllChecks lists the checks in report order.
var AllChecks = []string{CheckLimitTie, CheckNullsFirst, CheckTextNumber, CheckReverseScan,
	CheckGoldError, CheckGoldEmpty, CheckGoldAllNull, CheckIDForName, CheckSentinel, CheckPartial,
	CheckRatioScope, CheckConsensus, CheckAllDiffer, CheckPreprocessError, CheckDistinctOn, CheckNowOnFixedData}

// probeRows caps the rows a key probe reads when the query has no LIMIT.
const probeRows = 100_000

// tieSlack is how many rows past a LIMIT the tie probe reads, to count the tied rows.
const tieSlack = 200

// querier runs one read-only query: the engine's SQLite path.
type querier interface {
	Query(ctx context.Context, path, query string, lim engine.Limits) (*engine.Result, error)
}

var _ querier = (*engine.SQLite)(nil)

// finding is a check's result before it is placed on a question.
type finding struct {
	check, evidence string
	heuristic       bool
	confidence      string // "": the check's (checkConfidence)
}

// orderChecks runs the order-dependence checks on one query: the key probe (ties at
// the LIMIT, NULLs first, numbers as text) and the reverse scan.
func orderChecks(ctx context.Context, q querier, path, sql string, lim engine.Limits, plain *engine.Result) ([]finding, error) {
	var out []finding
	sh := analyse(sql)
	if sh.Probe {
		fs, err := keyChecks(ctx, q, path, sql, sh, lim)
		if err != nil {
			return out, err
		}
		out = append(out, fs...)
	}
	rev := lim
	rev.ReverseUnordered = true
	rres, err := q.Query(ctx, path, sql, rev)
	if err != nil {
		return out, fmt.Errorf("reverse scan: %w", err)
	}
	// Boxed: the rows are keyed by rowText anyway (see consensus).
	if d := bagDiff(plain.BoxedRows(), rres.BoxedRows()); d != "" {
		out = append(out, finding{check: CheckReverseScan, evidence: "the result changes when SQLite scans tables backwards (PRAGMA reverse_unordered_selects = 1): " + d})
	}
	return out, nil
}

func keyList(ks []orderKey) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, k.Text)
	}
	return strings.Join(parts, ", ")
}

// keyChecks reads the query's rows with its ORDER BY keys appended.
func keyChecks(ctx context.Context, q querier, path, sql string, sh shape, lim engine.Limits) ([]finding, error) {
	nk := len(sh.Keys)
	probe, _ := keyProbe(sql, sh, -1)
	plim := lim
	plim.MaxRows = probeRows
	res, err := q.Query(ctx, path, probe, plim)
	if err != nil && sh.HasLimit && (errors.Is(err, engine.ErrRowLimit) || errors.Is(err, engine.ErrByteLimit)) {
		probe, _ = keyProbe(sql, sh, sh.Offset+sh.Limit+tieSlack)
		res, err = q.Query(ctx, path, probe, lim)
	}
	if err != nil {
		// The rewrite can fail where the query does not (a key naming an alias of an
		// outer query, ...): no evidence either way, so no finding.
		return nil, nil
	}
	if len(res.Columns) < nk {
		return nil, nil
	}
	ncol := len(res.Columns) - nk
	keys := func(r []any) []any { return r[ncol:] }
	sel := func(r []any) []any { return r[:ncol] }
	var out []finding
	rows := res.BoxedRows() // keyed by rowText anyway: see consensus
	if sh.HasLimit && sh.Limit >= 0 {
		out = append(out, limitTie(rows, sh, keys, sel)...)
		out = append(out, nullsFirst(rows, sh, keys)...)
	}
	out = append(out, textNumbers(rows, sh, keys)...)
	return out, nil
}

// limitTie: the row a LIMIT keeps last and the row it cuts first have equal keys, and
// the tied rows do not all read the same in the selected columns (so the answer depends
// on which the engine happens to keep).
func limitTie(rows [][]any, sh shape, keys, sel func([]any) []any) []finding {
	var out []finding
	check := func(boundary int, what string) {
		if boundary <= 0 || boundary >= len(rows) {
			return
		}
		k := rowText(keys(rows[boundary-1]))
		if rowText(keys(rows[boundary])) != k {
			return
		}
		lo, hi := boundary-1, boundary
		for lo > 0 && rowText(keys(rows[lo-1])) == k {
			lo--
		}
		for hi+1 < len(rows) && rowText(keys(rows[hi+1])) == k {
			hi++
		}
		distinct := map[string]bool{}
		for i := lo; i <= hi; i++ {
			distinct[rowText(sel(rows[i]))] = true
		}
		if len(distinct) < 2 {
			return // the tied rows read the same: the answer does not depend on the choice
		}
		kept := min(boundary, sh.Offset+sh.Limit) - max(lo, sh.Offset)
		if what == "OFFSET" {
			kept = hi + 1 - boundary
		}
		more := ""
		if hi == len(rows)-1 && len(rows) > sh.Offset+sh.Limit+tieSlack-1 {
			more = " or more"
		}
		out = append(out, finding{check: CheckLimitTie, evidence: fmt.Sprintf("%s cuts through a tie: %d%s rows share ORDER BY %s = %s, %d of them kept; e.g. kept %s, cut %s",
			limitText(sh), hi-lo+1, more, keyList(sh.Keys), k, kept, rowText(sel(rows[boundary-1])), rowText(sel(rows[boundary])))})
	}
	check(sh.Offset+sh.Limit, "LIMIT")
	if sh.Offset > 0 {
		check(sh.Offset, "OFFSET")
	}
	return out
}

func limitText(sh shape) string {
	if sh.Offset > 0 {
		return fmt.Sprintf("LIMIT %d OFFSET %d", sh.Limit, sh.Offset)
	}
	return fmt.Sprintf("LIMIT %d", sh.Limit)
}

// nullsFirst: a key whose NULLs SQLite sorts first (ASC without NULLS LAST) is NULL in a
// row the LIMIT keeps, ahead of rows with a value.
func nullsFirst(rows [][]any, sh shape, keys func([]any) []any) []finding {
	var out []finding
	end := min(len(rows), sh.Offset+sh.Limit)
	for ki, k := range sh.Keys {
		if !k.NullsFirst {
			continue
		}
		kept, total := 0, 0
		for i, r := range rows {
			if keys(r)[ki] == nil {
				total++
				if i >= sh.Offset && i < end {
					kept++
				}
			}
		}
		if kept > 0 && total < len(rows) {
			dir := "ASC"
			if k.Desc {
				dir = "DESC NULLS FIRST"
			}
			out = append(out, finding{check: CheckNullsFirst, evidence: fmt.Sprintf("ORDER BY %s %s sorts NULLs first: %d of the %d rows %s keeps have %s NULL (%d of %d rows in all)",
				k.Text, dir, kept, end-min(sh.Offset, end), limitText(sh), k.Text, total, len(rows))})
		}
	}
	return out
}

var numberText = regexp.MustCompile(`^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$`)

// textNumbers: a key holds text that reads as numbers and sorts differently as text
// than as numbers.
func textNumbers(rows [][]any, sh shape, keys func([]any) []any) []finding {
	var out []finding
	for ki, k := range sh.Keys {
		var texts []string
		seen := map[string]bool{}
		numeric := true
		for _, r := range rows {
			s, ok := keys(r)[ki].(string)
			if !ok {
				if keys(r)[ki] != nil {
					numeric = false // a number among the texts: mixed storage
				}
				continue
			}
			if !numberText.MatchString(s) {
				numeric = false
				break
			}
			if !seen[s] {
				seen[s] = true
				texts = append(texts, s)
			}
		}
		if !numeric || len(texts) < 2 {
			continue
		}
		a, b, found := misordered(texts)
		if !found {
			continue
		}
		lim := "no LIMIT: the row order changes"
		if sh.HasLimit {
			lim = limitText(sh) + " keeps rows by the text order"
		}
		out = append(out, finding{check: CheckTextNumber, evidence: fmt.Sprintf("ORDER BY %s holds numbers stored as text (%d distinct values): as text '%s' sorts before '%s', as numbers after; %s",
			k.Text, len(texts), a, b, lim)})
	}
	return out
}

// misordered finds two values whose text order and numeric order disagree.
func misordered(texts []string) (string, string, bool) {
	sort.Strings(texts)
	for i := 0; i+1 < len(texts); i++ {
		for j := i + 1; j < len(texts) && j < i+50; j++ {
			x, _ := strconv.ParseFloat(strings.TrimSpace(texts[i]), 64)
			y, _ := strconv.ParseFloat(strings.TrimSpace(texts[j]), 64)
			if x > y {
				return texts[i], texts[j], true
			}
		}
	}
	return "", "", false
}

// rowText prints a row for evidence and comparison.
func rowText(r []any) string {
	parts := make([]string, len(r))
	for i, v := range r {
		switch x := v.(type) {
		case nil:
			parts[i] = "NULL"
		case string:
			parts[i] = strconv.Quote(x)
		case []byte:
			parts[i] = fmt.Sprintf("x'%x'", x)
		default:
			parts[i] = fmt.Sprint(x)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// bagDiff compares two results as bags of rows; "" when equal, else what differs.
func bagDiff(a, b [][]any) string {
	count := map[string]int{}
	for _, r := range a {
		count[rowText(r)]++
	}
	for _, r := range b {
		count[rowText(r)]--
	}
	var onlyA, onlyB []string
	for k, n := range count {
		for ; n > 0; n-- {
			onlyA = append(onlyA, k)
		}
		for ; n < 0; n++ {
			onlyB = append(onlyB, k)
		}
	}
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return ""
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	return fmt.Sprintf("%d of %d rows differ; only in the normal scan: %s; only in the reversed: %s", len(onlyA), len(a), sample(onlyA), sample(onlyB))
}

func sample(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	if len(xs) > 3 {
		return strings.Join(xs[:3], " ") + fmt.Sprintf(" ... (%d more)", len(xs)-3)
	}
	return strings.Join(xs, " ")
}

// resultChecks looks at a gold's own result: no rows, or only NULLs.
func resultChecks(res *engine.Result) []finding {
	if res.NumRows() == 0 {
		return []finding{{check: CheckGoldEmpty, evidence: fmt.Sprintf("the gold returns no rows (columns %s)", strings.Join(res.Columns, ", "))}}
	}
	for rowI := range res.NumRows() {
		r := res.Row(rowI)
		for _, v := range r {
			if v != nil {
				return nil
			}
		}
	}
	return []finding{{check: CheckGoldAllNull, evidence: fmt.Sprintf("every value of the gold's %d row(s) is NULL (columns %s)", res.NumRows(), strings.Join(res.Columns, ", "))}}
}

var (
	asksName = regexp.MustCompile(`(?i)\b(names?|titles?|called)\b|^\W*(who|whom)\b`)
	asksID   = regexp.MustCompile(`(?i)\b(ids?|identifiers?)\b`)
	camelID  = regexp.MustCompile(`[a-z](ID|Id)$`)
	nameCol  = regexp.MustCompile(`(?i)name|title`)
)

// idForName is a heuristic: the question asks for names (name, title, called, or starts
// with who) and does not mention ids, and every column the gold returns looks like an id
// (its name ends in id) holding integers.
func idForName(question string, res *engine.Result) []finding {
	m := strings.TrimSpace(strings.Trim(asksName.FindString(question), " \t\"'¿"))
	if m == "" || asksID.MatchString(question) || len(res.Columns) == 0 || res.NumRows() == 0 {
		return nil
	}
	for _, c := range res.Columns {
		if nameCol.MatchString(c) || !idLike(c) {
			return nil
		}
	}
	for rowI := range res.NumRows() {
		r := res.Row(rowI)
		for _, v := range r {
			if _, ok := v.(int64); !ok && v != nil {
				return nil
			}
		}
	}
	return []finding{{check: CheckIDForName, heuristic: true, evidence: fmt.Sprintf("heuristic: the question says %q but the gold returns only id-like integer columns (%s), e.g. %s",
		m, strings.Join(res.Columns, ", "), rowText(res.Row(0)))}}
}

// idLike: "id", "x_id", "t.id", "x id", or camel case "CustomerID", "userId".
func idLike(col string) bool {
	l := strings.ToLower(col)
	return l == "id" || strings.HasSuffix(l, "_id") || strings.HasSuffix(l, ".id") || strings.HasSuffix(l, " id") || camelID.MatchString(col)
}
