package dbschema

import "strings"

// Affinity is SQLite's type affinity of a column: what its values are converted to when
// stored (datatype3.html, section 3.1).
type Affinity int

// The five affinities.
const (
	AffinityNumeric Affinity = iota
	AffinityInteger
	AffinityText
	AffinityReal
	AffinityBlob
)

// AffinityOf applies SQLite's rules to a column's declared type, first match wins: INT,
// then CHAR/CLOB/TEXT, then BLOB or no type, then REAL/FLOA/DOUB, else NUMERIC.
func AffinityOf(decl string) Affinity {
	t := strings.ToUpper(decl)
	switch {
	case strings.Contains(t, "INT"):
		return AffinityInteger
	case strings.Contains(t, "CHAR"), strings.Contains(t, "CLOB"), strings.Contains(t, "TEXT"):
		return AffinityText
	case t == "", strings.Contains(t, "BLOB"):
		return AffinityBlob
	case strings.Contains(t, "REAL"), strings.Contains(t, "FLOA"), strings.Contains(t, "DOUB"):
		return AffinityReal
	}
	return AffinityNumeric
}
