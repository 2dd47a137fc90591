package spidersql

import (
	"context"
	"fmt"
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// maxDepth bounds subquery nesting. Python's recursion limit (1000 frames, about four per
// nesting level) makes process_sql fail somewhat below this, so no real query is refused.
const maxDepth = 250

// Parse parses sql against s into process_sql's structure (get_sql). Like get_sql it
// ignores tokens after the first complete statement (a trailing ")" or garbage). Every
// input process_sql rejects returns an error wrapping ErrParse; none panics.
func Parse(sql string, s *Schema) (*SQL, error) {
	return ParseContext(context.Background(), sql, s)
}

// ParseContext is Parse that stops when ctx is done (a long prediction parsed past its
// record's deadline frees its CPU), returning an error that wraps ctx.Err(). A query over
// sqlscan.MaxAnalysed bytes is not tokenized: its error wraps ErrParse and
// sqlscan.ErrTooLong (process_sql has no such limit, but no real query comes near it).
func ParseContext(ctx context.Context, sql string, s *Schema) (*SQL, error) {
	if err := sqlscan.TooLong(sql); err != nil {
		return nil, fmt.Errorf("parse: %w: %w", ErrParse, err)
	}
	if s == nil {
		s = NewSchema(nil)
	}
	toks, err := Tokenize(sql)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("parse: %w", ErrEmpty)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	aliases, err := tablesWithAlias(s, toks)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	p := &parser{ctx: ctx, schema: s, aliases: aliases}
	_, q, err := p.parseSQL(toks, 0)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	return q, nil
}

// HardnessOf parses sql against s and returns its Spider hardness.
func HardnessOf(sql string, s *Schema) (string, error) {
	q, err := Parse(sql, s)
	if err != nil {
		return "", err
	}
	return Hardness(q), nil
}

// parser holds what process_sql passes to every function: the schema and the alias map.
type parser struct {
	ctx     context.Context
	schema  *Schema
	aliases map[string]string // alias -> what it stands for (schema tables: see alias)
	depth   int
	steps   int // value units parsed, to look at ctx every so often (alive)
}

// alive returns ctx's error every 256th call, so a parse stops soon after its deadline
// without paying for a check per token.
func (p *parser) alive() error {
	p.steps++
	if p.steps&255 == 0 {
		return p.ctx.Err()
	}
	return nil
}

// tablesWithAlias maps every "X as Y" to Y -> X (column aliases included, as process_sql
// does); an alias equal to a table name is an error. process_sql's map also holds every
// schema table as itself; here those are looked up in the schema instead (alias), so a
// parse does not copy the whole schema into a map. The two can not overlap: that overlap
// is the error.
func tablesWithAlias(s *Schema, toks []string) (map[string]string, error) {
	var m map[string]string
	for i, t := range toks {
		if t != "as" {
			continue
		}
		if i+1 >= len(toks) {
			return nil, fmt.Errorf("%w: nothing after 'as'", ErrSyntax)
		}
		before := len(toks) - 1 // Python's toks[-1] when "as" comes first
		if i > 0 {
			before = i - 1
		}
		if m == nil {
			m = map[string]string{}
		}
		m[toks[i+1]] = toks[before]
	}
	for a := range m {
		if _, ok := s.tables[a]; ok {
			return nil, fmt.Errorf("%w: alias %q has the name of a table", ErrSyntax, a)
		}
	}
	return m, nil
}

// alias is what t stands for in the query: an alias's table (or column), a schema table
// itself; ok is false for anything else (process_sql's tables_with_alias lookup).
func (p *parser) alias(t string) (string, bool) {
	if v, ok := p.aliases[t]; ok {
		return v, true
	}
	if _, ok := p.schema.tables[t]; ok {
		return t, true
	}
	return "", false
}

// tok returns toks[i] or an error when the query ends first (Python's IndexError).
func tok(toks []string, i int) (string, error) {
	if i < 0 || i >= len(toks) {
		return "", fmt.Errorf("%w: query ends early", ErrSyntax)
	}
	return toks[i], nil
}

// openParen reads toks[i] and steps past it when it opens an optional parenthesised
// block; block says whether it did, so the caller closes the block with expect.
func openParen(toks []string, i int) (next int, block bool, err error) {
	t, err := tok(toks, i)
	if err != nil {
		return i, false, err
	}
	if t == "(" {
		return i + 1, true, nil
	}
	return i, false, nil
}

// expect consumes toks[i] when it is want.
func expect(toks []string, i int, want string) (int, error) {
	t, err := tok(toks, i)
	if err != nil {
		return i, fmt.Errorf("%w: expected %q", err, want)
	}
	if t != want {
		return i, fmt.Errorf("%w: expected %q, found %q", ErrSyntax, want, t)
	}
	return i + 1, nil
}

func isClauseKeyword(t string) bool { return slices.Contains(ClauseKeywords, t) }
func isJoinKeyword(t string) bool   { return slices.Contains(JoinKeywords, t) }

// endsClause reports the tokens at which group by, order by, FROM and conditions stop.
func endsClause(t string) bool { return isClauseKeyword(t) || t == ")" || t == ";" }

// parseSQL is process_sql's parse_sql: FROM first (it gives the default tables for bare
// column names), then SELECT, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT and one set operation.
func (p *parser) parseSQL(toks []string, start int) (int, *SQL, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return start, nil, ErrTooDeep
	}
	if err := p.ctx.Err(); err != nil {
		return start, nil, err
	}
	i, block, err := openParen(toks, start)
	if err != nil {
		return i, nil, err
	}
	q := &SQL{}
	fromEnd, defaults, err := p.parseFrom(toks, start, &q.From)
	if err != nil {
		return i, nil, fmt.Errorf("from: %w", err)
	}
	if q.Select, err = p.parseSelect(toks, i, defaults); err != nil {
		return i, nil, fmt.Errorf("select: %w", err)
	}
	i = fromEnd
	if i, q.Where, err = p.parseWhere(toks, i, defaults); err != nil {
		return i, nil, fmt.Errorf("where: %w", err)
	}
	if i, q.GroupBy, err = p.parseGroupBy(toks, i, defaults); err != nil {
		return i, nil, fmt.Errorf("group by: %w", err)
	}
	if i, q.Having, err = p.parseHaving(toks, i, defaults); err != nil {
		return i, nil, fmt.Errorf("having: %w", err)
	}
	if i, q.OrderBy, err = p.parseOrderBy(toks, i, defaults); err != nil {
		return i, nil, fmt.Errorf("order by: %w", err)
	}
	if i, q.Limit, err = parseLimit(toks, i); err != nil {
		return i, nil, fmt.Errorf("limit: %w", err)
	}
	i = skipSemicolons(toks, i)
	if block {
		if i, err = expect(toks, i, ")"); err != nil {
			return i, nil, err
		}
	}
	i = skipSemicolons(toks, i)
	if i < len(toks) && slices.Contains(SQLOps, toks[i]) {
		op := toks[i]
		var sub *SQL
		if i, sub, err = p.parseSQL(toks, i+1); err != nil {
			return i, nil, fmt.Errorf("%s: %w", op, err)
		}
		switch op {
		case "intersect":
			q.Intersect = sub
		case "union":
			q.Union = sub
		case "except":
			q.Except = sub
		}
	}
	return i, q, nil
}

func skipSemicolons(toks []string, i int) int {
	for i < len(toks) && toks[i] == ";" {
		i++
	}
	return i
}
