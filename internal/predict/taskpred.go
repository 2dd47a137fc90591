package predict

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

// TaskPred is one task's prediction for a benchmark of tasks on a database copy
// (livesql:DIR, evalbench:DIR): the first turn's statements and the follow-up's.
type TaskPred struct {
	ID       string   // instance_id
	SQL      []string // pred_sqls: run in order
	FollowUp []string // follow_up_pred_sqls; nil: none given
	Line     int
}

// MaxTaskStatements is the most statements one turn's prediction may list: 10,000,
// hundreds of times what a task asks for. Each runs on the task's copy in a round trip
// of its own (BEGIN, the statement, COMMIT), so a list of a million "SELECT 1" kept a run
// busy for hours; it is refused when read instead.
const MaxTaskStatements = 10000

// ErrTaskPred is wrapped by every error about a task prediction file's content.
var ErrTaskPred = errors.New("malformed task prediction")

// ReadTaskPreds reads a task prediction file: JSON Lines, one object per task,
//
//	{"instance_id": ..., "pred_sqls": [...] or "one statement", "follow_up_pred_sqls": [...]}
//
// as the official LiveSQLBench evaluator reads pred_sqls (a string is one statement);
// other keys (the task's own fields, which the official files carry) are ignored. A
// line that is not such an object, a key of the wrong type, or an instance_id given
// twice is an error naming the file, the line and the key.
func ReadTaskPreds(path string) (map[string]TaskPred, error) {
	// Streamed line by line: the file is never held whole, only the predictions kept.
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read predictions: %w", err)
	}
	defer f.Close()
	lr := &lineReader{r: bufio.NewReaderSize(f, 64<<10)}
	out := map[string]TaskPred{}
	for n := 0; ; n++ {
		line, _, ok, err := lr.next()
		if err != nil {
			return nil, fmt.Errorf("read predictions: %w", err)
		}
		if !ok {
			break
		}
		if n == 0 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		where := path + ":" + strconv.Itoa(n+1)
		p, err := taskPred(where, line)
		if err != nil {
			return nil, err
		}
		p.Line = n + 1
		if prev, dup := out[p.ID]; dup {
			return nil, fmt.Errorf("%s: key \"instance_id\": %w: %q already at line %d", where, ErrTaskPred, p.ID, prev.Line)
		}
		out[p.ID] = p
	}
	return out, nil
}

func taskPred(where string, line []byte) (TaskPred, error) {
	if line[0] != '{' {
		return TaskPred{}, fmt.Errorf("%s: %w: want one JSON object per line", where, ErrTaskPred)
	}
	if start, ok := jsonscan.FirstTooLong(line, MaxSQLBytes, true); !ok {
		return TaskPred{}, fmt.Errorf("%s: %w: a value at byte %d is over the %d-byte cap", where, ErrTooLong, start, MaxSQLBytes)
	}
	if k, dup := jsonscan.DuplicateKey(line); dup {
		return TaskPred{}, fmt.Errorf("%s: key %q: %w: it appears twice", where, k, ErrTaskPred)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return TaskPred{}, fmt.Errorf("%s: %w: %v", where, ErrTaskPred, err)
	}
	var p TaskPred
	raw, ok := m["instance_id"]
	if !ok {
		return p, fmt.Errorf("%s: key \"instance_id\": %w: missing", where, ErrTaskPred)
	}
	var s string
	var num json.Number
	switch {
	case json.Unmarshal(raw, &s) == nil && s != "":
		p.ID = s
	case json.Unmarshal(raw, &num) == nil:
		if _, err := num.Int64(); err != nil {
			return p, fmt.Errorf("%s: key \"instance_id\": %w: want a string or an integer, got %s", where, ErrTaskPred, raw)
		}
		p.ID = num.String()
	default:
		return p, fmt.Errorf("%s: key \"instance_id\": %w: want a string or an integer, got %s", where, ErrTaskPred, abbrev(string(bytes.TrimSpace(raw))))
	}
	var err error
	if _, ok := m["pred_sqls"]; !ok {
		return p, fmt.Errorf("%s: key \"pred_sqls\": %w: missing", where, ErrTaskPred)
	}
	if p.SQL, err = sqlList(where, "pred_sqls", m["pred_sqls"]); err != nil {
		return p, err
	}
	if raw, ok := m["follow_up_pred_sqls"]; ok {
		if p.FollowUp, err = sqlList(where, "follow_up_pred_sqls", raw); err != nil {
			return p, err
		}
		if p.FollowUp == nil {
			p.FollowUp = []string{}
		}
	}
	return p, nil
}

// sqlList is a string (one statement) or a list of strings; null or "" is none.
func sqlList(where, key string, raw json.RawMessage) ([]string, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil, nil
		}
		return []string{s}, nil
	}
	var list []*string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%s: key %q: %w: want a string or a list of strings, got %s", where, key, ErrTaskPred, abbrev(string(bytes.TrimSpace(raw))))
	}
	if len(list) > MaxTaskStatements {
		return nil, fmt.Errorf("%s: key %q: %w: %d statements, over the cap of %d", where, key, ErrTaskPred, len(list), MaxTaskStatements)
	}
	out := make([]string, len(list))
	for i, s := range list {
		if s == nil {
			return nil, fmt.Errorf("%s: key %q: %w: element %d is null", where, key, ErrTaskPred, i)
		}
		out[i] = *s
	}
	return out, nil
}

// EncodeTaskPreds renders predictions as the task prediction file ReadTaskPreds reads:
// one line per prediction, pred_sqls always a list, follow_up_pred_sqls only when
// FollowUp is not nil (a follow-up never asked is absent, not empty).
func EncodeTaskPreds(preds []TaskPred) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, p := range preds {
		line := struct {
			ID       string   `json:"instance_id"`
			SQL      []string `json:"pred_sqls"`
			FollowUp []string `json:"follow_up_pred_sqls,omitempty"`
		}{p.ID, p.SQL, p.FollowUp}
		if line.SQL == nil {
			line.SQL = []string{}
		}
		if err := enc.Encode(line); err != nil {
			return nil, fmt.Errorf("encode task prediction %s: %w", p.ID, err)
		}
	}
	return buf.Bytes(), nil
}
