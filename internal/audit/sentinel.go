package audit

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// sentinelMinShare is the smallest share of rows a placeholder must hold to count: one
// odd row in a large table is noise, not a convention for "missing".
const sentinelMinShare = 0.005

// placeholderTexts are texts that stand for a missing value (compared trimmed, lower case).
var placeholderTexts = []string{"", "n/a", "na", "none", "null", "unknown", "-", "?", "nan"}

// sentinel is a placeholder a column holds: an SQL condition true on it, and a phrase.
type sentinel struct {
	cond, what string
	rows       int
}

// sentinelValues: the gold aggregates, compares or orders by a column whose data holds a
// placeholder for missing (0 or -1 in an otherwise positive column, 'N/A'-like texts,
// far-off dates), and its result changes when the rows holding it are left out.
func sentinelValues(ctx context.Context, q querier, path, gold string, lim engine.Limits, gres *engine.Result) ([]finding, error) {
	refs := valueRefs(gold)
	if len(refs) == 0 {
		return nil, nil
	}
	tables := tableRefs(lex(gold))
	goldKey := setKey(gres.BoxedRows())
	var out []finding
	done := map[string]bool{}
	hasLimit := analyse(gold).HasLimit
	for _, r := range refs {
		if r.how == "ORDER BY" && !hasLimit {
			continue // without a LIMIT the placeholder rows only sort to one end
		}
		table, err := refTable(ctx, q, path, tables, r, lim)
		if err != nil {
			return nil, err
		}
		if table == "" || done[strings.ToLower(r.text)] {
			continue
		}
		done[strings.ToLower(r.text)] = true
		ss, total, err := columnSentinels(ctx, q, path, table, r.col, lim)
		if err != nil {
			return nil, err
		}
		for _, s := range ss {
			cond := strings.ReplaceAll(s.cond, "{c}", r.text)
			probe, ok := withoutSentinel(gold, r, cond)
			if !ok {
				continue
			}
			res, err := q.Query(ctx, path, probe, lim)
			if err != nil {
				if fault(ctx, err) {
					return nil, err
				}
				continue // the rewrite fails where the gold does not: no evidence
			}
			rows := res.BoxedRows()
			if setKey(rows) == goldKey || !changesRef(gold, r, gres.BoxedRows(), rows) {
				continue
			}
			out = append(out, finding{check: CheckSentinel, evidence: fmt.Sprintf("%s.%s holds %s in %d of %d rows (%.1f%%), a placeholder for a missing value; the gold uses it in %s; without them %s",
				table, r.col, s.what, s.rows, total, 100*float64(s.rows)/float64(total), r.how, resultChange(gres.BoxedRows(), rows))})
		}
	}
	return out, nil
}

// refTable finds the table a column reference reads: its qualifier's table, or the one
// table of the query that has the column. "" when unknown or ambiguous.
func refTable(ctx context.Context, q querier, path string, tables map[string]string, r colRef, lim engine.Limits) (string, error) {
	if r.qual != "" {
		return tables[strings.ToLower(r.qual)], nil
	}
	var names []string
	seen := map[string]bool{}
	for _, t := range tables {
		if !seen[strings.ToLower(t)] {
			seen[strings.ToLower(t)] = true
			names = append(names, t)
		}
	}
	sort.Strings(names)
	found := ""
	for _, t := range names {
		res, err := q.Query(ctx, path, "SELECT 1 FROM pragma_table_info("+sqlscan.QuoteString(t)+") WHERE lower(name) = lower("+sqlscan.QuoteString(r.col)+")", lim)
		if err != nil {
			if fault(ctx, err) {
				return "", err
			}
			continue
		}
		if res.NumRows() > 0 {
			if found != "" {
				return "", nil
			}
			found = t
		}
	}
	return found, nil
}

