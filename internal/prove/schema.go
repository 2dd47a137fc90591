package prove

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsupported marks a query outside the encoded subset: the answer is Unknown.
var ErrUnsupported = errors.New("outside the proof subset")

func unsupported(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, a...))
}

// Kind is how a column's values are modelled.
type Kind int

// The kinds: KindNone columns cannot be read by a proof (blobs, mixed types).
const (
	KindNone Kind = iota
	KindNum       // numbers (integers and reals), modelled as reals
	KindText      // text under binary collation, modelled as ordered symbols
	kindNull      // the NULL literal: compatible with every kind
	kindRank      // a row's rank under ORDER BY (an Int term)
)

// Column is one column of a table.
type Column struct {
	Name    string
	Kind    Kind
	NotNull bool
	// Domain, when not nil, is a closed domain: every non-NULL value is one of these
	// (strings for KindText, int64 or float64 for KindNum). A caller must list every
	// value the column may take, or leave it nil.
	Domain []any
}

// Table is one table: its columns, the column sets that are unique among its rows (a
// primary key's columns are also NOT NULL when the caller says so), and whether it is
// assumed to have at least one row.
type Table struct {
	Name     string
	Columns  []Column
	Keys     [][]int
	NonEmpty bool
}

// Inclusion says every non-NULL value (tuple) of Child.Cols occurs in Parent.PCols: a
// foreign key or an inclusion the data shows.
type Inclusion struct {
	Child  int
	Cols   []int
	Parent int
	PCols  []int
}

// Schema is the tables a pair may read and the constraints every database satisfies.
type Schema struct {
	Tables []Table
	Incl   []Inclusion
}

func (s *Schema) table(name string) int {
	for i, t := range s.Tables {
		if strings.EqualFold(t.Name, name) {
			return i
		}
	}
	return -1
}

// Facts lists the constraints in words, as Result.Assumes reports them.
func (s *Schema) Facts() []string {
	var out []string
	for _, t := range s.Tables {
		for _, c := range t.Columns {
			if c.NotNull {
				out = append(out, fmt.Sprintf("%s.%s NOT NULL", t.Name, c.Name))
			}
			if c.Domain != nil {
				out = append(out, fmt.Sprintf("%s.%s in a closed domain of %d values", t.Name, c.Name, len(c.Domain)))
			}
		}
		for _, k := range t.Keys {
			out = append(out, fmt.Sprintf("%s(%s) unique", t.Name, cols(t, k)))
		}
		if t.NonEmpty {
			out = append(out, fmt.Sprintf("%s has rows", t.Name))
		}
	}
	for _, in := range s.Incl {
		out = append(out, fmt.Sprintf("%s(%s) in %s(%s)", s.Tables[in.Child].Name, cols(s.Tables[in.Child], in.Cols),
			s.Tables[in.Parent].Name, cols(s.Tables[in.Parent], in.PCols)))
	}
	return out
}

func cols(t Table, idx []int) string {
	var names []string
	for _, i := range idx {
		names = append(names, t.Columns[i].Name)
	}
	return strings.Join(names, ", ")
}
