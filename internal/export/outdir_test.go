package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// listTree is every path under root (relative), and every path written beside it.
func listTree(tb testing.TB, root string) []string {
	tb.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestFileNameNeverLeaves(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"item", "item"},
		{"Player Attributes", "Player Attributes"},
		{"表格", "表格"},
		{"a.b", "a.b"},
		{"../../pwned", "%2E.%2F..%2Fpwned"},
		{"..", "%2E."},
		{".", "%2E"},
		{".hidden", "%2Ehidden"},
		{"a/b", "a%2Fb"},
		{`a\b`, "a%5Cb"},
		{"nl\nx", "nl%0Ax"},
		{"100%", "100%25"},
		{"nul\x00", "nul%00"},
		{"bad\xffutf8", "bad%FFutf8"},
		{"", "%empty"},
		{"\u202eevil", "%E2%80%AEevil"}, // right-to-left override: not printable
	} {
		got := FileName(tc.name)
		if got != tc.want {
			t.Errorf("FileName(%q) = %q, want %q", tc.name, got, tc.want)
		}
		if !filepath.IsLocal(got) || strings.ContainsAny(got, "/\\\n\x00") || got == "." || got == ".." {
			t.Errorf("FileName(%q) = %q leaves the directory or is unreadable", tc.name, got)
		}
	}
	// One-to-one: names that differ stay apart (the encoding's own escape is encoded).
	if FileName("a%2Fb") == FileName("a/b") || FileName("%empty") == FileName("") {
		t.Error("two names share a file name")
	}
}

// Issue 45, failure 2: a table named ../../pwned wrote pwned.jsonl beside --out, a table
// name holding a newline made a file name with one.
func TestWriteDocsHostileTableNamesStayInside(t *testing.T) {
	src := makeSQLite(t,
		`CREATE TABLE "../../pwned" (a INTEGER)`,
		`INSERT INTO "../../pwned" VALUES (1)`,
		"CREATE TABLE \"nl\nx\" (a INTEGER)",
		`CREATE TABLE "/etc/passwd_x" (a INTEGER)`,
	)
	base := t.TempDir()
	out := filepath.Join(base, "a", "b", "out")
	st, err := WriteDocs(context.Background(), src, out)
	if err != nil {
		t.Fatal(err)
	}
	if st.Collections != 3 {
		t.Errorf("%d collections, want 3", st.Collections)
	}
	for _, p := range listTree(t, base) {
		if p == "." || p == "a" || p == filepath.Join("a", "b") || p == filepath.Join("a", "b", "out") {
			continue
		}
		if !strings.HasPrefix(p, filepath.Join("a", "b", "out")+string(filepath.Separator)) {
			t.Errorf("wrote %s outside --out", p)
		}
		if strings.ContainsAny(p, "\n") {
			t.Errorf("file name %q holds a newline", p)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "%2E.%2F..%2Fpwned.jsonl"))
	if err != nil || string(b) != `{"_key":"1","a":1}`+"\n" {
		t.Errorf("the hostile table's documents: %q, %v", b, err)
	}
}

// Issue 45, failure 2: a question_id ../../../pwned_q wrote its gold CSV outside --out.
func TestDirCreateHostileIDStaysInside(t *testing.T) {
	base := t.TempDir()
	top, err := OpenDir(filepath.Join(base, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	db, err := top.Sub("../db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gold, err := db.Sub("gold")
	if err != nil {
		t.Fatal(err)
	}
	defer gold.Close()
	for _, id := range []string{"../../../pwned_q", "/tmp/abs", "..", "q\r\n1"} {
		f, path, err := gold.Create(id, ".csv")
		if err != nil {
			t.Fatalf("%q: %v", id, err)
		}
		f.Close()
		if !strings.HasPrefix(path, filepath.Join(base, "out")+string(filepath.Separator)) {
			t.Errorf("%q written at %s", id, path)
		}
	}
	for _, p := range listTree(t, base) {
		if p != "." && p != "out" && !strings.HasPrefix(p, "out"+string(filepath.Separator)) {
			t.Errorf("wrote %s outside --out", p)
		}
	}
}

// Attack: a symlink already in the output directory, named as a table's file, pointing
// at a file of the victim's: the export must not write through it.
func TestDirRefusesSymlinkOut(t *testing.T) {
	base := t.TempDir()
	victim := filepath.Join(base, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(base, "out")
	os.Mkdir(out, 0o755)
	if err := os.Symlink(victim, filepath.Join(out, "item.jsonl")); err != nil {
		t.Fatal(err)
	}
	src := makeSQLite(t, `CREATE TABLE item (a INTEGER)`, `INSERT INTO item VALUES (1)`)
	if _, err := WriteDocs(context.Background(), src, out); err == nil {
		t.Error("wrote through a symlink leaving the output directory")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("victim file is now %q", b)
	}
}

// Attack: a symlinked sub-directory (out/db -> elsewhere) is not followed out either.
func TestDirSubRefusesSymlinkOut(t *testing.T) {
	base := t.TempDir()
	elsewhere := filepath.Join(base, "elsewhere")
	os.Mkdir(elsewhere, 0o755)
	out := filepath.Join(base, "out")
	os.Mkdir(out, 0o755)
	if err := os.Symlink(elsewhere, filepath.Join(out, "db")); err != nil {
		t.Fatal(err)
	}
	top, err := OpenDir(out)
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	if d, err := top.Sub("db"); err == nil {
		d.Close()
		t.Error("opened a symlink leaving the output directory as a sub-directory")
	}
}

// Attack: two question ids differing only in case would share one file on macOS or
// Windows; the second must be an error, not overwrite the first.
func TestDirNameClash(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, _, err := d.Create("Q1", ".csv")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, err := d.Create("q1", ".csv"); !errors.Is(err, ErrNameClash) {
		t.Errorf("got %v, want ErrNameClash", err)
	}
}

// Attack: a FIFO where a file is written would block the export forever: refused.
func TestDirCreateRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "item.jsonl"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if f, _, err := d.Create("item", ".jsonl"); err == nil {
		f.Close()
		t.Error("opened a FIFO for writing")
	}
}
