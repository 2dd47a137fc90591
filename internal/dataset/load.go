package dataset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// AbsSpec is a KIND:PATH spec with its path made absolute (a spec without a kind is
// kept), so that it names the same file from another directory.
func AbsSpec(spec string) string {
	kind, path, ok := strings.Cut(spec, ":")
	if !ok {
		return spec
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return kind + ":" + path
}

// Load reads the dataset named by spec, "KIND:PATH" (KIND is a Loadable kind of Kinds).
// Each kind's loader says what PATH may be and where databases and tables.json are
// looked for by default; opt overrides both.
func Load(ctx context.Context, spec string, opt Options) (*Dataset, error) {
	kind, path, ok := strings.Cut(spec, ":")
	if !ok || kind == "" || path == "" {
		return nil, fmt.Errorf("load dataset %q: %w", spec, ErrBadSpec)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k, ok := KindNamed(kind)
	if !ok || k.Load == nil {
		return nil, fmt.Errorf("load dataset %q: %w %q (want %s)", spec, ErrUnknownKind, kind, KindList(Loadable))
	}
	d, err := k.Load(ctx, path, opt)
	if err != nil {
		// No hint for a file refused for its size: sniffing it would decode what the
		// reader refused to.
		if hint := hintUnlessTooLong(err, strings.ToLower(kind), path); hint != "" {
			return nil, fmt.Errorf("load %s dataset: %s (read as %s: %w)", strings.ToLower(kind), hint, strings.ToLower(kind), err)
		}
		return nil, fmt.Errorf("load %s dataset: %w", strings.ToLower(kind), err)
	}
	if opt.DiffJSON != "" && d.DiffJSON == "" {
		// Ignoring it would let a user believe difficulties came from it.
		return nil, fmt.Errorf("load %s dataset: --diff-json %s applies only to BIRD's gold .sql (--dataset bird:FILE_gold.sql); %s has its own difficulty: %w",
			strings.ToLower(kind), opt.DiffJSON, path, ErrBadSpec)
	}
	if opt.Alternatives != "" {
		if err := applyAlternatives(d, opt.Alternatives); err != nil {
			return nil, fmt.Errorf("load %s dataset: %w", strings.ToLower(kind), err)
		}
	}
	if opt.DBRoot != "" {
		if fi, err := os.Stat(opt.DBRoot); err != nil || !fi.IsDir() {
			d.Warnings = append(d.Warnings, fmt.Sprintf("database root %s is not a directory: every question will be skipped", opt.DBRoot))
		}
	}
	return d, nil
}

// questionFile resolves PATH: a directory means the first of names inside it that
// exists; a file is taken as it is.
func questionFile(path string, names ...string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("read questions: %w", err)
	}
	if !fi.IsDir() {
		return path, nil
	}
	for _, n := range names {
		p := filepath.Join(path, n)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("read questions: directory %s holds none of %s: %w", path, strings.Join(names, ", "), os.ErrNotExist)
}

// readQuestionFile is questionFile and then readText: the question file's path and bytes.
func readQuestionFile(path string, names ...string) (string, []byte, error) {
	file, err := questionFile(path, names...)
	if err != nil {
		return "", nil, err
	}
	data, err := readText(file)
	if err != nil {
		return "", nil, err
	}
	return file, data, nil
}

// tablesFile picks the tables.json: the one opt names (which must exist), else the
// first of the candidates that exists, else "".
func tablesFile(opt Options, candidates ...string) (string, error) {
	if opt.Tables != "" {
		if _, err := os.Stat(opt.Tables); err != nil {
			return "", fmt.Errorf("tables: %w", err)
		}
		return opt.Tables, nil
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
			return c, nil
		}
	}
	return "", nil
}

// check validates what every question must have and names the file, line and index of
// the first problem.
// MaxGoldAlternatives bounds a question's list of equally acceptable gold queries. Each
// one is run and kept for every prediction: a 3.6 MB question file of one question with
// 300,000 golds took 622 MB (173 bytes a byte of file) and ran each of them (round 54's
// attack). Real datasets list a handful.
const MaxGoldAlternatives = 100

func check(path string, line int, q *Question) error {
	where := fmt.Sprintf("%s:%d: question %d", path, line, q.Index)
	q.DBID = strings.TrimSpace(q.DBID)
	if q.DBID == "" {
		return fmt.Errorf("%s: missing db_id: %w", where, ErrMissing)
	}
	if !safeDBID(q.DBID) {
		return fmt.Errorf("%s: db_id %q cannot name a database (it has a path separator or is . or ..): %w", where, q.DBID, ErrMalformed)
	}
	if len(q.Gold) == 0 {
		return fmt.Errorf("%s: missing gold SQL: %w", where, ErrMissing)
	}
	if len(q.Gold) > MaxGoldAlternatives {
		return fmt.Errorf("%s: %d gold queries; at most %d equally acceptable ones are read (each is run and compared for every prediction): %w",
			where, len(q.Gold), MaxGoldAlternatives, ErrMalformed)
	}
	for i, g := range q.Gold {
		if strings.TrimSpace(g) == "" {
			return fmt.Errorf("%s: gold SQL %d is empty: %w", where, i, ErrMissing)
		}
	}
	if q.Difficulty == "" {
		q.Difficulty = Unknown
	}
	return nil
}

// safeDBID refuses ids that would escape the database root when joined to it.
func safeDBID(id string) bool {
	return id != "" && id != "." && id != ".." && !strings.ContainsAny(id, `/\`) && !strings.ContainsRune(id, 0)
}

// hintUnlessTooLong is hintFor, except for a file refused for a value over the cap.
func hintUnlessTooLong(err error, kind, path string) string {
	if errors.Is(err, ErrTooLong) {
		return ""
	}
	return hintFor(kind, path)
}
