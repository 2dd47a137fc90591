package judge

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// FlexVerdict is the outcome of the flexible comparison.
type FlexVerdict string

// The flexible comparison's verdicts; exact and column_flexible both count as correct.
const (
	FlexExact          FlexVerdict = "exact"           // same rows; every prediction column mapped to a gold column
	FlexColumnFlexible FlexVerdict = "column_flexible" // same rows once extra prediction columns are dropped
	FlexFailure        FlexVerdict = "failure"         // a gold column could not be mapped, or the rows differ
)

// FlexResult is FlexCompare's verdict with the column mapping it used.
type FlexResult struct {
	Verdict FlexVerdict
	// Mapping has one entry per gold column: the index of the prediction column mapped
	// to it, or -1 when none could be (or when the prediction reported no columns).
	Mapping []int
	// Reason says briefly why the verdict is a failure; empty otherwise. Column numbers
	// in it are 0-based, like Mapping's.
	Reason string
}

// FlexOptions adjusts FlexCompareWith. The zero value is FlexCompare's behaviour.
type FlexOptions struct {
	// MissingIsNull makes a MISSING cell (engine.Result.Missing) equal to NULL, as in the
	// reference benchmark, whose results travel through CSV files where the two cannot be
	// told apart. By default MISSING equals only MISSING.
	MissingIsNull bool
	// RowsAsSet compares rows as sets, as BIRD's execution accuracy does: duplicates and
	// row counts no longer matter. By default rows are multisets.
	RowsAsSet bool
}

// FlexCompare is the flexible result comparison of Couchbase's NL2SQL++ benchmark (blog
// "A Benchmark for Evaluating NL2SQL++ Systems", section Evaluation Phase; its
// compare_results.py was not found in any public index, so this follows the blog's text,
// and every interpretation is written down here). It is not symmetric: gold's columns
// are the schema the prediction is aligned to. Either result may be nil (empty).
//
// Value normalisation (both sides, every cell):
//   - Text (and BLOBs, taken as their bytes) is trimmed of Unicode white space and
//     lowercased. Text that is then "", "null", "none" or "nan" is NULL: the reference's
//     results pass through CSV and pandas, where these spellings all read as missing.
//     "na" and "n/a" are not NULL (BIRD's toxicology data uses "na" for sodium).
//   - Numbers are compared as numbers, and text that is a decimal number ("1", "-2.50",
//     "1e3"; not hex, not "inf") is a number, as it becomes when read back from CSV. So
//     int 1 == float 1.0 == "1" == " 1.0 ".
//   - Floats are rounded to 6 decimal places half-to-even, x*1e6 rounded then divided,
//     exactly as numpy's round(6) does; a rounded float with no fraction is an integer.
//     So 0.1234561 == 0.1234564, but 0.12345 != 0.12346. NaN is NULL; -0 is 0.
//     Integers are kept exact (no float64 conversion above 2^53).
//   - NULL equals NULL. MISSING (where the engine reports it, engine.Result.Missing)
//     equals only MISSING, never NULL: gold from SQL has no MISSING cells, so an SQL++
//     prediction projecting a field the documents do not have (a misspelt field, say)
//     does not match a gold column of NULLs. FlexOptions.MissingIsNull turns this off.
//
// Column typing: a column is "numeric" when at least 80% of its non-NULL, non-MISSING
// values are numbers, "string" when at least 80% are text, "mixed" otherwise, and
// "empty" when it has no such value (no rows, or all NULL). The "sample" is the whole
// column, not a prefix: a prefix would depend on row order, which the comparison
// otherwise ignores, and every cell is normalised anyway. Two columns are compatible
// only when their types are equal (mixed maps only to mixed, empty only to empty). This
// never refuses a correct mapping: columns holding the same normalised values have the
// same type; and it keeps positional mapping from picking a column that cannot match.
//
// Column mapping, both stages only between compatible columns:
//   - Stage 1: name similarity, names trimmed and lowercased, as the ratio
//     200*LCS/(len(a)+len(b)) over runes, which is rapidfuzz's fuzz.ratio (Indel
//     similarity; python-Levenshtein's ratio is the same). Pairs scoring >= 70 (not
//     rounded: fuzzywuzzy/thefuzz round to an integer, so 69.5 would pass there) are taken
//     best first (ties: lower gold index, then lower prediction index), each column used
//     once.
//   - Stage 2: the gold columns still unmapped, left to right, each take the leftmost
//     unused compatible prediction column.
//
// A gold column left unmapped is a failure. Mapped prediction columns are reordered to
// gold's order (renaming is implicit: names play no further part), unmapped ones dropped.
//
// Rows are compared as multisets of normalised rows: order never matters (as in BIRD's
// execution accuracy, even with ORDER BY), duplicates do (the number of rows must agree,
// as when both frames are sorted and compared; FlexOptions.RowsAsSet gives BIRD's set
// semantics instead). Verdict: exact when the rows match and the prediction has no
// columns beyond the mapped ones (renamed and reordered columns are still exact),
// column_flexible when the rows match after dropping extra prediction columns, failure
// otherwise. A failure's Reason names the first problem found, checked in this order:
// differing row counts, an unmapped gold column, differing rows.
//
// Empty results: two results without rows are compared like any others (the mapping
// must succeed; every column is "empty", so only the column counts matter). A
// prediction with no rows and no columns at all (an SQL++ query returning no documents,
// whose columns come from the documents) matches a gold result without rows: exact.
func FlexCompare(gold, pred *engine.Result) FlexResult {
	return FlexCompareWith(gold, pred, FlexOptions{})
}

