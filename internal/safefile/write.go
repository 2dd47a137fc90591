// Package safefile writes files atomically and reads them back within a size cap: the
// one atomic writer (a unique temp file in the same directory, fsync of the file,
// rename, fsync of the directory) and the one capped reader and JSON Lines reader that
// every package writing or reading a run directory or a cache uses. A file is either its
// old contents or its new ones, never a mix, even after a crash; and what someone else
// wrote is never read without a bound, nor waited on (a FIFO is refused, not blocked
// on). A JSON Lines file whose last line was cut off by an interruption reads as its
// whole lines and ErrTornLine, with the offset where a resumed writer truncates.
package safefile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes path atomically with what write puts into its buffered writer: a unique
// temporary file beside path (so two writers never share one), synced, renamed over
// path, then the directory synced so the rename survives a crash. On any error path is
// unchanged and the temporary file is gone.
func Write(path string, write func(w io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	// CreateTemp makes the file 0600; a run directory is read by others as any output is.
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return SyncDir(dir)
}

// WriteFile writes data to path atomically (Write).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteJSON writes v to path atomically as indented JSON (EncodeJSON).
func WriteJSON(path string, v any) error {
	return Write(path, func(w io.Writer) error { return EncodeJSON(w, v) })
}

// EncodeJSON writes v as indented JSON without HTML escaping: the form of every JSON
// file nl2sqlbench writes.
func EncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// SyncDir flushes a directory's entries (a rename or a new file in it) to disk.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
