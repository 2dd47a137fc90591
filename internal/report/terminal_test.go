package report

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestGridWriters pins the grid writers every terminal table prints through: numbers
// right-aligned with every column padded, words left-aligned with the last cell running
// on unless padded.
func TestGridWriters(t *testing.T) {
	rows := [][]string{{"a", "bb"}, {"ccc", "d"}}
	words := [][]string{{"x", "long rule"}, {"yyyy", "r"}}
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer) error
		want  string
	}{
		{"numbers", func(b *bytes.Buffer) error { return writeGrid(b, rows) }, "    a  bb\n  ccc   d\n"},
		{"words", func(b *bytes.Buffer) error { return writeWordGrid(b, words, false) }, "x     long rule\nyyyy  r\n"},
		{"words padded", func(b *bytes.Buffer) error { return writeWordGrid(b, words, true) }, "x     long rule  \nyyyy  r          \n"},
		{"titled", func(b *bytes.Buffer) error {
			return writeTitled(b, TextTable{Title: "T", Head: []string{"h"}, Rows: [][]string{cells(12)}, Caption: "c"})
		}, "\nT\n   h\n  12\nc\n"},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, b.String(), tc.want)
		}
	}
}

type failingWriter struct{ err error }

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }

// TestWriteSectionsErrors: a failed write is returned once every section ran (printing
// nowhere); a section's own error stops the rest.
func TestWriteSectionsErrors(t *testing.T) {
	full, bad := errors.New("disk full"), errors.New("bad section")
	ran := 0
	write := func(w io.Writer, _ *rundir.Summary) error { ran++; _, err := io.WriteString(w, "x\n"); return err }
	fail := func(io.Writer, *rundir.Summary) error { ran++; return bad }
	sections := func(ws ...func(io.Writer, *rundir.Summary) error) []Section {
		var out []Section
		for _, w := range ws {
			out = append(out, Section{In: OutDetails, Details: w})
		}
		return append(out, Section{In: OutShort, Short: fail}) // not in the output: never run
	}
	if err := writeOutput(failingWriter{full}, &rundir.Summary{}, OutDetails, sections(write, write)); !errors.Is(err, full) || ran != 2 {
		t.Errorf("write error: got %v after %d sections", err, ran)
	}
	ran = 0
	var b bytes.Buffer
	if err := writeOutput(&b, &rundir.Summary{}, OutDetails, sections(write, fail, write)); !errors.Is(err, bad) || ran != 2 || b.String() != "x\n" {
		t.Errorf("section error: got %v after %d sections, printed %q", err, ran, b.String())
	}
}
