package counterex

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// script renders a counterexample as a standalone SQLite script: foreign keys on, the
// variant's tables (types, collations, keys, enforced foreign keys), then its rows,
// parents first. The queries it separates are in its header comment, for a reader.
func script(sp *spec, in instance, golds []string, pred string, sem judge.Semantics, mode judge.SpiderMode) string {
	var b strings.Builder
	b.WriteString("-- nl2sqlbench counterexample database: on it the prediction's result differs from the gold's\n")
	if sem == judge.Spider && mode == judge.SpiderCorrected {
		fmt.Fprintf(&b, "-- under %s semantics, %s.\n", sem, correctedMark)
	} else {
		fmt.Fprintf(&b, "-- under %s semantics.\n", sem)
	}
	for _, g := range golds {
		fmt.Fprintf(&b, "-- gold: %s\n", oneLine(g))
	}
	fmt.Fprintf(&b, "-- pred: %s\n", oneLine(pred))
	b.WriteString("PRAGMA foreign_keys = ON;\n")
	for _, ts := range sp.tables {
		b.WriteString(ts.ddl)
		b.WriteString(";\n")
	}
	for ti, ts := range sp.tables {
		for _, row := range in[ti] {
			var names, vals []string
			for ci, c := range ts.cols {
				names = append(names, sqlscan.QuoteIdent(c.name))
				vals = append(vals, sqlLiteral(row[ci]))
			}
			fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES (%s);\n", sqlscan.QuoteIdent(ts.t.Name), strings.Join(names, ", "), strings.Join(vals, ", "))
		}
	}
	return b.String()
}

// correctedMark in a script's header says the run used --spider-mode corrected.
const correctedMark = "--spider-mode corrected"

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// sqlLiteral writes v so that SQLite reads back the same value and storage class.
func sqlLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return "NULL"
		case math.IsInf(x, 1):
			return "9e999"
		case math.IsInf(x, -1):
			return "-9e999"
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case string:
		if utf8.ValidString(x) && !strings.ContainsRune(x, 0) {
			return sqlscan.QuoteString(x)
		}
		return "CAST(X'" + hex.EncodeToString([]byte(x)) + "' AS TEXT)"
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	}
	return sqlscan.QuoteString(fmt.Sprint(v))
}

// Verification errors.
var (
	ErrNotReproduced = errors.New("counterexample does not reproduce: the results are equal")
	ErrConstraint    = errors.New("counterexample breaks its schema's constraints")
)

// Verify loads a counterexample script into a fresh in-memory database with foreign
// keys enforced, checks that every constraint holds (PRAGMA foreign_key_check finds
// nothing; keys and NOT NULL were enforced by the inserts), and runs the queries under
// sem. It returns both results (the first gold's) when the prediction matches none of
// golds, ErrNotReproduced when it matches one, ErrConstraint when the data is invalid.
//
// The script may come from someone else's run directory, so it is loaded by
// engine.LoadScript (tables and inserts only, nothing attached or loaded, bounded in time
// and size): a statement outside that is engine.ErrScriptRefused.
func Verify(ctx context.Context, text string, golds []string, pred string, sem judge.Semantics) (gold, predRes *engine.Result, err error) {
	s, err := engine.LoadScript(ctx, text, engine.ScriptLimits{})
	if err != nil {
		var dbe *engine.DBError
		if errors.As(err, &dbe) {
			return nil, nil, fmt.Errorf("%w: %v", ErrConstraint, err)
		}
		return nil, nil, fmt.Errorf("load script: %w", err)
	}
	defer s.Close()
	bad, err := s.Query(ctx, "PRAGMA foreign_key_check", queryLimits)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrConstraint, err)
	}
	if bad.NumRows() > 0 {
		return nil, nil, fmt.Errorf("%w: PRAGMA foreign_key_check reports a violation", ErrConstraint)
	}
	mode := judge.SpiderOfficial
	if head, _, _ := strings.Cut(text, "PRAGMA"); strings.Contains(head, correctedMark) {
		mode = judge.SpiderCorrected // the run judged without the official rewrite
	}
	p := newPair(sem, mode, golds, pred)
	err = s.Raw(func(c *sqlite3.SQLiteConn) error {
		o, err := p.run(ctx, &sandbox{c: c})
		if err != nil {
			return err
		}
		if !p.differs(o) {
			return ErrNotReproduced
		}
		gold, predRes = o.golds[0], o.pred
		return nil
	})
	return gold, predRes, err
}
