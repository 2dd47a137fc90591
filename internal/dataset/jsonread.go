package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// readText reads a question file and refuses bytes that are not UTF-8, naming the line:
// a question or gold query with broken encoding would be judged on garbage.
func readText(path string) ([]byte, error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("read questions: %w", err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, fmt.Errorf("%s:%d: byte 0x%02x at offset %d is not valid UTF-8: %w",
			path, lineAt(data, off), data[off], off, ErrMalformed)
	}
	// One value (a question, a query, a line of a .sql file) over MaxValueBytes is
	// refused before a decoder copies it several times.
	first := 0
	for first < len(data) && strings.ContainsRune(" \t\r\n", rune(data[first])) {
		first++
	}
	isJSON := first < len(data) && (data[first] == '{' || data[first] == '[')
	if start, ok := jsonscan.FirstTooLong(data, MaxValueBytes, isJSON); !ok {
		return nil, fmt.Errorf("%s:%d: a value over the %d-byte cap of one question or query: %w",
			path, lineAt(data, start), MaxValueBytes, ErrTooLong)
	}
	return data, nil
}

// MaxValueBytes is the longest one string of a dataset file (or line of a .sql file)
// may be: 16 MiB, far beyond any question, evidence or query of a benchmark.
const MaxValueBytes = 16 << 20

// ErrTooLong is a value over MaxValueBytes; it is an ErrMalformed.
var ErrTooLong = fmt.Errorf("%w: value too long", ErrMalformed)

func lineAt(data []byte, off int) int {
	off = max(0, min(off, len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// object is one JSON object of a question file, its keys exact (encoding/json's struct
// decoding matches keys case-insensitively, and Spider's "sql" is not BIRD's "SQL").
type object struct {
	fields map[string]json.RawMessage
	line   int
}

// arrayObjects reads a JSON array of objects, keeping each element's starting line.
func arrayObjects(path string, data []byte) ([]object, error) {
	if objs, ok := arrayObjectsFast(data); ok {
		return objs, nil // jsonfast.go; what it leaves is read the slow way, every error named
	}
	return arrayObjectsSlow(path, data)
}

// arrayObjectsSlow is arrayObjects through encoding/json's decoder.
func arrayObjectsSlow(path string, data []byte) ([]object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(path, data, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("%s:%d: want a JSON array of questions: %w", path, lineAt(data, int(dec.InputOffset())), ErrMalformed)
	}
	var objs []object
	// Lines are counted incrementally: counting from the start for every element made
	// loading Spider's dev.json (3.6 MB) quadratic.
	line, counted := 1, 0
	for dec.More() {
		start := jsonscan.SkipSeparators(data, int(dec.InputOffset()))
		line += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntaxError(path, data, err)
		}
		o, err := toObject(path, raw, line, len(objs))
		if err != nil {
			return nil, err
		}
		objs = append(objs, o)
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntaxError(path, data, err)
	}
	if rest := jsonscan.SkipSeparators(data, int(dec.InputOffset())); rest < len(data) {
		return nil, fmt.Errorf("%s:%d: unexpected data after the JSON array: %w", path, lineAt(data, rest), ErrMalformed)
	}
	return objs, nil
}

// readLineObjects reads the JSONL file at path: one object per line, blank lines skipped.
func readLineObjects(path string) ([]object, error) {
	data, err := readText(path)
	if err != nil {
		return nil, err
	}
	return lineObjects(path, data)
}

// lineObjects reads JSONL: one object per line, blank lines skipped.
func lineObjects(path string, data []byte) ([]object, error) {
	var objs []object
	for i, line := range bytes.Split(data, []byte{'\n'}) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !json.Valid(line) {
			var v any
			err := json.Unmarshal(line, &v)
			return nil, fmt.Errorf("%s:%d: %v: %w", path, i+1, err, ErrMalformed)
		}
		o, err := toObject(path, line, i+1, len(objs))
		if err != nil {
			return nil, err
		}
		objs = append(objs, o)
	}
	return objs, nil
}

func toObject(path string, raw json.RawMessage, line, index int) (object, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return object{}, fmt.Errorf("%s:%d: question %d is not a JSON object: %w", path, line, index, ErrMalformed)
	}
	if topLevelKeys(raw) <= len(fields) {
		return object{fields: fields, line: line}, nil // no key repeats: the map kept them all
	}
	if key, dup := jsonscan.DuplicateKey(raw); dup {
		// encoding/json keeps the last of two equal keys: which gold SQL or db_id was
		// meant cannot be told, so refuse.
		return object{}, fmt.Errorf("%s:%d: question %d: key %q appears twice: %w", path, line, index, key, ErrMalformed)
	}
	return object{fields: fields, line: line}, nil
}

