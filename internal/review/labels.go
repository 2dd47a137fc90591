package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// Expert labels for `nl2sqlbench agreement` (docs/agreement.md), read from one of three
// formats, told apart by the file's first line:
//
//   - reviews.jsonl (a line with "decision"): accept is correct, reject incorrect;
//     gold_wrong judges the gold, not a prediction, and is counted apart;
//   - labels JSONL (a line with "label"): {"question_id" or "index", "system"
//     (optional), "label": "correct"|"incorrect", "note" (optional)};
//   - NL2SQL-BUGs' published JSON (a file that starts with "["): an array of {"id",
//     "question", "evidence" (optional), "db_id", "sql", "label": true|false,
//     "error_types"}; an entry labels the prediction of any system whose question has
//     that db_id and text and whose SQL is that SQL (whitespace aside).

// Label formats.
const (
	FormatReviews    = "reviews"
	FormatLabels     = "labels"
	FormatNL2SQLBugs = "nl2sql-bugs"
)

// ErrBadLabel marks a labels file entry that cannot be used.
var ErrBadLabel = errors.New("bad label")

// Label is one expert judgement of a prediction, as read: which record it names is
// resolved against a run (internal/benchrun, agreement.go).
type Label struct {
	// Line is the JSONL line, or the entry's 1-based position in a JSON array.
	Line int
	// Index, or else QuestionID, names the question; System the prediction ("": the one
	// the caller chooses).
	Index      *int
	QuestionID string
	System     string
	Correct    bool
	Note       string
	// NL2SQL-BUGs: the question is found by its db_id and text, the prediction by SQL.
	DBID, Question, SQL string
}

// Where names the label's place in its file for messages.
func (l *Label) Where(path string, format string) string {
	if format == FormatNL2SQLBugs {
		return fmt.Sprintf("%s entry %d", path, l.Line)
	}
	return fmt.Sprintf("%s line %d", path, l.Line)
}

// Labels is a labels file read.
type Labels struct {
	Path   string
	Format string
	Labels []Label
	// GoldWrong counts the gold_wrong reviews, which judge a gold, not a prediction.
	GoldWrong int
}

// ReadLabels reads the labels file at path in whichever of the three formats it is. An
// error names the file, the line (or entry) and the key. A missing file is
// os.ErrNotExist.
func ReadLabels(path string) (*Labels, error) {
	b, err := safefile.ReadFile(path, MaxFile)
	if err != nil {
		return nil, err
	}
	// Counted before decoding: a few bytes can decode into far more (jsonscan.Shape).
	if err := jsonscan.CheckDensity(b); err != nil {
		return nil, fmt.Errorf("%s: %w: %w", path, ErrBadLabel, err)
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(t) == 0:
		return nil, fmt.Errorf("%s: %w: the file holds no labels", path, ErrBadLabel)
	case t[0] == '[':
		return readBugs(path, t)
	}
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(first, &keys); err != nil {
		return nil, fmt.Errorf("%s line %d: %w: not a JSON object (%v)", path, 1+bytes.Count(b[:len(b)-len(t)], []byte("\n")), ErrBadLabel, err)
	}
	if _, ok := keys["decision"]; ok {
		return readReviewLabels(path)
	}
	return readLabelLines(path, b)
}

