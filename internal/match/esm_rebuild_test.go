package match

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// keyAlone writes one key by itself, as norm did before it cut all of a query's keys from
// one buffer.
func keyAlone(r *rebuilder, write func()) string {
	r.buf = r.buf[:0]
	write()
	return string(r.buf)
}

// normAlone is norm with every key written alone: the oracle for the one-buffer cuts.
func normAlone(r *rebuilder, q *spidersql.SQL) *normSQL {
	drop := !r.opt.Values
	n := &normSQL{}
	for _, it := range q.Select.Items {
		n.sel = append(n.sel, keyAlone(r, func() { r.selItem(it, true) }))
		n.selVal = append(n.selVal, keyAlone(r, func() { r.valUnit(it.Val, true) }))
	}
	for _, cu := range q.Where.Units() {
		n.where = append(n.where, keyAlone(r, func() { r.condUnit(cu, true, drop) }))
		n.whereVal = append(n.whereVal, keyAlone(r, func() { r.valUnit(cu.Val, true) }))
	}
	n.having = keyAlone(r, func() { r.condition(q.Having, true, drop) })
	if q.OrderBy != nil {
		n.order = keyAlone(r, func() { r.orderBy(q.OrderBy, true) })
	}
	for _, tu := range q.From.Tables {
		n.tables = append(n.tables, keyAlone(r, func() { r.tableUnit(tu) }))
	}
	slices.Sort(n.tables)
	for i, sub := range []*spidersql.SQL{q.Intersect, q.Except, q.Union} {
		if sub != nil {
			n.sets[i] = normAlone(r, sub)
		}
	}
	return n
}

func sameKeys(tb testing.TB, sql string, got, want *normSQL) {
	tb.Helper()
	if (got == nil) != (want == nil) {
		tb.Fatalf("%s: set operand present %v, oracle %v", sql, got != nil, want != nil)
	}
	if got == nil {
		return
	}
	for _, p := range []struct {
		name      string
		got, want []string
	}{{"sel", got.sel, want.sel}, {"selVal", got.selVal, want.selVal}, {"where", got.where, want.where},
		{"whereVal", got.whereVal, want.whereVal}, {"tables", got.tables, want.tables}} {
		if !slices.Equal(p.got, p.want) || (p.got == nil) != (p.want == nil) {
			tb.Fatalf("%s: %s = %q, oracle %q", sql, p.name, p.got, p.want)
		}
	}
	if got.having != want.having || got.order != want.order {
		tb.Fatalf("%s: having/order %q %q, oracle %q %q", sql, got.having, got.order, want.having, want.order)
	}
	for i := range got.sets {
		sameKeys(tb, sql, got.sets[i], want.sets[i])
	}
}

// TestNormKeysMatchAlone: norm's keys, cut from one buffer, are the keys each writer gives
// alone, in their places, through rebuild's reused rebuilders (with the foreign-key map,
// which reads the FROM tables), for every Spider dev gold query and every prediction of one
// system, with and without values.
func TestNormKeysMatchAlone(t *testing.T) {
	dev := testutil.SpiderDev(t)
	preds := testutil.SpiderPredictions(t, "DAIL")
	ctx := context.Background()
	schemas := map[string]*spidersql.Schema{}
	fks, err := ReadFKMaps(testutil.Shared(t, "data/spider/tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, q := range dev {
		path := testutil.SpiderDB(t, q.DBID)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		s := schemas[path]
		if s == nil {
			var err error
			if s, err = SchemaFromSQLite(ctx, path); err != nil {
				t.Fatal(err)
			}
			schemas[path] = s
		}
		texts := []string{q.Query}
		if i < len(preds) {
			texts = append(texts, PredText(strings.TrimSpace(preds[i])))
		}
		for _, text := range texts {
			parsed, err := spidersql.Parse(text, s)
			if err != nil {
				continue
			}
			for _, opt := range []Options{{}, {Values: true, Distinct: true}} {
				got := rebuild(parsed, fks[q.DBID], opt) // a pooled rebuilder, left dirty by the query before
				want := normAlone(newRebuilder(parsed, fks[q.DBID], opt), parsed)
				sameKeys(t, text, got, want)
				if got.hasOrder != (parsed.OrderBy != nil) {
					t.Fatalf("%s: hasOrder %v", text, got.hasOrder)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d rebuilt queries compared", n)
	}
	t.Logf("%d rebuilt queries compared", n)
}

// TestRebuilderReset: a reused rebuilder (rebuild's pool) reads the FROM tables of the new
// query only, not those of the query it rebuilt before, and starts with empty buffers.
func TestRebuilderReset(t *testing.T) {
	s := spidersql.NewSchema(map[string][]string{"a": {"x"}, "b": {"y"}, "c": {"z"}})
	parse := func(sql string) *spidersql.SQL {
		q, err := spidersql.Parse(sql, s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	first, second := parse("SELECT a.x FROM a JOIN b ON a.x = b.y"), parse("SELECT z FROM c")
	r := newRebuilder(first, nil, Options{})
	r.norm(first)
	r.reset(second, nil, Options{})
	if want := newRebuilder(second, nil, Options{}).tables; !slices.Equal(r.tables, want) {
		t.Fatalf("tables after reset = %q, want %q", r.tables, want)
	}
	if len(r.buf) != 0 || len(r.ends) != 0 {
		t.Fatalf("buffers after reset: %d bytes, %d ends", len(r.buf), len(r.ends))
	}
}

// newRebuilder is a fresh rebuilder readied for q, outside the pool: the tests' reference
// for what rebuild's pooled, reused ones must give.
func newRebuilder(q *spidersql.SQL, fk FKMap, opt Options) *rebuilder {
	r := &rebuilder{}
	r.reset(q, fk, opt)
	return r
}
