package counterex

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// Reference tables: a small catalogue of named things and how they relate, such as
// Spider car_1's car_makers (Id, Maker, FullName, Country), model_list (ModelId, Maker,
// Model) and countries (CountryId, CountryName, Continent). Its rows are facts of the
// world the questions ask about ("the model volvo is made by the maker volvo, a Swedish
// company"), not measurements a question may vary: an expert reading "the volvos" as
// the cars of the maker volvo, or of the model volvo, gives the same answer because the
// catalogue says so. A variant that pairs the model volvo with the maker nissan refutes
// nothing an expert accepts (Spider dev #138, DAIL); it is a robustness finding.
//
// A table is a reference table when the profile read all of it, it has at most
// lookupMaxRows rows, another table points at it (a foreign key, declared even where
// the data breaks it, or an observed inclusion), it has a name (a text column, never
// NULL, distinct), and every column is one of:
//   - a name: text, never NULL, distinct over at least distinctMin rows (in a table of
//     seven teachers every hometown differs by chance);
//   - an id: its declared primary key or a column pointed at, never NULL, distinct;
//   - a pointer: a column of a declared foreign key or an observed inclusion.
//
// One measurement (a number that is neither an id nor a pointer, a text column with
// repeats or NULLs) and the table is data, not a catalogue: a question may ask about
// ties, NULLs or new values there, and the rule leaves it alone.
//
// A reference table's rows keep their references, as the lookup rule keeps them for
// its rows: a declared foreign key from it that the data breaks (model_list.Maker ->
// car_makers.Id, broken by the model 'hi' of a maker 10 that car_makers lacks) holds
// for every value but the ones the data itself leaves dangling (inclusion.except).

// findReferences marks the reference tables as lookup tables and adds the inclusions
// their declared foreign keys keep.
func (p *profile) findReferences(d *dbInfo) {
	pointed, pointing := map[string]bool{}, map[string]bool{}
	for _, in := range p.incl {
		pointed[key(in.parent, in.pcol)] = true
		pointing[key(in.child, in.ccol)] = true
	}
	for _, t := range d.schema.Tables {
		for _, fk := range t.ForeignKeys {
			if len(fk.Columns) == 1 && len(fk.RefColumns) == 1 && !strings.EqualFold(fk.RefTable, t.Name) {
				pointed[key(fk.RefTable, fk.RefColumns[0])] = true
				pointing[key(t.Name, fk.Columns[0])] = true
			}
		}
	}
	for _, t := range d.schema.Tables {
		tp := p.tables[strings.ToLower(t.Name)]
		if tp == nil || tp.lookup || tp.real == nil || tp.rows == 0 || len(tp.cols) < 2 || len(tp.cols) != len(t.Columns) {
			continue
		}
		pk := map[string]bool{}
		for _, c := range t.PrimaryKey {
			pk[strings.ToLower(c)] = true
		}
		isPointed, named, ok := false, false, true
		for _, c := range tp.cols {
			keyLike := !c.nulls && len(c.set) == tp.rows
			isPointed = isPointed || pointed[key(tp.name, c.name)]
			switch {
			case keyLike && !c.numeric && c.distinct: // distinct among distinctMin rows or more, not by chance
				named = true
			case keyLike && (pk[strings.ToLower(c.name)] || pointed[key(tp.name, c.name)]):
			case pointing[key(tp.name, c.name)]:
			default:
				ok = false
			}
		}
		if ok && isPointed && named {
			tp.markLookup()
			tp.reference = true
		}
	}
	p.referenceInclusions(d)
}

