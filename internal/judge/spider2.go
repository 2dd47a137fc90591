package judge

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pyrepr"
)

// Spider 2.0's comparison of result tables. Official mode reproduces the suite's
// evaluate.py (compare_multi_pandas_table / compare_pandas_table) rule for rule, quirks
// included; each quirk is named where it happens and held by a test
// (spider2_test.go, and the conformance cases in spider2_conformance_test.go). Strict
// mode is in spider2_strict.go.

// Spider2Mode names how Spider 2.0 result tables are compared.
type Spider2Mode string

// The two modes.
const (
	Spider2Official Spider2Mode = "official" // evaluate.py's rules, quirks included
	Spider2Strict   Spider2Mode = "strict"   // rows as rows, NULL distinct, columns one to one
)

// ParseSpider2Mode reads --spider2-mode ("" is official).
func ParseSpider2Mode(s string) (Spider2Mode, error) {
	switch Spider2Mode(s) {
	case "", Spider2Official:
		return Spider2Official, nil
	case Spider2Strict:
		return Spider2Strict, nil
	}
	return "", fmt.Errorf("spider2 mode must be official or strict, not %q", s)
}

// Spider2Result is one mode's verdict on a result table.
type Spider2Result struct {
	Score   int    // 1 when some gold variant matched
	Variant string // the gold file that matched ("" when none)
	// Error is set when evaluate.py would have raised while comparing (its error_info,
	// score 0), e.g. a nested condition_cols shorter than the variants.
	Error string
	// Unknown: no present variant matched and a variant that could have is missing from
	// this copy of the gold: the task cannot be judged.
	Unknown bool
}

// Spider2Verdict is a result table judged in both modes.
type Spider2Verdict struct {
	Official, Strict Spider2Result
	// Why says, when the modes disagree, which of evaluate.py's rules makes the
	// difference (spider2_why.go).
	Why string
}

// In returns the verdict of mode m.
func (v *Spider2Verdict) In(m Spider2Mode) Spider2Result {
	if m == Spider2Strict {
		return v.Strict
	}
	return v.Official
}

// Spider2Gold is one gold variant: its file and its table (nil when the file is missing
// from this copy).
type Spider2Gold struct {
	File  dataset.Spider2GoldFile
	Frame *pandascsv.Frame
}

// CompareSpider2 judges a predicted table against a task's gold variants in both modes.
// suite is dataset.Spider2Lite or Spider2Snow: their evaluate.py differ in one rule.
func CompareSpider2(suite string, t *dataset.Spider2Task, pred *pandascsv.Frame, golds []Spider2Gold) Spider2Verdict {
	v := Spider2Verdict{
		Official: spider2Official(suite, t, pred, golds, spider2Quirks{}),
		Strict:   spider2Strict(t, pred, golds, strictOptions{}),
	}
	if v.Official.Score != v.Strict.Score && !v.Official.Unknown && !v.Strict.Unknown {
		v.Why = spider2Why(suite, t, pred, golds, v)
	}
	return v
}

// spider2Quirks switches off one evaluate.py quirk each; the zero value is evaluate.py.
// They exist to say why strict and official disagree (spider2_why.go), never to score.
type spider2Quirks struct {
	keepNull    bool // NaN stays missing and equals only NaN
	numericSort bool // under ignore_order numbers sort by value, not by str(x)
	fixCondCols bool // condition_cols read sanely (strictCols)
	relTol      bool // the tolerance is also relative (strictTol)
}

