package predict

import (
	"fmt"
	"strconv"
)

// FormatList is a JSON array of SQL strings: element i answers question i, as line i of
// a Spider text file does. It is what many scripts dump with json.dump(list_of_sql).
const FormatList = "list"

// readList reads a JSON array of SQL strings. A null element is an empty prediction (as
// in BIRD files); anything else that is not a string is an error naming its line and
// element, since guessing what a number or object meant would mis-score silently.
func readList(src *source, ic itemCap) (*Set, error) {
	path := src.path
	dec, lc, err := src.openJSON('[', "a SQL list must be one JSON array of strings")
	if err != nil {
		return nil, err
	}
	set := &Set{Path: path, Format: FormatList}
	for i := 0; dec.More(); i++ {
		line := lc.at(src.skipSpace(dec.InputOffset()))
		if err := ic.check(path, line, i, "elements"); err != nil {
			return nil, err
		}
		sep := byte(',')
		if i == 0 {
			sep = 0
		}
		sql, kind, isString, err := src.stringOrKind(dec, sep)
		if err != nil {
			return nil, err
		}
		if !isString {
			return nil, fmt.Errorf("%s:%d: element %d: a SQL list holds only strings (or null), got %s: %w",
				path, line, i, kind, ErrMalformed)
		}
		p := Prediction{Key: strconv.Itoa(i), Line: line}
		if sql != nil {
			p.SQL = *sql
		}
		set.Items = append(set.Items, p)
	}
	if err := src.closeJSON(dec, lc, "array"); err != nil {
		return nil, err
	}
	return set, nil
}