// readReviewLabels reads a reviews file as labels; for one system and question the last
// accept or reject wins, as rescore applies them.
func readReviewLabels(path string) (*Labels, error) {
	out := &Labels{Path: path, Format: FormatReviews}
	at := map[string]int{}
	err := readLines(path, func(n int, r Review) {
		if r.Decision == GoldWrong {
			out.GoldWrong++
			return
		}
		idx := r.Index
		l := Label{Line: n, Index: &idx, System: r.System, Correct: r.Decision == Accept, Note: r.Note}
		k := r.System + "\x00" + strconv.Itoa(r.Index)
		if i, ok := at[k]; ok {
			out.Labels[i] = l
			return
		}
		at[k] = len(out.Labels)
		out.Labels = append(out.Labels, l)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// labelLine is one line of a labels JSONL file.
type labelLine struct {
	QuestionID json.RawMessage `json:"question_id"`
	Index      *int            `json:"index"`
	System     string          `json:"system"`
	Label      string          `json:"label"`
	Note       string          `json:"note"`
}

func readLabelLines(path string, b []byte) (*Labels, error) {
	out := &Labels{Path: path, Format: FormatLabels}
	err := safefile.ReadTextLines(bytes.NewReader(b), 16<<20, func(ln safefile.Line) error {
		var x labelLine
		dec := json.NewDecoder(bytes.NewReader(ln.Bytes))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&x); err != nil {
			return fmt.Errorf("%s line %d: %w: %v", path, ln.N, ErrBadLabel, err)
		}
		l := Label{Line: ln.N, Index: x.Index, System: x.System, Note: x.Note}
		switch x.Label {
		case "correct":
			l.Correct = true
		case "incorrect":
		default:
			return fmt.Errorf("%s line %d: %w: key label is %q, not correct or incorrect", path, ln.N, ErrBadLabel, x.Label)
		}
		if x.Index != nil && *x.Index < 0 {
			return fmt.Errorf("%s line %d: %w: key index is negative (%d)", path, ln.N, ErrBadLabel, *x.Index)
		}
		id, err := questionID(x.QuestionID)
		if err != nil {
			return fmt.Errorf("%s line %d: %w: key question_id: %v", path, ln.N, ErrBadLabel, err)
		}
		if l.QuestionID = id; id == "" && x.Index == nil {
			return fmt.Errorf("%s line %d: %w: neither question_id nor index names the question", path, ln.N, ErrBadLabel)
		}
		out.Labels = append(out.Labels, l)
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrBadLabel) {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

// questionID reads a question_id given as a string or an integer (BIRD's are integers).
func questionID(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if strings.TrimSpace(s) == "" {
			return "", errors.New("empty")
		}
		return s, nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return "", fmt.Errorf("%s is not a string or an integer", raw)
	}
	if _, err := strconv.ParseInt(n.String(), 10, 64); err != nil {
		return "", fmt.Errorf("%s is not a string or an integer", raw)
	}
	return n.String(), nil
}

// bugsEntry is one entry of NL2SQL-BUGs' NL2SQL-Bugs.json or NL2SQL-Bugs-with-evidence.json.
type bugsEntry struct {
	ID         *int   `json:"id"`
	Question   string `json:"question"`
	Evidence   string `json:"evidence"`
	DBID       string `json:"db_id"`
	SQL        string `json:"sql"`
	Label      *bool  `json:"label"`
	ErrorTypes []struct {
		ErrorType    string `json:"error_type"`
		SubErrorType string `json:"sub_error_type"`
	} `json:"error_types"`
}

func readBugs(path string, b []byte) (*Labels, error) {
	out := &Labels{Path: path, Format: FormatNL2SQLBugs}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrBadLabel, err)
	}
	for n := 1; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s entry %d: %w: %v", path, n, ErrBadLabel, err)
		}
		var e bugsEntry
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s entry %d: %w: %v", path, n, ErrBadLabel, err)
		}
		for _, k := range []struct{ key, v string }{{"question", e.Question}, {"db_id", e.DBID}, {"sql", e.SQL}} {
			if strings.TrimSpace(k.v) == "" {
				return nil, fmt.Errorf("%s entry %d: %w: key %s is missing or empty", path, n, ErrBadLabel, k.key)
			}
		}
		if e.Label == nil {
			return nil, fmt.Errorf("%s entry %d: %w: key label is missing (true or false)", path, n, ErrBadLabel)
		}
		var kinds []string
		for _, t := range e.ErrorTypes {
			kinds = append(kinds, strings.TrimSpace(t.ErrorType+": "+t.SubErrorType))
		}
		note := strings.Join(kinds, "; ")
		if e.ID != nil {
			note = strings.TrimSpace(fmt.Sprintf("NL2SQL-BUGs id %d %s", *e.ID, note))
		}
		out.Labels = append(out.Labels, Label{Line: n, DBID: e.DBID, Question: e.Question, SQL: e.SQL, Correct: *e.Label, Note: note})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w: after entry %d: %v", path, ErrBadLabel, len(out.Labels), err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: %w: data after the array", path, ErrBadLabel)
	}
	return out, nil
}

// SameSQL reports whether two SQL texts are the same but for whitespace and a final
// semicolon, the comparison an NL2SQL-BUGs label is matched to a prediction with.
func SameSQL(a, b string) bool { return normSQL(a) == normSQL(b) }

func normSQL(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimSpace(strings.TrimSuffix(s, ";"))
}