// FlexCompareWith is FlexCompare with options.
func FlexCompareWith(gold, pred *engine.Result, opt FlexOptions) FlexResult {
	g := newFlexTable(gold, opt)
	p := newFlexTable(pred, opt)
	mapping := make([]int, len(g.cols))
	for i := range mapping {
		mapping[i] = -1
	}
	if len(p.cols) == 0 && len(p.rows) == 0 {
		if len(g.rows) == 0 {
			return FlexResult{Verdict: FlexExact, Mapping: mapping}
		}
		return FlexResult{Verdict: FlexFailure, Mapping: mapping,
			Reason: fmt.Sprintf("row content differs: gold has %d rows, prediction 0", len(g.rows))}
	}
	mapColumns(g, p, mapping)
	// Row counts first: when they differ no mapping can help, and a column's type may be
	// "empty" only because its side has no rows, which would make a confusing reason.
	if len(g.rows) != len(p.rows) && (!opt.RowsAsSet || len(g.rows) == 0 || len(p.rows) == 0) {
		return FlexResult{Verdict: FlexFailure, Mapping: mapping,
			Reason: fmt.Sprintf("row content differs: gold has %d rows, prediction %d", len(g.rows), len(p.rows))}
	}
	for i, j := range mapping {
		if j < 0 {
			return FlexResult{Verdict: FlexFailure, Mapping: mapping,
				Reason: fmt.Sprintf("gold column %d (%s, %s) has no compatible prediction column", i, g.cols[i].name, g.cols[i].typ)}
		}
	}
	identity := make([]int, len(g.cols))
	for i := range identity {
		identity[i] = i
	}
	if !flexSameRows(g.rowKeys(identity), p.rowKeys(mapping), opt.RowsAsSet) {
		return FlexResult{Verdict: FlexFailure, Mapping: mapping, Reason: "row content differs"}
	}
	if len(p.cols) > len(g.cols) {
		return FlexResult{Verdict: FlexColumnFlexible, Mapping: mapping}
	}
	return FlexResult{Verdict: FlexExact, Mapping: mapping}
}

// flexKind orders the kinds of normalised value; it is the first byte of a cell's key.
type flexKind uint8

const (
	flexNull flexKind = iota
	flexMissing
	flexInt
	flexFloat
	flexText
)

// flexVal is one normalised cell.
type flexVal struct {
	kind flexKind
	i    int64
	f    float64
	s    string
}

type flexType string

const (
	typNumeric flexType = "numeric"
	typString  flexType = "string"
	typMixed   flexType = "mixed"
	typEmpty   flexType = "empty"
)

type flexCol struct {
	name  string
	runes []rune // trimmed, lowercased name, for the similarity ratio
	typ   flexType
}

// flexTable is a result with every cell normalised and every column typed.
type flexTable struct {
	cols []flexCol
	rows [][]flexVal
}

func newFlexTable(res *engine.Result, opt FlexOptions) *flexTable {
	t := &flexTable{}
	if res == nil {
		return t
	}
	n := len(res.Columns)
	t.cols = make([]flexCol, n)
	for c, name := range res.Columns {
		t.cols[c] = flexCol{name: name, runes: []rune(strings.ToLower(strings.TrimSpace(name)))}
	}
	nums := make([]int, n)
	texts := make([]int, n)
	cells := make([]flexVal, res.NumRows()*n) // one backing array for all rows
	t.rows = make([][]flexVal, res.NumRows())
	// The flex comparison works on normalised copies (flexVal) of both results; it is
	// opt-in (--flex) and not on the memory budget of the default metrics.
	for r := range res.NumRows() {
		out := cells[r*n : (r+1)*n : (r+1)*n]
		for c := range out {
			var v any
			if c < res.NumCols() { // no engine makes a row narrower than its columns
				v = res.Value(r, c)
			}
			out[c] = normFlex(v)
			if c < res.NumCols() && !opt.MissingIsNull && out[c].kind == flexNull && res.IsMissing(r, c) {
				out[c] = flexVal{kind: flexMissing}
			}
		}
		for c, v := range out {
			switch v.kind {
			case flexInt, flexFloat:
				nums[c]++
			case flexText:
				texts[c]++
			}
		}
		t.rows[r] = out
	}
	for c := range t.cols {
		t.cols[c].typ = columnType(nums[c], texts[c])
	}
	return t
}

// columnType applies the 80% rule to a column's counts of numbers and text.
func columnType(nums, texts int) flexType {
	total := nums + texts
	switch {
	case total == 0:
		return typEmpty
	case nums*5 >= total*4:
		return typNumeric
	case texts*5 >= total*4:
		return typString
	}
	return typMixed
}

