package taskset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

// ErrMalformed is wrapped by every error about a file's content.
var ErrMalformed = errors.New("malformed task file")

// MaxValueBytes is the longest one JSON string or CSV line may be: 16 MiB, far beyond
// any question, query or test case.
const MaxValueBytes = 16 << 20

// ErrOutsideDataset is a file of a dataset folder that is, or lies under, a symbolic
// link leading out of the folder.
var ErrOutsideDataset = errors.New("leads outside the dataset folder")

// readFile reads input file path of the dataset folder dir, refusing a file that
// resolves outside dir (a dataset may come from someone else: its schema text and
// knowledge base go into prompts sent to a model, its setup SQL to a server, so a
// `db_blog_schema.txt` linked to ~/.pgpass must not be read) and a value over
// MaxValueBytes before decoding.
func readFile(dir, path string, isJSON bool) ([]byte, error) {
	if err := inside(dir, path); err != nil {
		return nil, err
	}
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if start, ok := jsonscan.FirstTooLong(data, MaxValueBytes, isJSON); !ok {
		return nil, fmt.Errorf("%s:%d: a value over the %d-byte cap: %w", path, lineAt(data, start), MaxValueBytes, ErrMalformed)
	}
	return data, nil
}

func lineAt(data []byte, off int) int {
	off = max(0, min(off, len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// streamObjects decodes data as a stream of JSON objects (JSON Lines, or several
// objects to a line, or one object over several lines) and calls f with each and the
// line it starts on.
func streamObjects(path string, data []byte, f func(obj fields) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := int(jsonscan.SkipSeparators(data, dec.InputOffset()))
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w: %v", path, jsonscan.ErrorLine(data, err), ErrMalformed, err)
		}
		obj, err := newFields(path, lineAt(data, start), raw)
		if err != nil {
			return err
		}
		if err := f(obj); err != nil {
			return err
		}
	}
}

// fields is one JSON object of a task file, its keys exact, and where it is.
type fields struct {
	m     map[string]json.RawMessage
	where string // "path:line"
	line  int
}

func newFields(path string, line int, raw json.RawMessage) (fields, error) {
	where := path + ":" + strconv.Itoa(line)
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return fields{}, fmt.Errorf("%s: %w: want a JSON object, got %s", where, ErrMalformed, abbreviate(raw))
	}
	if k, dup := jsonscan.DuplicateKey(raw); dup {
		return fields{}, fmt.Errorf("%s: %w: key %q appears twice", where, ErrMalformed, k)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fields{}, fmt.Errorf("%s: %w: %v", where, ErrMalformed, err)
	}
	return fields{m: m, where: where, line: line}, nil
}

func (f fields) sub(key string) (fields, bool, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		return fields{}, false, nil
	}
	g, err := newFields(f.where, f.line, raw)
	if err != nil {
		return fields{}, false, fmt.Errorf("%s: key %q: %w", f.where, key, ErrMalformed)
	}
	g.where = f.where + ": " + key
	return g, true, nil
}

func (f fields) bad(key, want string) error {
	return fmt.Errorf("%s: key %q: %w: want %s, got %s", f.where, key, ErrMalformed, want, abbreviate(f.m[key]))
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func abbreviate(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	if s == "" {
		s = "nothing"
	}
	return s
}

// str is a string member; missing or null is "" unless required.
func (f fields) str(key string, required bool) (string, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		if required {
			return "", fmt.Errorf("%s: %w: key %q missing", f.where, ErrMalformed, key)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", f.bad(key, "a string")
	}
	return s, nil
}

// id is a string or an integer member, as text.
func (f fields) id(key string) (string, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		return "", fmt.Errorf("%s: %w: key %q missing", f.where, ErrMalformed, key)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if _, err := n.Int64(); err == nil {
			return n.String(), nil
		}
	}
	return "", f.bad(key, "a string or an integer")
}

func (f fields) boolean(key string) (bool, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, f.bad(key, "true or false")
	}
	return b, nil
}

func (f fields) integer(key string, def int) (int, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		return def, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, f.bad(key, "an integer")
	}
	return n, nil
}

// sqls is a list of SQL texts, as the official evaluator's split_field reads one: a
// string is one statement, a list is the statements, null, "" or missing is none.
// Unlike split_field, anything else is an error, not silently no SQL.
func (f fields) sqls(key string) ([]string, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil, nil
		}
		return []string{s}, nil
	}
	return f.strs(key)
}

// strs is a list of strings (null elements are an error).
func (f fields) strs(key string) ([]string, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var list []*string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, f.bad(key, "a list of strings")
	}
	out := make([]string, len(list))
	for i, s := range list {
		if s == nil {
			return nil, fmt.Errorf("%s: key %q: %w: element %d is null", f.where, key, ErrMalformed, i)
		}
		out[i] = *s
	}
	return out, nil
}

func (f fields) ints(key string) ([]int, error) {
	raw, ok := f.m[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var list []int
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, f.bad(key, "a list of integers")
	}
	return list, nil
}

func (f fields) raw(key string) json.RawMessage {
	if raw, ok := f.m[key]; ok && !isNull(raw) {
		return raw
	}
	return nil
}

// inside checks that path, with every symbolic link resolved, lies in dir (resolved too,
// so a dataset reached through a link of the user's own is fine).
func inside(dir, path string) error {
	root, err := filepath.EvalSymlinks(dir)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		return fmt.Errorf("dataset folder: %w", err)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("read tasks: %w", err)
	}
	if real, err = filepath.Abs(real); err != nil {
		return fmt.Errorf("read tasks: %w", err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("read tasks: %s: %w (to %s)", path, ErrOutsideDataset, real)
	}
	return nil
}
