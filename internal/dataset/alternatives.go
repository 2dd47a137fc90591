package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// Alternatives: accepted alternative golds laid over a dataset (--alternatives FILE,
// docs/review.md). BIRD and Spider give one gold per question; judging against one is
// over-strict, so a person can list other SQL that answers a question. Each line of the
// file is {"question_id": ID, "sql": ["...", ...]} or {"index": N, "sql": [...]}; the SQL
// is added to the question's accepted golds (a prediction matching any is correct, as
// for the JSONL dataset's "gold" list).

// ErrBadAlternative marks an alternatives file line that cannot be used.
var ErrBadAlternative = errors.New("bad alternative gold")

type alternativeLine struct {
	QuestionID json.RawMessage `json:"question_id"`
	Index      *int            `json:"index"`
	SQL        []string        `json:"sql"`
}

// applyAlternatives reads path and adds its SQL to d's questions' golds.
func applyAlternatives(d *Dataset, path string) error {
	if d.Kind == KindSpider2 {
		return fmt.Errorf("--alternatives %s: a Spider 2.0 suite is judged on gold result tables, not SQL: %w", path, ErrBadAlternative)
	}
	f, err := inputfile.Open(path) // a FIFO or a device would block or never end
	if err != nil {
		return fmt.Errorf("--alternatives: %w", err)
	}
	defer f.Close()
	byID := map[string]int{}
	for i, q := range d.Questions {
		if _, dup := byID[q.ID]; !dup {
			byID[q.ID] = i
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%s line %d: %w: %s", path, line, ErrBadAlternative, fmt.Sprintf(format, a...))
		}
		var a alternativeLine
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return bad("%v", err)
		}
		qi := -1
		switch {
		case a.Index != nil && a.QuestionID != nil:
			return bad("give question_id or index, not both")
		case a.Index != nil:
			for i, q := range d.Questions {
				if q.Index == *a.Index {
					qi = i
				}
			}
			if qi < 0 {
				return bad("index %d is not a question of %s", *a.Index, d.Path)
			}
		case a.QuestionID != nil:
			id, err := idText(a.QuestionID)
			if err == nil && id == "" {
				err = errors.New("empty")
			}
			if err != nil {
				return bad("question_id: %v", err)
			}
			i, ok := byID[id]
			if !ok {
				return bad("question_id %s is not a question of %s", id, d.Path)
			}
			qi = i
		default:
			return bad("no question_id or index")
		}
		if len(a.SQL) == 0 {
			return bad("sql: want a non-empty list of SQL strings")
		}
		q := &d.Questions[qi]
		for k, s := range a.SQL {
			if strings.TrimSpace(s) == "" {
				return bad("sql[%d] is empty", k)
			}
			if !contains(q.Gold, s) {
				q.Gold = append(q.Gold, s)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	d.Alternatives = path
	return nil
}

// idText is a question_id given as a JSON string or integer.
func idText(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n int64
	if err := json.Unmarshal(raw, &n); err == nil {
		return strconv.FormatInt(n, 10), nil
	}
	return "", fmt.Errorf("%s is not a string or an integer", raw)
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