// normFlex normalises one engine value.
func normFlex(v any) flexVal {
	switch x := v.(type) {
	case nil:
		return flexVal{kind: flexNull}
	case int64:
		return flexVal{kind: flexInt, i: x}
	case float64:
		return flexFloat64(x)
	case string:
		return normText(x)
	case []byte:
		return normText(string(x))
	case int:
		return flexVal{kind: flexInt, i: int64(x)}
	case bool: // no engine returns one today; SQL++ booleans arrive as 0/1
		if x {
			return flexVal{kind: flexInt, i: 1}
		}
		return flexVal{kind: flexInt, i: 0}
	}
	return normText(fmt.Sprint(v))
}

// flexFloat64 rounds to 6 places as numpy does (scale, round half to even, unscale);
// an integral result becomes an integer so that 2.0000001 == 2.
func flexFloat64(f float64) flexVal {
	if math.IsNaN(f) {
		return flexVal{kind: flexNull}
	}
	if math.Abs(f) < 1<<52 { // above, every float is an integer already
		f = math.RoundToEven(f*1e6) / 1e6
	}
	if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return flexVal{kind: flexInt, i: int64(f)} // also folds -0 into 0
	}
	return flexVal{kind: flexFloat, f: f}
}

// normText normalises text: trimmed, lowercased; null spellings to NULL; decimal
// numbers to numbers.
func normText(s string) flexVal {
	t := strings.TrimSpace(s)
	if utf8.ValidString(t) {
		t = strings.ToLower(t)
	} else {
		t = asciiLower(t) // ToLower would replace the invalid bytes, merging distinct texts
	}
	switch t {
	case "", "null", "none", "nan":
		return flexVal{kind: flexNull}
	}
	if integral, ok := decimalSyntax(t); ok {
		if integral {
			if i, err := strconv.ParseInt(t, 10, 64); err == nil {
				return flexVal{kind: flexInt, i: i}
			}
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) {
			return flexFloat64(f)
		}
	}
	return flexVal{kind: flexText, s: t}
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// decimalSyntax reports whether s is [+-]digits[.digits][e[+-]digits] (at least one
// digit in the mantissa), and whether it is a bare integer.
func decimalSyntax(s string) (integral, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	integral = true
	if i < len(s) && s[i] == '.' {
		integral = false
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false, false
	}
	if i < len(s) && s[i] == 'e' {
		integral = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false, false
		}
	}
	return integral, i == len(s)
}

// mapColumns fills mapping (gold column -> prediction column) in the two stages.
func mapColumns(g, p *flexTable, mapping []int) {
	used := make([]bool, len(p.cols))
	type cand struct {
		score  float64
		gi, pj int
	}
	var cands []cand
	for i, gc := range g.cols {
		for j, pc := range p.cols {
			if gc.typ != pc.typ {
				continue
			}
			lcs := lcsLen(gc.runes, pc.runes)
			total := len(gc.runes) + len(pc.runes)
			if total == 0 || 20*lcs >= 7*total { // 200*lcs/total >= 70, in integers
				score := 100.0
				if total > 0 {
					score = 200 * float64(lcs) / float64(total)
				}
				cands = append(cands, cand{score, i, j})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		case a.gi != b.gi:
			return a.gi - b.gi
		}
		return a.pj - b.pj
	})
	for _, c := range cands {
		if mapping[c.gi] < 0 && !used[c.pj] {
			mapping[c.gi] = c.pj
			used[c.pj] = true
		}
	}
	for i := range mapping {
		if mapping[i] >= 0 {
			continue
		}
		for j, pc := range p.cols {
			if !used[j] && pc.typ == g.cols[i].typ {
				mapping[i] = j
				used[j] = true
				break
			}
		}
	}
}

// lcsLen is the length of the longest common subsequence of a and b.
func lcsLen(a, b []rune) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for _, ca := range a {
		for j, cb := range b {
			switch {
			case ca == cb:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// rowKeys encodes each row's cells at the given columns, in that order, as one string
// that is equal for two rows exactly when their normalised cells are.
func (t *flexTable) rowKeys(cols []int) []string {
	keys := make([]string, len(t.rows))
	var buf []byte
	for r, row := range t.rows {
		buf = buf[:0]
		for _, c := range cols {
			v := row[c]
			buf = append(buf, byte(v.kind))
			switch v.kind {
			case flexInt:
				buf = binary.BigEndian.AppendUint64(buf, uint64(v.i))
			case flexFloat:
				buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(v.f))
			case flexText:
				buf = binary.AppendUvarint(buf, uint64(len(v.s)))
				buf = append(buf, v.s...)
			}
		}
		keys[r] = string(buf)
	}
	return keys
}

// flexSameRows reports whether a and b hold the same keys, counting duplicates unless asSet;
// it reorders both.
func flexSameRows(a, b []string, asSet bool) bool {
	if slices.Equal(a, b) { // the common case: same rows in the same order
		return true
	}
	if len(a) != len(b) && !asSet {
		return false
	}
	slices.Sort(a)
	slices.Sort(b)
	if asSet {
		a, b = slices.Compact(a), slices.Compact(b)
	}
	return slices.Equal(a, b)
}