// referenceInclusions adds, for every declared single-column foreign key from a
// reference table that the profile does not keep already, an inclusion that holds for
// every value but those the data leaves dangling.
func (p *profile) referenceInclusions(d *dbInfo) {
	have := map[string]bool{}
	for _, in := range p.incl {
		have[key(in.child+"."+in.ccol, in.parent+"."+in.pcol)] = true
	}
	for _, t := range d.schema.Tables {
		ctp := p.tables[strings.ToLower(t.Name)]
		if ctp == nil || !ctp.reference {
			continue
		}
		for _, fk := range t.ForeignKeys {
			pt := d.schema.Table(fk.RefTable)
			if len(fk.Columns) != 1 || len(fk.RefColumns) != 1 || pt == nil || strings.EqualFold(pt.Name, t.Name) {
				continue
			}
			ptp := p.tables[strings.ToLower(pt.Name)]
			cc, pc := ctp.col(fk.Columns[0]), ptp.col(fk.RefColumns[0])
			if ptp == nil || !ptp.complete || cc == nil || pc == nil || len(pc.set) != ptp.rows || pc.nulls ||
				have[key(t.Name+"."+cc.name, pt.Name+"."+pc.name)] {
				continue
			}
			except := map[string]bool{}
			for k := range cc.set {
				if !pc.set[k] {
					except[k] = true
				}
			}
			if len(except) == len(cc.set) {
				continue // no value matches (text against numbers, say): nothing to keep
			}
			var bad []string
			for k := range except {
				bad = append(bad, strings.SplitN(k, ":", 2)[1])
			}
			sort.Strings(bad)
			p.incl = append(p.incl, inclusion{child: t.Name, ccol: cc.name, parent: pt.Name, pcol: pc.name, declared: true, except: except,
				dirty: fmt.Sprintf("declared foreign key of the reference table %s; only the data's own dangling %s may dangle", t.Name, strings.Join(bad, ", "))})
		}
	}
}

// col is the profile of the column named name, or nil.
func (tp *tableProfile) col(name string) *colProfile {
	if tp == nil {
		return nil
	}
	for i := range tp.cols {
		if strings.EqualFold(tp.cols[i].name, name) {
			return &tp.cols[i]
		}
	}
	return nil
}

// closeLookups adds to in the real parent rows its lookup tables' rows point at, where
// the parent is a lookup table too and the data has the row: the model volvo's row
// brings its maker's. Fixed facts stay whole. It adds rows only, so the random draws
// before it are unchanged.
func (rl *realism) closeLookups(in instance) {
	type edge struct{ child, ccol, parent, pcol int }
	var edges []edge
	for ti, ts := range rl.sp.tables {
		for _, fk := range ts.fks {
			if len(fk.cols) == 1 {
				edges = append(edges, edge{ti, fk.cols[0], fk.parent, fk.pcols[0]})
			}
		}
	}
	for _, is := range rl.incl {
		if is.parent >= 0 {
			edges = append(edges, edge{is.child, is.ccol, is.parent, is.pcol})
		}
	}
	for round := 0; round < len(rl.sp.tables); round++ {
		changed := false
		for _, e := range edges {
			ctp, ptp := rl.tps[e.child], rl.tps[e.parent]
			if ctp == nil || ptp == nil || !ctp.lookup || !ptp.lookup || e.ccol >= len(ctp.cols) || e.pcol >= len(ptp.cols) {
				continue
			}
			present := map[string]bool{}
			for _, r := range in[e.parent] {
				present[looseKey(r[e.pcol])] = true
			}
			for _, r := range in[e.child] {
				v := r[e.ccol]
				if v == nil || present[looseKey(v)] {
					continue
				}
				for _, real := range ptp.real {
					if looseKey(real[e.pcol]) == looseKey(v) {
						in[e.parent] = append(in[e.parent], append([]any(nil), real...))
						present[looseKey(v)], changed = true, true
						break
					}
				}
			}
		}
		if !changed {
			return
		}
	}
}

// looseKey is v's identity as a foreign key compares it: text that reads as a number
// ('4' in car_makers.Country) matches the number (countries.CountryId 4).
func looseKey(v any) string {
	if s, ok := v.(string); ok {
		if f, ok := numberOf(fit(s, dbschema.AffinityReal)); ok {
			return valKey(f)
		}
	}
	return valKey(v)
}
