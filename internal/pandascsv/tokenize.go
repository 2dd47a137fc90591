package pandascsv

import (
	"fmt"
	"strings"
)

// record is one tokenized line: its fields and the 1-based line it starts on.
type record struct {
	fields []string
	line   int
}

// tokenize splits data into records as pandas' C tokenizer does with read_csv's
// defaults: delimiter ',', quotechar '"' with doubled quotes inside quoted fields, no
// escape character, lines ended by LF, CR or CRLF, and blank or whitespace-only lines
// skipped (skip_blank_lines=True). A quote opens a quoted field only at a field's start;
// elsewhere it is an ordinary character, and text after a closing quote is appended
// ("x"y reads xy).
func tokenize(raw []byte) ([]record, error) {
	// One string for the whole file: unquoted fields are substrings of it (no copy).
	data := strings.TrimPrefix(string(raw), "\ufeff")
	var (
		recs   []record
		fields []string
		field  []byte
		line   = 1
		start  = 1
	)
	i, n := 0, len(data)
	for i < n {
		// At a record's start: skip blank and whitespace-only lines.
		if len(fields) == 0 {
			j := i
			for j < n && (data[j] == ' ' || data[j] == '\t') {
				j++
			}
			if j == n {
				break
			}
			if data[j] == '\n' || data[j] == '\r' {
				i = skipEOL(data, j)
				line++
				continue
			}
			start = line
		}
		// One field. An unquoted field is a substring of data.
		if data[i] != '"' {
			j := i
			for j < n && data[j] != ',' && data[j] != '\n' && data[j] != '\r' {
				j++
			}
			fields = append(fields, data[i:j])
			i = j
		} else {
			field = field[:0]
			i++
			closed := false
			for i < n {
				c := data[i]
				if c == '"' {
					if i+1 < n && data[i+1] == '"' {
						field = append(field, '"')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				if c == '\n' {
					line++
				}
				field = append(field, c)
				i++
			}
			if !closed {
				return nil, fmt.Errorf("%w: EOF inside string starting at line %d", ErrTokenize, start)
			}
			for i < n && data[i] != ',' && data[i] != '\n' && data[i] != '\r' {
				field = append(field, data[i])
				i++
			}
			fields = append(fields, string(field))
		}
		if i < n && data[i] == ',' {
			i++
			if i == n { // a trailing delimiter at EOF ends a record with one more, empty field
				fields = append(fields, "")
			}
			continue
		}
		recs = append(recs, record{fields: fields, line: start})
		fields = make([]string, 0, len(fields))
		if i < n {
			i = skipEOL(data, i)
			line++
		}
	}
	if len(fields) > 0 {
		recs = append(recs, record{fields: fields, line: start})
	}
	return recs, nil
}

// skipEOL steps over the line end at data[i] (LF, CR or CRLF).
func skipEOL(data string, i int) int {
	if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
		return i + 2
	}
	return i + 1
}
