package spidersql

import (
	"fmt"
	"slices"
	"strings"
)

// parseCol is parse_col: "*", "alias.column", or a bare column looked up in the FROM tables
// in order (the first table that has it wins).
func (p *parser) parseCol(toks []string, i int, defaults []string) (int, string, error) {
	t, err := tok(toks, i)
	if err != nil {
		return i, "", err
	}
	if t == "*" {
		return i + 1, "__all__", nil
	}
	if strings.Contains(t, ".") {
		parts := strings.Split(t, ".")
		if len(parts) != 2 {
			return i, "", fmt.Errorf("%w: %q", ErrUnknownColumn, t)
		}
		table, ok := p.alias(parts[0])
		if !ok {
			return i, "", fmt.Errorf("%w: %q in %q", ErrUnknownTable, parts[0], t)
		}
		id, ok := p.schema.ID(table + "." + parts[1])
		if !ok {
			return i, "", fmt.Errorf("%w: %q", ErrUnknownColumn, t)
		}
		return i + 1, id, nil
	}
	if len(defaults) == 0 {
		return i, "", fmt.Errorf("%w: %q (no FROM table to look it up in)", ErrUnknownColumn, t)
	}
	for _, alias := range defaults {
		table, ok := p.alias(alias)
		if !ok {
			return i, "", fmt.Errorf("%w: %q", ErrUnknownTable, alias)
		}
		cols, ok := p.schema.Columns(table)
		if !ok {
			return i, "", fmt.Errorf("%w: %q", ErrUnknownTable, table)
		}
		if slices.Contains(cols, t) {
			id, _ := p.schema.ID(table + "." + t)
			return i + 1, id, nil
		}
	}
	return i, "", fmt.Errorf("%w: %q", ErrUnknownColumn, t)
}

// parseColUnit is parse_col_unit: [ "(" ] ( agg "(" [distinct] col ")" | [distinct] col [ ")" ] ).
// As in process_sql, an opening "(" before an aggregate is not closed here.
func (p *parser) parseColUnit(toks []string, i int, defaults []string) (int, ColUnit, error) {
	var cu ColUnit
	i, block, err := openParen(toks, i)
	if err != nil {
		return i, cu, err
	}
	t, err := tok(toks, i)
	if err != nil {
		return i, cu, err
	}
	agg := slices.Index(AggOps, t)
	if agg >= 0 {
		cu.Agg = agg
		if i, err = expect(toks, i+1, "("); err != nil {
			return i, cu, err
		}
		if t, err = tok(toks, i); err != nil {
			return i, cu, err
		}
	}
	if t == "distinct" {
		i++
		cu.Distinct = true
	}
	if i, cu.ColID, err = p.parseCol(toks, i, defaults); err != nil {
		return i, cu, err
	}
	// One ")" closes the aggregate's "(", or else the opening one.
	if agg >= 0 || block {
		i, err = expect(toks, i, ")")
	}
	return i, cu, err
}

// parseValUnit is parse_val_unit: [ "(" ] col_unit [ unit_op col_unit ] [ ")" ].
func (p *parser) parseValUnit(toks []string, i int, defaults []string) (int, ValUnit, error) {
	var vu ValUnit
	if err := p.alive(); err != nil {
		return i, vu, err
	}
	i, block, err := openParen(toks, i)
	if err != nil {
		return i, vu, err
	}
	if i, vu.Col1, err = p.parseColUnit(toks, i, defaults); err != nil {
		return i, vu, err
	}
	if i < len(toks) {
		if op := slices.Index(UnitOps, toks[i]); op >= 0 {
			vu.Op = op
			var c2 ColUnit
			if i, c2, err = p.parseColUnit(toks, i+1, defaults); err != nil {
				return i, vu, err
			}
			vu.Col2 = &c2
		}
	}
	if block {
		i, err = expect(toks, i, ")")
	}
	return i, vu, err
}

// parseValue is parse_value: a subquery, a quoted string, a number (Python float syntax),
// or else a column unit read from the tokens up to the next ",", ")", "and", clause or join
// keyword. As in process_sql, that last slice starts at the value's first token (an
// opening "(" included) and whatever the column unit leaves of it is skipped.
func (p *parser) parseValue(toks []string, i int, defaults []string) (int, *Value, error) {
	start := i
	i, block, err := openParen(toks, i)
	if err != nil {
		return i, nil, err
	}
	t, err := tok(toks, i)
	if err != nil {
		return i, nil, err
	}
	var v *Value
	switch {
	case t == "select":
		var sub *SQL
		if i, sub, err = p.parseSQL(toks, i); err != nil {
			return i, nil, err
		}
		v = &Value{Kind: ValueSQL, SQL: sub}
	case strings.Contains(t, `"`):
		v = &Value{Kind: ValueString, Str: t}
		i++
	default:
		if f, ok := pyFloat(t); ok {
			v = &Value{Kind: ValueNumber, Number: f}
			i++
			break
		}
		end := i
		for end < len(toks) && !endsValue(toks[end]) {
			end++
		}
		var cu ColUnit
		if _, cu, err = p.parseColUnit(toks[start:end], 0, defaults); err != nil {
			return i, nil, err
		}
		v = &Value{Kind: ValueColumn, Col: cu}
		i = end
	}
	if block {
		if i, err = expect(toks, i, ")"); err != nil {
			return i, nil, err
		}
	}
	return i, v, nil
}

func endsValue(t string) bool {
	return t == "," || t == ")" || t == "and" || isClauseKeyword(t) || isJoinKeyword(t)
}

// parseCondition is parse_condition: val_unit [not] op value [and value], joined by
// "and"/"or", up to a clause or join keyword, ")" or ";". Like process_sql it does not
// require a conjunction between two units (the list then loses its alternation).
func (p *parser) parseCondition(toks []string, i int, defaults []string) (int, Condition, error) {
	var conds Condition
	for i < len(toks) {
		cu := &CondUnit{}
		var err error
		if i, cu.Val, err = p.parseValUnit(toks, i, defaults); err != nil {
			return i, nil, err
		}
		t, err := tok(toks, i)
		if err != nil {
			return i, nil, err
		}
		if t == "not" {
			cu.Not = true
			i++
		}
		t, err = tok(toks, i)
		if err != nil {
			return i, nil, fmt.Errorf("%w: missing condition operator", err)
		}
		op := slices.Index(WhereOps, t)
		if op < 0 {
			return i, nil, fmt.Errorf("%w: %q is not a condition operator", ErrSyntax, t)
		}
		cu.Op = op
		i++
		if i, cu.Val1, err = p.parseValue(toks, i, defaults); err != nil {
			return i, nil, err
		}
		if WhereOps[op] == "between" {
			if i, err = expect(toks, i, "and"); err != nil {
				return i, nil, err
			}
			if i, cu.Val2, err = p.parseValue(toks, i, defaults); err != nil {
				return i, nil, err
			}
		}
		conds = append(conds, CondItem{Unit: cu})
		if i < len(toks) && (endsClause(toks[i]) || isJoinKeyword(toks[i])) {
			break
		}
		if i < len(toks) && slices.Contains(CondOps, toks[i]) {
			conds = append(conds, CondItem{Conj: toks[i]})
			i++
		}
	}
	return i, conds, nil
}
