package predict

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// readSpider reads Spider prediction text: line i (0-based) answers question i.
//
// As Spider's evaluation does, each line is stripped of surrounding white space and
// only the text before a TAB is the SQL; the text after it is the db_id. One deviation:
// when the text after the tab does not look like a db_id (it has spaces or SQL
// punctuation), the tabs are white space inside the SQL and the whole line is the SQL.
// Real files need this (line 1295 of BIRD dev C3.txt indents a subquery with tabs);
// Spider's script would truncate that query and score it wrong.
//
// Unlike Spider's script, an empty line is kept as an empty prediction: dropping it
// would shift every later prediction onto the wrong question. A final newline does not
// start another prediction. Bytes are kept as read, even if not valid UTF-8.
func readSpider(src *source, ic itemCap) (*Set, error) {
	path := src.path
	set := &Set{Path: path, Format: FormatSpider}
	if src.size == 0 {
		return set, nil
	}
	// Counted by the scan, before anything is read: a file of blank lines is a million
	// items. A final newline does not start another line.
	n := src.newlines + 1
	if src.lastNL {
		n--
	}
	if ic.limit > 0 && n > int64(ic.limit) {
		return nil, ic.check(path, ic.limit+1, ic.limit, "lines")
	}
	birdLines, firstBird := 0, 0
	lr := src.lines()
	for i := 0; ; i++ {
		raw, _, ok, err := lr.next()
		if err != nil {
			return nil, fmt.Errorf("read predictions: %s: %w", path, err)
		}
		if !ok {
			break
		}
		line := string(bytes.TrimSpace(raw))
		p := Prediction{Key: strconv.Itoa(i), Line: i + 1, SQL: line}
		if sql, db, found := strings.Cut(line, birdSeparator); found {
			// BIRD's "SQL\t----- bird -----\tdb_id" written into a text file: Spider's
			// evaluation.py takes the text before the first tab, and so does this.
			p.SQL = strings.TrimSpace(sql)
			p.DBID = strings.TrimSpace(db)
			if birdLines == 0 {
				firstBird = i + 1
			}
			birdLines++
		} else if sql, db, found := strings.Cut(line, "\t"); found && looksLikeDBID(strings.TrimSpace(db)) {
			p.SQL = strings.TrimSpace(sql)
			p.DBID = strings.TrimSpace(db)
		}
		set.Items = append(set.Items, p)
	}
	if birdLines > 0 {
		set.Notes = append(set.Notes, fmt.Sprintf("%s: %d lines (the first: line %d) end in BIRD's separator \"\\t----- bird -----\\tdb_id\"; read as Spider's evaluation.py reads them, the SQL being the text before the first tab",
			path, birdLines, firstBird))
	}
	return set, nil
}

// looksLikeDBID reports whether s could be a database id: letters, digits, '_', '-'
// and '.', nothing else.
func looksLikeDBID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}