// spider2Official is evaluate.py's verdict.
func spider2Official(suite string, t *dataset.Spider2Task, pred *pandascsv.Frame, golds []Spider2Gold, q spider2Quirks) Spider2Result {
	if !t.HasIgnoreOrder && suite == dataset.Spider2Snow {
		// spider2-snow indexes the config (eval_standard_dict.get(id)['ignore_order']):
		// a missing key raises KeyError, caught as a script error.
		return Spider2Result{Error: "Python Script Error:'ignore_order'"}
	}
	if !t.HasConditionCols && suite == dataset.Spider2Snow {
		return Spider2Result{Error: "Python Script Error:'condition_cols'"}
	}
	if len(golds) == 0 {
		return Spider2Result{Error: "No matching gold file found"}
	}
	predVecs, err := pred.Transposed(nil)
	if err != nil {
		return Spider2Result{Error: "Python Script Error:" + err.Error()}
	}
	pv := make([][]pandascsv.Value, len(predVecs))
	for i, v := range predVecs {
		pv[i] = officialPrep(v, t.IgnoreOrder, q)
	}
	if t.Single {
		// One plain <id>.csv: compare_pandas_table with condition_cols as given.
		return officialOne(suite, t.ConditionCols, pv, golds[0], t.IgnoreOrder, q, 0, 1)
	}
	// compare_multi_pandas_table: condition_cols of None, [], [[]] or [None] means all
	// columns of every variant; with more than one variant, a list that is not all lists
	// is given to every variant; otherwise variant i takes condition_cols[i].
	var unknown bool
	for i, g := range golds {
		var cc any
		switch {
		case q.fixCondCols:
			cc = ccInts(strictCols(t.ConditionCols, i))
		case ccAllColumns(t.ConditionCols):
			cc = []any{}
		case len(golds) > 1 && !allLists(t.ConditionCols):
			cc = t.ConditionCols
		default:
			// Quirk (the one-variant flat-list case): with a single <id>_a.csv and a flat
			// condition_cols [2, 5], variant 0 gets condition_cols[0], the int 2, not the
			// list. lite then checks all columns when that int is 0 (falsy) and snow
			// only column 0. A nested list shorter than the variants raises IndexError
			// once a variant past its end is reached.
			l, ok := t.ConditionCols.([]any)
			if !ok {
				return Spider2Result{Error: fmt.Sprintf("Python Script Error:'%s' object is not subscriptable", pyTypeName(t.ConditionCols))}
			}
			if i >= len(l) {
				if unknown {
					return Spider2Result{Unknown: true}
				}
				return Spider2Result{Error: "Python Script Error:list index out of range"}
			}
			cc = l[i]
		}
		if g.Frame == nil {
			unknown = true
			continue
		}
		r := officialOne(suite, cc, pv, g, t.IgnoreOrder, q, i, len(golds))
		if r.Score == 1 || r.Error != "" {
			return r
		}
	}
	return Spider2Result{Unknown: unknown}
}

// officialOne is compare_pandas_table against one variant.
func officialOne(suite string, cc any, pv [][]pandascsv.Value, g Spider2Gold, ignoreOrder bool, q spider2Quirks, i, n int) Spider2Result {
	if g.Frame == nil {
		return Spider2Result{Unknown: true}
	}
	cols, err := officialCols(suite, cc, q)
	if err != nil {
		return Spider2Result{Error: "Python Script Error:" + err.Error()}
	}
	gv, err := g.Frame.Transposed(cols)
	if err != nil {
		return Spider2Result{Error: "Python Script Error:" + err.Error()}
	}
	for _, v := range gv {
		v = officialPrep(v, ignoreOrder, q)
		if !slices.ContainsFunc(pv, func(p []pandascsv.Value) bool { return officialVecEqual(v, p, q) }) {
			return Spider2Result{}
		}
	}
	return Spider2Result{Score: 1, Variant: g.File.Name}
}

// officialCols selects a variant's gold columns (nil: all) from its condition_cols.
func officialCols(suite string, cc any, q spider2Quirks) ([]int, error) {
	// Quirk: lite tests "if condition_cols:" (truthiness: None, [], 0 select all
	// columns) and snow tests "if condition_cols != []" (0 selects column 0, None
	// raises).
	var selects bool
	if suite == dataset.Spider2Snow && !q.fixCondCols {
		l, isList := cc.([]any)
		selects = !isList || len(l) > 0
	} else {
		selects = pyTruthy(cc)
	}
	if !selects {
		return nil, nil
	}
	l, isList := cc.([]any)
	if !isList {
		l = []any{cc}
	}
	cols := make([]int, len(l))
	for i, x := range l {
		n, ok := pdInt(x)
		if !ok {
			return nil, fmt.Errorf("invalid condition_cols entry %v for iloc", x)
		}
		cols[i] = n
	}
	return cols, nil
}

