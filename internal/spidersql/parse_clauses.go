package spidersql

import (
	"fmt"
	"slices"
)

// parseFrom is parse_from: it starts at the first "from" at or after start (which, as in
// process_sql, may belong to a subquery written in the select list), reads table units
// joined by JOIN (commas are not understood) and collects ON conditions joined by "and".
// It returns the table names, in order, that bare column names are looked up in.
func (p *parser) parseFrom(toks []string, start int, from *From) (int, []string, error) {
	at := slices.Index(toks[start:], "from")
	if at < 0 {
		return start, nil, fmt.Errorf("%w: 'from' not found", ErrSyntax)
	}
	i := start + at + 1
	var defaults []string
	for i < len(toks) {
		block := toks[i] == "("
		if block {
			i++
		}
		t, err := tok(toks, i)
		if err != nil {
			return i, nil, err
		}
		if t == "select" {
			var sub *SQL
			if i, sub, err = p.parseSQL(toks, i); err != nil {
				return i, nil, err
			}
			from.Tables = append(from.Tables, TableUnit{Type: TableUnitSQL, SQL: sub})
		} else {
			if t == "join" {
				i++
			}
			var id, name string
			if i, id, name, err = p.parseTableUnit(toks, i); err != nil {
				return i, nil, err
			}
			from.Tables = append(from.Tables, TableUnit{Type: TableUnitTable, Table: id})
			defaults = append(defaults, name)
		}
		if i < len(toks) && toks[i] == "on" {
			var conds Condition
			if i, conds, err = p.parseCondition(toks, i+1, defaults); err != nil {
				return i, nil, fmt.Errorf("on: %w", err)
			}
			if len(from.Conds) > 0 {
				from.Conds = append(from.Conds, CondItem{Conj: "and"})
			}
			from.Conds = append(from.Conds, conds...)
		}
		if block {
			if i, err = expect(toks, i, ")"); err != nil {
				return i, nil, err
			}
		}
		if i < len(toks) && endsClause(toks[i]) {
			break
		}
	}
	return i, defaults, nil
}

// parseTableUnit is parse_table_unit: a table name or alias, optionally followed by
// "as alias". It returns the table's id and its (lowercased) name.
func (p *parser) parseTableUnit(toks []string, i int) (int, string, string, error) {
	t, err := tok(toks, i)
	if err != nil {
		return i, "", "", err
	}
	name, ok := p.alias(t)
	if !ok {
		return i, "", "", fmt.Errorf("%w: %q", ErrUnknownTable, t)
	}
	if i+1 < len(toks) && toks[i+1] == "as" {
		i += 3
	} else {
		i++
	}
	id, ok := p.schema.ID(name)
	if !ok {
		return i, "", "", fmt.Errorf("%w: %q", ErrUnknownTable, name)
	}
	return i, id, name, nil
}

// parseSelect is parse_select: an aggregate name directly before a value unit goes into
// SelectItem.Agg; items run up to the next clause keyword, commas being optional.
func (p *parser) parseSelect(toks []string, i int, defaults []string) (Select, error) {
	var sel Select
	i, err := expect(toks, i, "select")
	if err != nil {
		return sel, err
	}
	if i < len(toks) && toks[i] == "distinct" {
		i++
		sel.Distinct = true
	}
	for i < len(toks) && !isClauseKeyword(toks[i]) {
		agg := aggNone
		if a := slices.Index(AggOps, toks[i]); a >= 0 {
			agg = a
			i++
		}
		var vu ValUnit
		if i, vu, err = p.parseValUnit(toks, i, defaults); err != nil {
			return sel, err
		}
		sel.Items = append(sel.Items, SelectItem{Agg: agg, Val: vu})
		if i < len(toks) && toks[i] == "," {
			i++
		}
	}
	return sel, nil
}

// parseWhere is parse_where.
func (p *parser) parseWhere(toks []string, i int, defaults []string) (int, Condition, error) {
	if i >= len(toks) || toks[i] != "where" {
		return i, nil, nil
	}
	return p.parseCondition(toks, i+1, defaults)
}

// parseHaving is parse_having.
func (p *parser) parseHaving(toks []string, i int, defaults []string) (int, Condition, error) {
	if i >= len(toks) || toks[i] != "having" {
		return i, nil, nil
	}
	return p.parseCondition(toks, i+1, defaults)
}

// parseGroupBy is parse_group_by: column units separated by commas.
func (p *parser) parseGroupBy(toks []string, i int, defaults []string) (int, []ColUnit, error) {
	if i >= len(toks) || toks[i] != "group" {
		return i, nil, nil
	}
	i, err := expect(toks, i+1, "by")
	if err != nil {
		return i, nil, err
	}
	var cols []ColUnit
	for i < len(toks) && !endsClause(toks[i]) {
		var cu ColUnit
		if i, cu, err = p.parseColUnit(toks, i, defaults); err != nil {
			return i, nil, err
		}
		cols = append(cols, cu)
		if i < len(toks) && toks[i] == "," {
			i++
		} else {
			break
		}
	}
	return i, cols, nil
}

// parseOrderBy is parse_order_by: value units separated by commas; the direction kept is
// the last one written, "asc" by default.
func (p *parser) parseOrderBy(toks []string, i int, defaults []string) (int, *OrderBy, error) {
	if i >= len(toks) || toks[i] != "order" {
		return i, nil, nil
	}
	i, err := expect(toks, i+1, "by")
	if err != nil {
		return i, nil, err
	}
	ob := &OrderBy{Dir: "asc"}
	for i < len(toks) && !endsClause(toks[i]) {
		var vu ValUnit
		if i, vu, err = p.parseValUnit(toks, i, defaults); err != nil {
			return i, nil, err
		}
		ob.Units = append(ob.Units, vu)
		if i < len(toks) && slices.Contains(OrderOps, toks[i]) {
			ob.Dir = toks[i]
			i++
		}
		if i < len(toks) && toks[i] == "," {
			i++
		} else {
			break
		}
	}
	return i, ob, nil
}

// parseLimit is parse_limit: "limit" and the next token read as a Python int.
func parseLimit(toks []string, i int) (int, *int64, error) {
	if i >= len(toks) || toks[i] != "limit" {
		return i, nil, nil
	}
	i += 2
	t, err := tok(toks, i-1)
	if err != nil {
		return i, nil, err
	}
	n, ok := pyInt(t)
	if !ok {
		return i, nil, fmt.Errorf("%w: limit %q is not an integer", ErrSyntax, t)
	}
	return i, &n, nil
}
