package counterex

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// A profile is what the original data says beyond its declared schema: per column
// whether NULL ever occurs, whether values are distinct, the value domain; the
// inclusion dependencies the data satisfies; which tables are lookup tables (a code
// paired with a name). Realistic mode builds only databases the profile allows, and
// every counterexample is classified against it (assume.go). It is computed once per
// database per run (dbInfo holds it), from bounded scans: a table's first profileRows
// rows, plus one aggregate query per table under profileTimeout for NULLs beyond them.

const (
	profileRows    = 5000 // rows scanned per table
	profileTimeout = 2 * time.Second
	closedMax      = 16  // at most this many distinct values, repeated: a closed domain
	lookupMaxRows  = 300 // a lookup table is small
	distinctMin    = 10  // "distinct in the data" needs this many rows to mean anything
)

type profile struct {
	tables map[string]*tableProfile // by lowercased name
	incl   []inclusion
}

type tableProfile struct {
	name     string
	rows     int  // rows scanned
	complete bool // the scan saw every row
	cols     []colProfile
	// lookup: a small table of codes and names that other tables point at; real holds
	// its rows and realKey their identities.
	lookup    bool
	reference bool // a lookup table by the reference rule (reference.go)
	real      [][]any
	realKey   map[string]bool
}

type colProfile struct {
	name     string
	nulls    bool // NULL occurs
	distinct bool // non-NULL values are all distinct (and there are distinctMin or more)
	closed   bool // domain holds every value
	domain   map[string]bool
	values   []any // closed: the set; else up to 24 sampled values
	numeric  bool  // every non-NULL value is a number
	integral bool  // ... and an integer
	lo, hi   float64
	spaces   bool            // some text value has spaces around it
	empty    bool            // some value is the empty string
	lower    map[string]bool // the text values, lowercased
	nonNull  int             // non-NULL values scanned
	set      map[string]bool // the scanned values' identities (valKey)
}

// inclusion says every non-NULL value of child.ccol occurs in parent.pcol.
type inclusion struct {
	child, ccol, parent, pcol string
	declared                  bool
	dirty                     string // a declared foreign key a few dirty rows break (dbInfo.dirtyFK)
	// except holds the child values the data itself leaves dangling (reference.go): a
	// reference table's real rows keep their references, its dirty ones stay as dirty.
	except map[string]bool
}

// valKey is v's identity for domain membership: numbers equal as SQLite compares them.
func valKey(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case int64:
		return "n:" + strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return "n:" + strconv.FormatInt(int64(x), 10)
		}
		return "n:" + strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return "s:" + x
	case []byte:
		return "b:" + string(x)
	}
	return fmt.Sprintf("?:%v", v)
}

