package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// ErrNameClash is the error of two names from the data (tables, question ids) that would
// be written to one file: the second would overwrite the first.
var ErrNameClash = errors.New("two names map to one file")

// FileName is the file name that name, a name read from data (a table, a question id, a
// database id), is written under: the name itself when it is a plain one, otherwise with
// every byte that could leave the directory or make a name unreadable percent-encoded: a
// path separator (/ or \), %, a control or non-printing character, invalid UTF-8, and a
// leading dot (so "..", "." and hidden names never arise). The mapping is one-to-one, so
// two different names never share a file (up to a file system that ignores case: Dir
// refuses those). An empty name is written as "%empty" (no other name encodes to it).
func FileName(name string) string {
	if name == "" {
		return "%empty"
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		plain := r != utf8.RuneError && unicode.IsPrint(r) && r != '/' && r != '\\' && r != '%' && !(i == 0 && r == '.')
		if plain {
			b.WriteString(name[i : i+size])
		} else {
			for _, c := range []byte(name[i : i+size]) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		i += size
	}
	return b.String()
}

// Dir is an output directory that files named from data are written into: every file is
// created through an os.Root, so neither a name nor a symlink already in the directory can
// put it anywhere else, and two names that would share a file are an error (ErrNameClash)
// rather than one overwriting the other.
type Dir struct {
	path string
	root *os.Root
	seen map[string]string // folded file name -> the name it came from
}

// OpenDir creates dir (and its parents) when missing and opens it for writing.
func OpenDir(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	return &Dir{path: dir, root: root, seen: map[string]string{}}, nil
}

// Path is the directory's path as given.
func (d *Dir) Path() string { return d.path }

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Sub creates (when missing) and opens the sub-directory named name (encoded as FileName)
// inside d.
func (d *Dir) Sub(name string) (*Dir, error) {
	file := FileName(name)
	if err := d.claim(name, file); err != nil {
		return nil, err
	}
	if err := d.root.Mkdir(file, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("create %s: %w", filepath.Join(d.path, file), err)
	}
	root, err := d.root.OpenRoot(file)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", filepath.Join(d.path, file), err)
	}
	return &Dir{path: filepath.Join(d.path, file), root: root, seen: map[string]string{}}, nil
}

// Create creates (or truncates) the file FileName(name)+ext inside d for writing, and
// returns it with its path for messages.
func (d *Dir) Create(name, ext string) (*os.File, string, error) {
	file := FileName(name) + ext
	path := filepath.Join(d.path, file)
	if err := d.claim(name, file); err != nil {
		return nil, path, err
	}
	// O_NONBLOCK: a FIFO already there is refused below, not waited on; truncated only
	// once known to be a regular file.
	f, err := d.root.OpenFile(file, os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, path, fmt.Errorf("create %s: %w", path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, path, fmt.Errorf("create %s: not a regular file", path)
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, path, fmt.Errorf("create %s: %w", path, err)
	}
	return f, path, nil
}

// claim records that file is written for name, refusing a file another name already has
// (compared without case: macOS and Windows file systems ignore it).
func (d *Dir) claim(name, file string) error {
	key := strings.ToLower(file)
	if prev, ok := d.seen[key]; ok {
		return fmt.Errorf("%w: %q and %q would both be written to %s", ErrNameClash, prev, name, filepath.Join(d.path, file))
	}
	d.seen[key] = name
	return nil
}
