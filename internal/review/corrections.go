package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// A corrections file gives corrected gold SQL by question id (docs/review.md), in one of
// two formats, told apart by the first character:
//
//   - JSONL, one {"question_id": ..., "sql": "...", "note": "..."} per line (ours);
//   - a JSON list of objects with "question_id" and "SQL" (the form published corrected
//     sets take: the dataset's own records with the SQL replaced; other keys ignored).
//
// Each becomes a gold_wrong review of the question's index.

// ErrBadCorrection marks a corrections file entry that cannot be used.
var ErrBadCorrection = errors.New("bad correction")

// MaxCorrectionSQL caps one corrected SQL: far over any real query.
const MaxCorrectionSQL = 1 << 20

// correctionLine is one line of the JSONL form.
type correctionLine struct {
	QuestionID json.RawMessage `json:"question_id"`
	SQL        string          `json:"sql"`
	Note       string          `json:"note"`
}

// ReadCorrections reads a corrections file; index maps a question id to its index in
// the dataset (false for an id the dataset does not have, which is an error naming it).
// A question corrected twice with different SQL is an error naming both entries (which
// one was meant is the user's to say); the same SQL twice is read once. A missing file
// is os.ErrNotExist.
func ReadCorrections(path string, index func(id string) (int, bool)) ([]Review, error) {
	data, err := safefile.ReadFile(path, MaxFile)
	if err != nil {
		return nil, err
	}
	var out []Review
	type seenAt struct {
		where, sql string
	}
	seen := map[string]seenAt{} // by question id: the form check maps every id to 0
	add := func(where string, rawID json.RawMessage, sql, note string) error {
		id, err := questionID(rawID) // labels.go: a string or an integer
		if err == nil && id == "" {
			err = errors.New("missing")
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w: key question_id: %v", path, where, ErrBadCorrection, err)
		}
		if strings.TrimSpace(sql) == "" {
			return fmt.Errorf("%s %s (question_id %s): %w: the corrected SQL is missing or empty", path, where, id, ErrBadCorrection)
		}
		if len(sql) > MaxCorrectionSQL {
			return fmt.Errorf("%s %s (question_id %s): %w: the corrected SQL is %d bytes, over %d", path, where, id, ErrBadCorrection, len(sql), MaxCorrectionSQL)
		}
		i, ok := index(id)
		if !ok {
			return fmt.Errorf("%s %s: %w: question_id %s is not in the run's dataset", path, where, ErrBadCorrection, id)
		}
		if prev, dup := seen[id]; dup {
			if strings.TrimSpace(prev.sql) == strings.TrimSpace(sql) {
				return nil
			}
			return fmt.Errorf("%s %s: %w: question_id %s is corrected twice with different SQL (%s and %s); keep the one meant",
				path, where, ErrBadCorrection, id, prev.where, where)
		}
		seen[id] = seenAt{where, sql}
		out = append(out, Review{Index: i, Decision: GoldWrong, SQL: sql, Note: note})
		return nil
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var items []map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &items); err != nil {
			return nil, fmt.Errorf("%s: %w: not a JSON list of objects: %v", path, ErrBadCorrection, err)
		}
		for n, it := range items {
			where := fmt.Sprintf("item %d", n)
			var sql string
			if raw, ok := it["SQL"]; !ok {
				return nil, fmt.Errorf("%s %s: %w: key SQL is missing", path, where, ErrBadCorrection)
			} else if err := json.Unmarshal(raw, &sql); err != nil {
				return nil, fmt.Errorf("%s %s: %w: key SQL is not a string", path, where, ErrBadCorrection)
			}
			if err := add(where, it["question_id"], sql, ""); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	err = safefile.ReadTextLines(bytes.NewReader(data), 16<<20, func(l safefile.Line) error {
		var c correctionLine
		dec := json.NewDecoder(bytes.NewReader(l.Bytes))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return fmt.Errorf("%s line %d: %w: %v", path, l.N, ErrBadCorrection, err)
		}
		return add(fmt.Sprintf("line %d", l.N), c.QuestionID, c.SQL, c.Note)
	})
	if err != nil {
		if errors.Is(err, ErrBadCorrection) {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