func numberOf(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// query runs q on the original database (read-only, bounded) and returns its rows, or
// nil when it fails or times out.
func (d *dbInfo) query(ctx context.Context, q string, maxRows int) [][]any {
	ctx, cancel := context.WithTimeout(ctx, profileTimeout)
	defer cancel()
	var out [][]any
	conn, err := d.ro.Conn(ctx)
	if err != nil {
		return nil
	}
	defer conn.Close()
	_ = conn.Raw(func(dc any) error {
		if c, ok := dc.(*sqlite3.SQLiteConn); ok {
			if res, err := engine.QueryConn(ctx, c, q, engine.Limits{MaxRows: maxRows, MaxBytes: 64 << 20}); err == nil {
				out = res.BoxedRows()
			}
		}
		return nil
	})
	return out
}

// buildProfile profiles every table of d, then its inclusions and lookup tables.
func buildProfile(ctx context.Context, d *dbInfo) *profile {
	p := &profile{tables: map[string]*tableProfile{}}
	for _, t := range d.schema.Tables {
		p.tables[strings.ToLower(t.Name)] = profileTable(ctx, d, t)
	}
	p.findInclusions(d)
	p.findLookups(d)
	return p
}

func profileTable(ctx context.Context, d *dbInfo, t *dbschema.Table) *tableProfile {
	tp := &tableProfile{name: t.Name}
	var cols []string
	for _, c := range t.Columns {
		cols = append(cols, sqlscan.QuoteIdent(c.Name))
	}
	rows := d.query(ctx, fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(cols, ", "), sqlscan.QuoteIdent(t.Name), profileRows), profileRows)
	tp.rows, tp.complete = len(rows), len(rows) < profileRows
	var nullsBeyond []any // max(c IS NULL) over the whole table, when it was not all scanned
	if !tp.complete {
		var agg []string
		for _, c := range cols {
			agg = append(agg, "max("+c+" IS NULL)")
		}
		if r := d.query(ctx, fmt.Sprintf("SELECT %s FROM %s", strings.Join(agg, ", "), sqlscan.QuoteIdent(t.Name)), 1); len(r) == 1 {
			nullsBeyond = r[0]
		}
	}
	for ci, c := range t.Columns {
		cp := colProfile{name: c.Name, numeric: true, integral: true, lo: math.Inf(1), hi: math.Inf(-1), set: map[string]bool{}}
		nonNull := 0
		dup := false
		for _, r := range rows {
			v := r[ci]
			if v == nil {
				cp.nulls = true
				continue
			}
			nonNull++
			k := valKey(v)
			if cp.set[k] {
				dup = true
			} else {
				cp.set[k] = true
				if len(cp.values) < 24 {
					cp.values = append(cp.values, v)
				}
			}
			if f, ok := numberOf(v); ok {
				cp.lo, cp.hi = math.Min(cp.lo, f), math.Max(cp.hi, f)
				cp.integral = cp.integral && f == math.Trunc(f)
			} else {
				cp.numeric, cp.integral = false, false
			}
			if s, ok := v.(string); ok && s != strings.TrimSpace(s) {
				cp.spaces = true
			}
			if s, ok := v.(string); ok && s == "" {
				cp.empty = true
			}
			if s, ok := v.(string); ok {
				if cp.lower == nil {
					cp.lower = map[string]bool{}
				}
				cp.lower[strings.ToLower(s)] = true
			}
		}
		if nullsBeyond != nil {
			if n, ok := nullsBeyond[ci].(int64); ok && n == 1 {
				cp.nulls = true
			}
		} else if !tp.complete {
			cp.nulls = true // unknown beyond the scan: do not claim never-NULL
		}
		if nonNull == 0 {
			cp.numeric, cp.integral = false, false
		}
		cp.nonNull = nonNull
		cp.distinct = !dup && nonNull >= distinctMin
		// Categorical: few values, each seen twice on average, or (text) up to four, one repeated.
		if n := len(cp.set); n > 0 && n <= closedMax && (nonNull >= 2*n || !cp.numeric && n <= 4 && nonNull > n) {
			cp.closed = true
			if !tp.complete { // complete the set beyond the scan
				for _, r := range d.query(ctx, fmt.Sprintf("SELECT DISTINCT %s FROM %s LIMIT %d", cols[ci], sqlscan.QuoteIdent(t.Name), closedMax+1), closedMax+1) {
					if r[0] != nil && !cp.set[valKey(r[0])] {
						cp.set[valKey(r[0])] = true
						cp.values = append(cp.values, r[0])
					}
				}
				cp.closed = len(cp.set) <= closedMax
			}
			if cp.closed {
				cp.domain = map[string]bool{}
				for k := range cp.set {
					cp.domain[k] = true
				}
			}
		}
		tp.cols = append(tp.cols, cp)
	}
	if tp.complete && tp.rows <= lookupMaxRows {
		tp.real = rows
	}
	return tp
}

