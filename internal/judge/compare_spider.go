package judge

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// SpiderEqual is the Spider test-suite execution match (test-suite-sql-eval,
// exec_eval.py result_eq) without value plugging: some permutation of the prediction's
// columns must make its rows equal the gold rows, as a list when orderMatters, otherwise
// as a bag (multiset). Values compare as in Python (see BirdEqual). Two empty results
// are equal; otherwise row and column counts must agree. A nil result is empty.
//
// Quirk (Spider-utf8): text is decoded the way exec_eval.py's text_factory does, with
// errors="ignore": bytes that are not valid UTF-8 are dropped before comparing, so
// "a\xffb" equals "ab".
//
// The reference samples rows at random to prune column permutations. The pruning is
// sound, so the answer does not depend on it; this version prunes deterministically
// (per-column multiset checks, then a search that checks the bag of the columns chosen
// so far) and gives the same answers.
//
// Quirk (Spider-quickrej): before the permutation search the reference sorts the values
// inside each row by Python's str(x)+str(type(x)) and compares those sorted rows, as a
// list when order matters and as a set otherwise. Because 2 sorts after 2.5 while 2.0
// sorts before it, an int in one result and the equal float in the other can reorder a
// row and so reject a pair that the permutation check (and BIRD) would accept. This is
// reproduced; a strict mode would skip the quick rejection.
func SpiderEqual(gold, pred *engine.Result, orderMatters bool) bool {
	ng, np := gold.NumRows(), pred.NumRows()
	if ng == 0 && np == 0 {
		return true
	}
	if ng != np {
		return false
	}
	// Fast paths for the common correct prediction: the same values with the same types
	// (so every row sorts the same way in quick_rej), in the same order or shuffled. They
	// read the results in place; only a pair they cannot settle is converted (pyTableOf).
	if gold.NumCols() == pred.NumCols() && (sameRowsIdentical(gold, pred) || (!orderMatters && sameBagIdentical(gold, pred))) {
		return true
	}
	// Every column match below needs each gold column to be, as a multiset, some pred
	// column: checked first on the results in place, so a wrong prediction is rejected
	// without converting either result.
	if gold.NumCols() != pred.NumCols() || !columnsCouldMatch(gold, pred) {
		return false
	}
	g, ok := pyTableOf(gold, textIgnore)
	if !ok {
		return false
	}
	p, ok := pyTableOf(pred, textIgnore)
	if !ok {
		return false
	}
	if g.rows == 0 && p.rows == 0 {
		return true
	}
	if g.rows != p.rows || g.width != p.width {
		return false
	}
	if !spiderQuickAccept(&g, &p, orderMatters) {
		return false
	}
	if orderMatters {
		return orderedColumnMatch(&g, &p)
	}
	return bagColumnMatch(&g, &p)
}

// SpiderOrderMatters reports whether Spider compares rows in order for this gold query:
// the reference's test is the substring "order by" in the lowercased (rewritten) gold
// text.
//
// Quirk (Spider-orderby): it is a plain substring test, so "ORDER  BY" (two spaces) or
// "ORDER\nBY" counts as unordered, while "order by" inside a string literal, a comment or
// a subquery counts as ordered.
func SpiderOrderMatters(goldSQL string) bool {
	// Only ASCII letters lowercase to the ASCII letters of "order by", so ASCII folding
	// equals Python's str.lower() for this test.
	const pat = "order by"
	for i := 0; i+len(pat) <= len(goldSQL); i++ {
		if asciiEqualFold(goldSQL[i:i+len(pat)], pat) {
			return true
		}
	}
	return false
}

// asciiEqualFold compares s with the lowercase ASCII pattern lower, folding only A-Z.
func asciiEqualFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// spiderQuickAccept is the reference's quick_rej: true when the rows, each with its values
// sorted by str(x)+str(type(x)), agree as a list (order matters) or as a set.
func spiderQuickAccept(g, p *pyTable, orderMatters bool) bool {
	if g.width == 1 { // sorting one value changes nothing
		if orderMatters {
			return slices.EqualFunc(g.cells, p.cells, func(a, b pyVal) bool { return a.key == b.key })
		}
		return sameRows(tableView{g, cellHashes(g), nil}, tableView{p, cellHashes(p), nil}, false)
	}
	ug, up := unorderRows(g), unorderRows(p)
	if orderMatters {
		for i := 0; i < ug.rows; i++ {
			if !rowsEqual(ug.row(i), up.row(i)) {
				return false
			}
		}
		return true
	}
	return sameRows(tableView{&ug, cellHashes(&ug), nil}, tableView{&up, cellHashes(&up), nil}, false)
}