// officialPrep is vectors_match's preparation of one column: NaN replaced by the int
// 0, and under ignore_order a stable sort by (str(x), isinstance(x, (int, float))).
func officialPrep(v []pandascsv.Value, ignoreOrder bool, q spider2Quirks) []pandascsv.Value {
	out := make([]pandascsv.Value, len(v))
	for i, x := range v {
		if x.Type == pandascsv.Null && !q.keepNull {
			// Quirk (issue #157): normalize() turns every NaN into 0, so NULL equals 0.
			x = pandascsv.Value{Type: pandascsv.Int}
		}
		out[i] = x
	}
	if !ignoreOrder {
		return out
	}
	if q.numericSort {
		slices.SortStableFunc(out, cmpStrict)
		return out
	}
	// Quirk (issues #200, #226): each column is sorted on its own, so rows scrambled
	// across columns still match. Quirk (issue #225): the key is the text, so 10.0
	// sorts before 9.0 and values within the tolerance can be paired with the wrong
	// partner.
	keys := make([]string, len(out))
	for i := range out {
		keys[i] = pdStr(out[i])
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	// Python's sort is stable: ties keep their order (the index breaks them here, as
	// pdqsort is faster than a stable sort).
	slices.SortFunc(idx, func(a, b int) int {
		if c := strings.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		na, nb := isPyNumber(out[a]), isPyNumber(out[b])
		switch {
		case na == nb:
			return a - b
		case nb: // False sorts before True
			return -1
		}
		return 1
	})
	sorted := make([]pandascsv.Value, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// officialVecEqual is vectors_match after preparation: equal lengths, and pairwise
// numbers (bools included: isinstance(True, int)) within math.isclose(abs_tol=0.01,
// rel_tol=1e-9), anything else equal by Python ==.
func officialVecEqual(a, b []pandascsv.Value, q spider2Quirks) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type == pandascsv.Null || y.Type == pandascsv.Null { // only with keepNull
			if x.Type != y.Type {
				return false
			}
			continue
		}
		if isPyNumber(x) && isPyNumber(y) {
			if q.relTol {
				if !strictClose(pdFloat(x), pdFloat(y)) {
					return false
				}
			} else if !pyIsClose(pdFloat(x), pdFloat(y), 1e-9, 0.01) {
				return false
			}
			continue
		}
		if x.Type != pandascsv.Str || y.Type != pandascsv.Str || x.S != y.S {
			return false
		}
	}
	return true
}

// pyIsClose is Python's math.isclose.
func pyIsClose(a, b, rel, abs float64) bool {
	if a == b {
		return true
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	d := math.Abs(a - b)
	return d <= math.Abs(rel*b) || d <= math.Abs(rel*a) || d <= abs
}

func isPyNumber(x pandascsv.Value) bool {
	switch x.Type {
	case pandascsv.Int, pandascsv.Uint, pandascsv.Float, pandascsv.Bool:
		return true
	}
	return false
}

// pdFloat is Python's float(x) of a number.
func pdFloat(x pandascsv.Value) float64 {
	switch x.Type {
	case pandascsv.Int, pandascsv.Bool:
		return float64(x.I)
	case pandascsv.Uint:
		return float64(x.U)
	}
	return x.F
}

// pdStr is Python's str(x).
func pdStr(x pandascsv.Value) string {
	switch x.Type {
	case pandascsv.Int:
		return strconv.FormatInt(x.I, 10)
	case pandascsv.Uint:
		return strconv.FormatUint(x.U, 10)
	case pandascsv.Float:
		return string(pyrepr.AppendFloat(nil, x.F))
	case pandascsv.Bool:
		if x.I == 1 {
			return "True"
		}
		return "False"
	case pandascsv.Null:
		return "nan"
	}
	return x.S
}

// ccAllColumns is condition_cols in (None, [], [[]], [None]).
func ccAllColumns(cc any) bool {
	if cc == nil {
		return true
	}
	l, ok := cc.([]any)
	if !ok {
		return false
	}
	if len(l) == 0 {
		return true
	}
	if len(l) == 1 {
		if l[0] == nil {
			return true
		}
		if inner, ok := l[0].([]any); ok && len(inner) == 0 {
			return true
		}
	}
	return false
}

// allLists is all(isinstance(x, list) for x in cc).
func allLists(cc any) bool {
	l, ok := cc.([]any)
	if !ok {
		return false
	}
	for _, x := range l {
		if _, ok := x.([]any); !ok {
			return false
		}
	}
	return true
}

// pyTruthy is Python's bool(x) of a JSON value.
func pyTruthy(x any) bool {
	switch v := x.(type) {
	case nil:
		return false
	case bool:
		return v
	case json.Number:
		f, err := v.Float64()
		return err != nil || f != 0
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case map[string]any:
		return len(v) > 0
	}
	return true
}

// pdInt reads a JSON value used as a column index (an int, or a bool: Python's
// True is 1).
func pdInt(x any) (int, bool) {
	switch v := x.(type) {
	case json.Number:
		n, err := strconv.Atoi(string(v))
		return n, err == nil
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func pyTypeName(x any) string {
	switch x.(type) {
	case json.Number:
		return "int"
	case bool:
		return "bool"
	case string:
		return "str"
	case map[string]any:
		return "dict"
	}
	return "NoneType"
}