// topLevelKeys counts the keys of the JSON object raw (valid JSON) in one pass without
// decoding: a key is a string at depth 1 followed by a colon. Dataset loading calls it
// for every question, so it must cost far less than decoding.
func topLevelKeys(raw []byte) int {
	n, depth := 0, 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			for j < len(raw) && raw[j] != '"' {
				if raw[j] == '\\' {
					j++
				}
				j++
			}
			if depth == 1 {
				k := j + 1
				for k < len(raw) && (raw[k] == ' ' || raw[k] == '\t' || raw[k] == '\r' || raw[k] == '\n') {
					k++
				}
				if k < len(raw) && raw[k] == ':' {
					n++
				}
			}
			i = j
		}
	}
	return n
}

func syntaxError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s:%d: %v: %w", path, lineAt(data, int(syn.Offset)), err, ErrMalformed)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		end := len(bytes.TrimRight(data, " \t\r\n"))
		return fmt.Errorf("%s:%d: unexpected end of file: %w", path, lineAt(data, end), ErrMalformed)
	}
	return fmt.Errorf("%s: %v: %w", path, err, ErrMalformed)
}

// str returns the string field key ("" when absent or null). Any other JSON type is
// an error naming the key.
func (o object) str(path, key string) (string, error) {
	raw, ok := o.fields[key]
	if !ok || isNull(raw) {
		return "", nil
	}
	if s, ok := plainString(raw); ok {
		return s, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s:%d: key %q: want a string, got %s: %w", path, o.line, key, abbreviate(raw), ErrMalformed)
	}
	return s, nil
}

// strs returns a field that is a string or an array of strings (nil when absent).
func (o object) strs(path, key string) ([]string, error) {
	raw, ok := o.fields[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	if s, err := o.str(path, key); err == nil {
		return []string{s}, nil
	}
	var xs []string
	if err := json.Unmarshal(raw, &xs); err != nil {
		return nil, fmt.Errorf("%s:%d: key %q: want a string or an array of strings, got %s: %w", path, o.line, key, abbreviate(raw), ErrMalformed)
	}
	return xs, nil
}

// id returns a question_id given as a string or a number, numbers written without
// decimals ("12.0" -> "12"); "" when absent.
func (o object) id(path, key string) (string, error) {
	raw, ok := o.fields[key]
	if !ok || isNull(raw) {
		return "", nil
	}
	raw = bytes.TrimSpace(raw)
	if raw[0] == '"' {
		s, err := o.str(path, key)
		return strings.TrimSpace(s), err
	}
	if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return string(raw), nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return "", fmt.Errorf("%s:%d: key %q: want a string or a number, got %s: %w", path, o.line, key, abbreviate(raw), ErrMalformed)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return string(raw), nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func abbreviate(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// commonFields reads what every JSON question format shares: question_id (the index
// when absent), db_id, question, evidence and difficulty.
func commonFields(file string, o object, i int) (Question, error) {
	q := Question{Index: i}
	var err error
	if q.ID, err = o.id(file, "question_id"); err != nil {
		return q, err
	}
	if q.ID == "" {
		q.ID = strconv.Itoa(i)
	}
	fields := []struct {
		key string
		dst *string
	}{{"db_id", &q.DBID}, {"question", &q.Text}, {"evidence", &q.Evidence}, {"difficulty", &q.Difficulty}}
	for _, f := range fields {
		if *f.dst, err = o.str(file, f.key); err != nil {
			return q, err
		}
	}
	return q, nil
}