// unorderRows is the reference's unorder_row applied to every row: a stable sort of the
// row's values by str(x)+str(type(x)), compared as Python compares strings (by code
// point, which is byte order for valid UTF-8).
func unorderRows(t *pyTable) pyTable {
	out := pyTable{rows: t.rows, width: t.width, cells: make([]pyVal, len(t.cells))}
	var buf []byte
	offs := make([]int, t.width+1)
	perm := make([]int, t.width)
	for r := 0; r < t.rows; r++ {
		row := t.row(r)
		buf = buf[:0]
		for j := range row {
			offs[j] = len(buf)
			buf = appendPyStrType(buf, &row[j])
		}
		offs[t.width] = len(buf)
		for j := range perm {
			perm[j] = j
		}
		// Insertion sort: stable, and rows are short.
		for i := 1; i < len(perm); i++ {
			for k := i; k > 0; k-- {
				a, b := perm[k-1], perm[k]
				if bytes.Compare(buf[offs[a]:offs[a+1]], buf[offs[b]:offs[b+1]]) <= 0 {
					break
				}
				perm[k-1], perm[k] = b, a
			}
		}
		dst := out.row(r)
		for j, k := range perm {
			dst[j] = row[k]
		}
	}
	return out
}

// columnsCouldMatch reports whether the columns of g and p (same shape) can be paired so
// that paired columns have equal fingerprints (columnFingerprints on Python keys, text
// decoded as Spider decodes it): a necessary condition of both the ordered and the bag
// column match.
func columnsCouldMatch(g, p *engine.Result) bool {
	w := g.NumCols()
	gfp, pfp := resultFingerprints(g), resultFingerprints(p)
	compat := make([]bool, w*w)
	for i := range w {
		for j := range w {
			compat[i*w+j] = gfp[i] == pfp[j]
		}
	}
	return perfectMatching(w, compat)
}

// resultFingerprints is columnFingerprints(pyTableOf(r, textIgnore)) without the table.
func resultFingerprints(r *engine.Result) [][2]uint64 {
	fp := make([][2]uint64, r.NumCols())
	for i := range r.NumRows() {
		for j := range fp {
			pv, _ := pyCellOf(r, i, j, textIgnore) // never fails under textIgnore
			h := keyHash(&pv.key)
			fp[j][0] += h
			fp[j][1] ^= mix64(h)
		}
	}
	return fp
}

// orderedColumnMatch: with rows in order, a column permutation makes the lists equal
// exactly when every gold column equals its pred column row by row, so the search is a
// bipartite matching between gold columns and equal pred columns.
func orderedColumnMatch(g, p *pyTable) bool {
	w := g.width
	compat := make([]bool, w*w) // compat[i*w+j]: gold column i == pred column j
	for i := 0; i < w; i++ {
		for j := 0; j < w; j++ {
			eq := true
			for r := 0; r < g.rows && eq; r++ {
				eq = g.cells[r*w+i].key == p.cells[r*w+j].key
			}
			compat[i*w+j] = eq
		}
	}
	return perfectMatching(w, compat)
}

// perfectMatching reports whether the w×w bipartite graph has a perfect matching
// (Kuhn's augmenting paths).
func perfectMatching(w int, adj []bool) bool {
	match := make([]int, w) // pred column -> gold column, or -1
	for j := range match {
		match[j] = -1
	}
	seen := make([]bool, w)
	var augment func(i int) bool
	augment = func(i int) bool {
		for j := 0; j < w; j++ {
			if !adj[i*w+j] || seen[j] {
				continue
			}
			seen[j] = true
			if match[j] < 0 || augment(match[j]) {
				match[j] = i
				return true
			}
		}
		return false
	}
	for i := 0; i < w; i++ {
		clear(seen)
		if !augment(i) {
			return false
		}
	}
	return true
}

// bagColumnMatch looks for a column permutation under which the pred rows equal the gold
// rows as a bag. Gold columns are assigned in turn; a pred column is a candidate only if
// its values could be the same multiset (equal fingerprints), and each partial assignment
// must already give equal bags of partial rows, which prunes hard and, at the last
// column, is the full check. Pred columns that are identical are interchangeable, so only
// one of them is tried at each step.
func bagColumnMatch(g, p *pyTable) bool {
	w := g.width
	gh, ph := cellHashes(g), cellHashes(p)
	gfp, pfp := columnFingerprints(g, gh), columnFingerprints(p, ph)
	compat := make([]bool, w*w)
	for i := 0; i < w; i++ {
		for j := 0; j < w; j++ {
			compat[i*w+j] = gfp[i] == pfp[j]
		}
	}
	if !perfectMatching(w, compat) {
		return false
	}
	class := identicalColumnClasses(p)
	goldCols := make([]int, w)
	for i := range goldCols {
		goldCols[i] = i
	}
	assign := make([]int, 0, w)
	used := make([]bool, w)
	var search func(i int) bool
	search = func(i int) bool {
		if i == w {
			return true
		}
		tried := make([]bool, w)
		for j := 0; j < w; j++ {
			if used[j] || !compat[i*w+j] || tried[class[j]] {
				continue
			}
			tried[class[j]] = true
			assign = append(assign, j)
			used[j] = true
			gv := tableView{g, gh, goldCols[:i+1]}
			pv := tableView{p, ph, assign}
			if sameRows(gv, pv, true) && search(i+1) {
				return true
			}
			used[j] = false
			assign = assign[:i]
		}
		return false
	}
	return search(0)
}