// findInclusions keeps the declared foreign keys the data satisfies, and observes
// inclusions between a column and another table's key column named alike (x and x,
// gender_id and gender.id, StuID and Student.StuID) when every value is in the key.
func (p *profile) findInclusions(d *dbInfo) {
	seen := map[string]bool{}
	add := func(in inclusion) {
		k := strings.ToLower(in.child + "." + in.ccol + ">" + in.parent + "." + in.pcol)
		if !seen[k] {
			seen[k] = true
			p.incl = append(p.incl, in)
		}
	}
	for _, t := range d.schema.Tables {
		for i, fk := range t.ForeignKeys {
			if d.fkOK[key(t.Name, fmt.Sprint(i))] && len(fk.Columns) == 1 {
				add(inclusion{child: t.Name, ccol: fk.Columns[0], parent: d.schema.Table(fk.RefTable).Name, pcol: fk.RefColumns[0], declared: true})
			} else if desc := d.fkDirty[key(t.Name, fmt.Sprint(i))]; desc != "" {
				add(inclusion{child: t.Name, ccol: fk.Columns[0], parent: d.schema.Table(fk.RefTable).Name, pcol: fk.RefColumns[0], declared: true, dirty: desc})
			}
		}
	}
	for _, pt := range d.schema.Tables {
		ptp := p.tables[strings.ToLower(pt.Name)]
		if !ptp.complete {
			continue
		}
		for pi, pc := range ptp.cols {
			if pc.nulls || len(pc.set) != ptp.rows || ptp.rows == 0 { // a key: non-NULL, distinct
				continue
			}
			for _, ct := range d.schema.Tables {
				if strings.EqualFold(ct.Name, pt.Name) {
					continue
				}
				ctp := p.tables[strings.ToLower(ct.Name)]
				for ci, cc := range ctp.cols {
					if len(cc.set) == 0 || !namedAlike(cc.name, pt.Name, pc.name) {
						continue
					}
					if ctp.complete && subsetOf(cc.set, pc.set) {
						add(inclusion{child: ct.Name, ccol: ct.Columns[ci].Name, parent: pt.Name, pcol: pt.Columns[pi].Name})
					}
				}
			}
		}
	}
	sort.SliceStable(p.incl, func(i, j int) bool { return p.incl[i].declared && !p.incl[j].declared })
}

func namedAlike(child, parentTable, parentCol string) bool {
	c, t, k := strings.ToLower(child), strings.ToLower(parentTable), strings.ToLower(parentCol)
	// Two tables' own "id" columns share a name and nothing else.
	return c == k && k != "id" || c == t+"_"+k || c == t+k || k == "id" && (c == t+"_id" || c == t+"id")
}

func subsetOf(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// findLookups marks the lookup tables, whose rows are fixed facts: a variant holds only
// real rows of them. Two kinds qualify, both small and fully read:
//
//   - a code and a name: at most three columns, a distinct code column other tables
//     point at and a distinct text column beside it;
//   - a reference table (reference.go): a catalogue of named things and how they relate
//     (Spider car_1's car_makers, model_list, countries), every column an id, a name or
//     a pointer into another table, no measurement.
func (p *profile) findLookups(d *dbInfo) {
	pointed := map[string]bool{}
	for _, in := range p.incl {
		pointed[strings.ToLower(in.parent+"\x00"+in.pcol)] = true
	}
	for _, tp := range p.tables {
		if tp.real == nil || len(tp.cols) > 3 || len(tp.cols) < 2 || tp.rows == 0 {
			continue
		}
		code, name := false, false
		for _, c := range tp.cols {
			keyLike := !c.nulls && len(c.set) == tp.rows
			if keyLike && pointed[strings.ToLower(tp.name+"\x00"+c.name)] {
				code = true
			} else if keyLike && !c.numeric {
				name = true
			}
		}
		if code && name {
			tp.markLookup()
		}
	}
	p.findReferences(d)
}

func (tp *tableProfile) markLookup() {
	tp.lookup = true
	tp.realKey = map[string]bool{}
	for _, r := range tp.real {
		tp.realKey[rowKey(r)] = true
	}
}

func rowKey(r []any) string {
	var b strings.Builder
	for _, v := range r {
		b.WriteString(valKey(v))
		b.WriteByte(0)
	}
	return b.String()
}