// columnSentinels reads a column's placeholders and its row count.
func columnSentinels(ctx context.Context, q querier, path, table, col string, lim engine.Limits) ([]sentinel, int, error) {
	c, t := sqlscan.QuoteIdent(col), sqlscan.QuoteIdent(table)
	num := "typeof(" + c + ") IN ('integer', 'real')"
	var ph []string
	for _, p := range placeholderTexts {
		ph = append(ph, sqlscan.QuoteString(p))
	}
	phList := strings.Join(ph, ", ")
	date := "typeof(" + c + ") = 'text' AND " + c + " GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]*'"
	probe := "SELECT count(*)," +
		" total(" + num + " AND " + c + " = 0)," +
		" total(" + num + " AND " + c + " = -1)," +
		" total(" + num + " AND " + c + " > 0)," +
		" total(" + num + " AND " + c + " < 0 AND " + c + " <> -1)," +
		" total(typeof(" + c + ") = 'text' AND lower(trim(" + c + ")) IN (" + phList + "))," +
		" total(typeof(" + c + ") = 'text')," +
		" total(" + date + " AND (substr(" + c + ", 1, 4) < '1901' OR substr(" + c + ", 1, 4) > '2100'))," +
		" total(" + date + ")" +
		" FROM " + t
	res, err := q.Query(ctx, path, probe, lim)
	if err != nil {
		if fault(ctx, err) {
			return nil, 0, err
		}
		return nil, 0, nil
	}
	if res.NumRows() != 1 {
		return nil, 0, nil
	}
	v := make([]int, 9)
	for i, x := range res.Row(0) {
		switch n := x.(type) {
		case int64:
			v[i] = int(n)
		case float64:
			v[i] = int(n)
		}
	}
	total, zero, minus1, pos, neg, phText, text, far, dates := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]
	if total == 0 {
		return nil, 0, nil
	}
	enough := func(n int) bool { return n >= 2 && float64(n) >= sentinelMinShare*float64(total) }
	var out []sentinel
	// 0 or -1 in a column otherwise positive: more real values than placeholders.
	if enough(zero) && neg == 0 && pos > zero {
		out = append(out, sentinel{cond: "{c} = 0", what: "0", rows: zero})
	}
	if enough(minus1) && neg == 0 && pos > minus1 {
		out = append(out, sentinel{cond: "{c} = -1", what: "-1", rows: minus1})
	}
	if enough(phText) && text-phText > phText {
		out = append(out, sentinel{cond: "typeof({c}) = 'text' AND lower(trim({c})) IN (" + phList + ")", what: "placeholder texts ('', 'N/A', 'None', 'unknown', '-', ...)", rows: phText})
	}
	if enough(far) && dates-far > far {
		out = append(out, sentinel{cond: "typeof({c}) = 'text' AND (substr({c}, 1, 4) < '1901' OR substr({c}, 1, 4) > '2100')", what: "far-off dates (before 1901 or after 2100)", rows: far})
	}
	return out, total, nil
}

// withoutSentinel rewrites the gold to leave the placeholder out: inside AVG, MIN, MAX
// and TOTAL the value becomes NULL (the aggregate skips it, nothing else changes); for
// SUM, comparisons and ORDER BY the rows holding it are filtered out (a SUM's placeholder
// matters through the rows a COUNT beside it divides by, #791's SUM(height_cm) / COUNT(id)).
func withoutSentinel(gold string, r colRef, cond string) (string, bool) {
	switch r.how {
	case "AVG", "MIN", "MAX", "TOTAL":
		if r.end <= r.start || r.end > len(gold) {
			return "", false
		}
		return gold[:r.start] + "(CASE WHEN " + cond + " THEN NULL ELSE " + r.text + " END)" + gold[r.end:], true
	}
	return withFilter(gold, "coalesce(NOT ("+cond+"), 1)")
}

// changesRef: for a SUM in a one-row result, a column that changed must be one
// whose expression names the column: a filter that only moves another aggregate
// beside it (SUM(population), MAX(gnp) under a filter on gnp) is no evidence.
func changesRef(gold string, r colRef, before, after [][]any) bool {
	if r.how != "SUM" || len(before) != 1 || len(after) != 1 || len(before[0]) != len(after[0]) {
		return true
	}
	items := selectItems(gold)
	if len(items) != len(before[0]) {
		return true
	}
	ref := strings.ToLower(r.col)
	for i := range items {
		if rowText(before[0][i:i+1]) != rowText(after[0][i:i+1]) && strings.Contains(items[i], ref) {
			return true
		}
	}
	return false
}

// resultChange says how a result changes: both whole when short, else what differs.
func resultChange(before, after [][]any) string {
	if len(before) <= 3 && len(after) <= 3 {
		return fmt.Sprintf("the result is %s instead of %s", sampleRows(after), sampleRows(before))
	}
	return fmt.Sprintf("the result has %d rows instead of %d; %s", len(after), len(before),
		strings.NewReplacer("only in the normal scan", "only with them", "only in the reversed", "only without them").Replace(bagDiff(before, after)))
}