// identicalColumnClasses maps each column to the first column identical to it row by row.
func identicalColumnClasses(t *pyTable) []int {
	class := make([]int, t.width)
	for j := range class {
		class[j] = j
		for k := 0; k < j; k++ {
			if class[k] != k {
				continue
			}
			same := true
			for r := 0; r < t.rows && same; r++ {
				same = t.cells[r*t.width+j].key == t.cells[r*t.width+k].key
			}
			if same {
				class[j] = k
				break
			}
		}
	}
	return class
}

// keyHash hashes a pyKey; equal keys hash alike.
func keyHash(k *pyKey) uint64 {
	h := mix64(k.n ^ uint64(k.kind)*0x9e3779b97f4a7c15)
	if k.kind == pyStr || k.kind == pyBytes || k.kind == pyDecimal {
		h ^= maphash.String(rowHashSeed, k.s)
	}
	return h
}

// cellHashes returns keyHash of every cell, row-major like the cells.
func cellHashes(t *pyTable) []uint64 {
	h := make([]uint64, len(t.cells))
	for i := range t.cells {
		h[i] = keyHash(&t.cells[i].key)
	}
	return h
}

// columnFingerprints summarises each column's multiset of values: equal multisets give
// equal fingerprints (the converse needs the exact check that follows).
func columnFingerprints(t *pyTable, hashes []uint64) [][2]uint64 {
	fp := make([][2]uint64, t.width)
	for i, h := range hashes {
		c := i % t.width
		fp[c][0] += h
		fp[c][1] ^= mix64(h)
	}
	return fp
}

// tableView is a table's rows cut to some columns, in a given order (all when cols is nil).
type tableView struct {
	t      *pyTable
	hashes []uint64 // cellHashes(t)
	cols   []int
}

func (v tableView) width() int {
	if v.cols == nil {
		return v.t.width
	}
	return len(v.cols)
}

func (v tableView) col(c int) int {
	if v.cols == nil {
		return c
	}
	return v.cols[c]
}

func (v tableView) rowHash(r int) uint64 {
	var h uint64 = 0xcbf29ce484222325
	base := r * v.t.width
	for c := 0; c < v.width(); c++ {
		h = (bits.RotateLeft64(h, 23) ^ v.hashes[base+v.col(c)]) * 0x100000001b3
	}
	return h
}

func (v tableView) rowEqual(r int, o tableView, s int) bool {
	a, b := v.t.row(r), o.t.row(s)
	for c := 0; c < v.width(); c++ {
		if a[v.col(c)].key != b[o.col(c)].key {
			return false
		}
	}
	return true
}

// sameRows reports whether the rows of a and b are equal as bags (bag) or as sets.
// The views must have the same width.
func sameRows(a, b tableView, bag bool) bool {
	if bag && a.t.rows != b.t.rows {
		return false
	}
	size := 1
	for size < 2*a.t.rows {
		size <<= 1
	}
	mask := uint64(size - 1)
	type slot struct {
		h     uint64
		row   int32 // row of a plus one; 0 marks an empty slot
		count int32 // bag: copies left to match; set: 1 until matched
	}
	slots := make([]slot, size)
	distinct := 0
	for r := 0; r < a.t.rows; r++ {
		h := a.rowHash(r)
		for k := h & mask; ; k = (k + 1) & mask {
			s := &slots[k]
			if s.row == 0 {
				*s = slot{h: h, row: int32(r) + 1, count: 1}
				distinct++
				break
			}
			if s.h == h && a.rowEqual(int(s.row-1), a, r) {
				if bag {
					s.count++
				}
				break
			}
		}
	}
	matched := 0
	for r := 0; r < b.t.rows; r++ {
		h := b.rowHash(r)
		for k := h & mask; ; k = (k + 1) & mask {
			s := &slots[k]
			if s.row == 0 {
				return false
			}
			if s.h == h && a.rowEqual(int(s.row-1), b, r) {
				switch {
				case bag && s.count == 0:
					return false
				case bag:
					s.count--
				case s.count == 1:
					s.count = 0
					matched++
				}
				break
			}
		}
	}
	return bag || matched == distinct
}

// sameRowsIdentical reports whether row i of g is identical to row i of p for every i.
func sameRowsIdentical(g, p *engine.Result) bool {
	for i := range g.NumRows() {
		if !rowIdentical(g, i, p, i) {
			return false
		}
	}
	return true
}

// sameBagIdentical reports whether p is a reordering of g, row for row identical. False
// means only "not that simple": the full comparison decides.
func sameBagIdentical(g, p *engine.Result) bool {
	set := newRowSet(g.NumRows())
	defer set.release()
	for i := range g.NumRows() {
		h := rowHash(g, i)
		sl := set.find(h, func(k int) bool { return rowIdentical(g, k, g, i) })
		if sl.row == 0 {
			*sl = rowSlot{h: h, row: int32(i) + 1}
		}
		sl.count++
	}
	for i := range p.NumRows() {
		sl := set.find(rowHash(p, i), func(k int) bool { return rowIdentical(g, k, p, i) })
		if sl.row == 0 || sl.count == 0 {
			return false
		}
		sl.count--
	}
	return true // as many rows in p as in g, each taken from g's counts
}
