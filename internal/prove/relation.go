package prove

import "strings"

// colName is how an expression names a column of a relation: its table (or alias) and
// its own name, both lowercased; qual is "" for a subquery's unnamed outputs.
type colName struct{ qual, name string }

// tuple is one possible row: present when ex holds.
type tuple struct {
	ex    string
	vals  []value
	rank  string // Int term: rows before it in ORDER BY order ("" when unordered)
	first string // Bool: it may be the first row (a scalar subquery's value); "" means ex
}

// relation is a bag of possible rows with named columns.
type relation struct {
	cols  []colName
	kinds []Kind
	rows  []tuple
}

// env is the context an expression is evaluated in: one row of a relation, the
// enclosing query's env (correlated subqueries), and, in an aggregate query, the group.
type env struct {
	cols  []colName
	vals  []value
	outer *env
	grp   *group
	// aliases are the SELECT list's names, which WHERE, GROUP BY, HAVING and ORDER BY may
	// use when no column has the name (SQLite's rule).
	aliases map[string]aliasDef
}

type aliasDef struct {
	e     exprNode
	inEnv *env
}

// lookup finds a column by qualifier (may be "") and name in e, then outward.
func (e *env) lookup(qual, name string) (value, bool, error) {
	qual, name = strings.ToLower(qual), strings.ToLower(name)
	for s := e; s != nil; s = s.outer {
		found := -1
		for i, c := range s.cols {
			if c.name == name && (qual == "" || c.qual == qual) {
				if found >= 0 && qual == "" {
					return value{}, false, unsupported("ambiguous column %s", name)
				}
				if found < 0 {
					found = i
				}
			}
		}
		if found >= 0 {
			v, err := s.at(found)
			return v, err == nil, err
		}
	}
	return value{}, false, nil
}

// at is column i of e's row (in a group: the group's value of it).
func (e *env) at(i int) (value, error) {
	v := value{}
	var err error
	if e.grp != nil {
		v, err = e.grp.column(i)
	} else {
		v = e.vals[i]
	}
	if err == nil && v.k == KindNone {
		err = unsupported("column %s of unmodelled type (blob, mixed or a collation)", e.cols[i].name)
	}
	return v, err
}

// alias finds a SELECT-list alias visible from e (its own query only).
func (e *env) alias(name string) (aliasDef, bool) {
	a, ok := e.aliases[strings.ToLower(name)]
	return a, ok && a.e != nil
}

// withoutAlias is e with one alias hidden, so an alias naming itself does not recurse.
func (e *env) withoutAlias(name string) *env {
	c := *e
	c.aliases = map[string]aliasDef{}
	for k, v := range e.aliases {
		if k != strings.ToLower(name) {
			c.aliases[k] = v
		}
	}
	return &c
}
