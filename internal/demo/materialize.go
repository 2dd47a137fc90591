package demo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Layout of the embedded tree (relative to data/) and of a materialized demo.
const (
	questionsFile = "questions.jsonl"
	sqlDir        = "sql"
	systemsDir    = "systems"
	databasesDir  = "databases"
	hashDigits    = 12
)

// subData returns the data/ subtree of the embedded files.
func subData(fsys fs.FS) (fs.FS, error) {
	sub, err := fs.Sub(fsys, "data")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadData, err)
	}
	return sub, nil
}

// contentHash hashes every file of fsys, names and contents, in a fixed order, so any edit
// (even a rename) gives a new directory and therefore a rebuild.
func contentHash(fsys fs.FS) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		// Length prefixes keep "ab"+"c" and "a"+"bc" apart.
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash demo data: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:hashDigits], nil
}

// materialize is Materialize over any file tree, so tests can feed it their own.
func materialize(ctx context.Context, data fs.FS, dir string) (*Files, error) {
	if dir == "" {
		return nil, ErrNoDir
	}
	sum, err := contentHash(data)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, sum)
	f := &Files{
		Dir:       root,
		Questions: filepath.Join(root, questionsFile),
		DBRoot:    filepath.Join(root, databasesDir),
		Systems:   map[string]string{},
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := copyFile(data, questionsFile, f.Questions); err != nil {
		return nil, err
	}
	systems, err := fs.Glob(data, path.Join(systemsDir, "*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadData, err)
	}
	for _, p := range systems {
		name := strings.TrimSuffix(path.Base(p), ".jsonl")
		dst := filepath.Join(root, systemsDir, path.Base(p))
		if err := copyFile(data, p, dst); err != nil {
			return nil, err
		}
		f.Systems[name] = dst
		f.SystemOrder = append(f.SystemOrder, name)
	}
	sort.Strings(f.SystemOrder)
	if len(f.SystemOrder) == 0 {
		return nil, fmt.Errorf("%w: no systems under %s/", ErrBadData, systemsDir)
	}
	scripts, err := fs.Glob(data, path.Join(sqlDir, "*.sql"))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadData, err)
	}
	for _, p := range scripts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		id := strings.TrimSuffix(path.Base(p), ".sql")
		script, err := fs.ReadFile(data, p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		dst := filepath.Join(f.DBRoot, id, id+".sqlite")
		if err := ensureDatabase(ctx, dst, string(script)); err != nil {
			return nil, fmt.Errorf("%w %s: %w", ErrBuild, id, err)
		}
	}
	return f, nil
}

// copyFile writes the embedded file src to dst unless dst already holds exactly those
// bytes (then it is left alone, mtime and all). The write goes through a temporary file
// and a rename, so a reader never sees half a file.
func copyFile(data fs.FS, src, dst string) error {
	b, err := fs.ReadFile(data, src)
	if err != nil {
		return fmt.Errorf("%w: read %s: %w", ErrBadData, src, err)
	}
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, b) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("write demo file: %w", err)
	}
	if err := safefile.WriteFile(dst, b); err != nil {
		return fmt.Errorf("write demo file: %w", err)
	}
	return nil
}
