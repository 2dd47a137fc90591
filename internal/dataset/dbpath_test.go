package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDBPathInside: database ids from an untrusted run resolve only to files inside
// the root the user gave; a link out of it, a path-like id and a missing database
// are refused, naming the file.
func TestDBPathInside(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "secret")
	for _, d := range []string{filepath.Join(root, "good"), filepath.Join(root, "linkfile"), filepath.Join(root, "inner"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "good", "good.sqlite"))
	write(filepath.Join(outside, "secret.sqlite"))
	write(filepath.Join(outside, "linkfile.sqlite"))
	write(filepath.Join(root, "inner", "inner.sqlite"))
	// A database folder that is a link out of the root, a file that is one, and a
	// link that stays inside.
	if err := os.Symlink(outside, filepath.Join(root, "secret")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.Symlink(filepath.Join(outside, "linkfile.sqlite"), filepath.Join(root, "linkfile", "linkfile.sqlite")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "inner"), filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "inner", "inner.sqlite"), filepath.Join(root, "inner", "alias.sqlite")); err != nil {
		t.Fatal(err)
	}
	ds := &Dataset{Kind: "spider", DBRoot: root, Confined: true}
	for _, c := range []struct {
		id, want string // want: "" accepted, else the error's sentinel text and file
		err      error
	}{
		{id: "good"},
		{id: "secret", err: ErrOutsideRoot, want: filepath.Join(root, "secret", "secret.sqlite")},
		{id: "linkfile", err: ErrOutsideRoot, want: filepath.Join(root, "linkfile", "linkfile.sqlite")},
		{id: "..", err: ErrOutsideRoot, want: `".."`},
		{id: "../secret", err: ErrOutsideRoot, want: `"../secret"`},
		{id: outside, err: ErrOutsideRoot, want: outside},
		{id: "missing", err: ErrNoDatabase, want: "missing"},
	} {
		p, err := ds.DBPathInside(c.id)
		if c.err == nil {
			if err != nil || !strings.HasSuffix(p, filepath.Join("good", "good.sqlite")) {
				t.Errorf("%s: %q, %v; want the file inside the root", c.id, p, err)
			}
			continue
		}
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q, %v; want %v naming %s", c.id, p, err, c.err, c.want)
		}
		if q, ok := ds.DBPath(c.id); ok {
			t.Errorf("%s: confined DBPath returned %s", c.id, q)
		}
	}
	// A link that stays inside the root is followed.
	in := &Dataset{Kind: "spider", DBRoot: filepath.Join(root), Confined: true}
	if _, err := in.DBPathInside("alias"); err != nil {
		t.Errorf("alias (a link inside the root): %v", err)
	}
	// Unconfined lookup is unchanged: it follows the link out (eval's own --db-root).
	free := &Dataset{Kind: "spider", DBRoot: root}
	if _, ok := free.DBPath("secret"); !ok {
		t.Error("unconfined DBPath refused a link; eval's lookup must not change")
	}
}
