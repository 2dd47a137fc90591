package benchrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// adopt copies the finished cells of the shard directory src that this matrix has not
// finished: a cell is adopted only when src's copy passes the same checks as one of our
// own (its input hash, its judged run's integrity, its module records' sha256), so a shard
// run with another plan or a tampered cell is never mixed in. Symlinks are refused: the
// shard directory is someone else's.
func (m *Matrix) adopt(ctx context.Context, src string) error {
	from := &Matrix{plan: m.plan, out: src, hashes: m.hashes}
	n := 0
	for _, c := range m.plan.Cells {
		if done, err := m.cellDone(ctx, c, false); err != nil || done {
			if err != nil {
				return err
			}
			continue
		}
		ok, err := from.cellDone(ctx, c, false)
		if err != nil {
			return fmt.Errorf("--merge %s: %w", src, err)
		}
		if !ok {
			continue
		}
		dst := CellDir(m.out, c)
		if empty, _ := dirEmpty(dst); !empty {
			if err := m.supersede(c, "unmerged"); err != nil {
				return err
			}
		}
		if err := copyCellTree(CellDir(src, c), dst); err != nil {
			return fmt.Errorf("--merge %s: cell %s: %w", src, c.Name, err)
		}
		if ok, err := m.cellDone(ctx, c, false); err != nil || !ok {
			return fmt.Errorf("--merge %s: cell %s does not check out after the copy: %v", src, c.Name, err)
		}
		n++
	}
	m.obs.Note(fmt.Sprintf("merged %d finished cell(s) from %s", n, src))
	return nil
}

// copyCellTree copies the regular files and directories under src to dst (which must not
// exist), refusing anything else. Writer locks are left behind.
func copyCellTree(src, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("%s exists", dst)
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".nl2sqlbench-lock"):
			return nil // a writer's lock: not part of the cell
		case d.Type().IsRegular():
			return copyCellFile(path, target)
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symlink: a shard's cell holds only its own files", path)
		}
		return fmt.Errorf("%s is not a regular file", path)
	})
}

func copyCellFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	if _, err := io.Copy(out, in); err != nil {
		return err
	}
	return out.Sync()
}
