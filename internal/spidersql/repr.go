package spidersql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/nl2sqlbench/nl2sqlbench/internal/pyrepr"
)

// String prints the parse as Python prints process_sql's dict (same keys, key order,
// tuples, True/False/None, float and string reprs), so a parse can be compared by eye or
// by text with the reference's output.
func (q *SQL) String() string {
	var b strings.Builder
	writeSQL(&b, q)
	return b.String()
}

func writeSQL(b *strings.Builder, q *SQL) {
	if q == nil {
		b.WriteString("None")
		return
	}
	b.WriteString("{'from': {'table_units': [")
	for i, tu := range q.From.Tables {
		sep(b, i)
		if tu.Type == TableUnitSQL {
			b.WriteString("('sql', ")
			writeSQL(b, tu.SQL)
			b.WriteString(")")
		} else {
			fmt.Fprintf(b, "('table_unit', %s)", pyStr(tu.Table))
		}
	}
	b.WriteString("], 'conds': ")
	writeCond(b, q.From.Conds)
	fmt.Fprintf(b, "}, 'select': (%s, [", pyBool(q.Select.Distinct))
	for i, it := range q.Select.Items {
		sep(b, i)
		fmt.Fprintf(b, "(%d, ", it.Agg)
		writeValUnit(b, it.Val)
		b.WriteString(")")
	}
	b.WriteString("]), 'where': ")
	writeCond(b, q.Where)
	b.WriteString(", 'groupBy': [")
	for i, cu := range q.GroupBy {
		sep(b, i)
		writeColUnit(b, cu)
	}
	b.WriteString("], 'having': ")
	writeCond(b, q.Having)
	b.WriteString(", 'orderBy': ")
	if q.OrderBy == nil {
		b.WriteString("[]")
	} else {
		fmt.Fprintf(b, "(%s, [", pyStr(q.OrderBy.Dir))
		for i, vu := range q.OrderBy.Units {
			sep(b, i)
			writeValUnit(b, vu)
		}
		b.WriteString("])")
	}
	b.WriteString(", 'limit': ")
	if q.Limit == nil {
		b.WriteString("None")
	} else {
		b.WriteString(strconv.FormatInt(*q.Limit, 10))
	}
	for _, op := range []struct {
		name string
		sub  *SQL
	}{{"intersect", q.Intersect}, {"union", q.Union}, {"except", q.Except}} {
		fmt.Fprintf(b, ", '%s': ", op.name)
		writeSQL(b, op.sub)
	}
	b.WriteString("}")
}

func writeCond(b *strings.Builder, c Condition) {
	b.WriteString("[")
	for i, it := range c {
		sep(b, i)
		if it.Unit == nil {
			b.WriteString(pyStr(it.Conj))
			continue
		}
		u := it.Unit
		fmt.Fprintf(b, "(%s, %d, ", pyBool(u.Not), u.Op)
		writeValUnit(b, u.Val)
		b.WriteString(", ")
		writeValue(b, u.Val1)
		b.WriteString(", ")
		writeValue(b, u.Val2)
		b.WriteString(")")
	}
	b.WriteString("]")
}

func writeValue(b *strings.Builder, v *Value) {
	switch {
	case v == nil:
		b.WriteString("None")
	case v.Kind == ValueNumber:
		b.WriteString(pyrepr.Float(v.Number))
	case v.Kind == ValueString:
		b.WriteString(pyStr(v.Str))
	case v.Kind == ValueSQL:
		writeSQL(b, v.SQL)
	default:
		writeColUnit(b, v.Col)
	}
}

func writeValUnit(b *strings.Builder, vu ValUnit) {
	fmt.Fprintf(b, "(%d, ", vu.Op)
	writeColUnit(b, vu.Col1)
	b.WriteString(", ")
	if vu.Col2 == nil {
		b.WriteString("None")
	} else {
		writeColUnit(b, *vu.Col2)
	}
	b.WriteString(")")
}

func writeColUnit(b *strings.Builder, cu ColUnit) {
	fmt.Fprintf(b, "(%d, %s, %s)", cu.Agg, pyStr(cu.ColID), pyBool(cu.Distinct))
}

func sep(b *strings.Builder, i int) {
	if i > 0 {
		b.WriteString(", ")
	}
}

func pyBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

// pyStr is Python's repr of a str.
func pyStr(s string) string {
	quote := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == '\\' || r == rune(quote):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsPrint(r): // same set as Python's str.isprintable
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}
