// Package report renders a run for people and tools (the run's types and files are
// internal/rundir's): the terminal
// table, the self-contained HTML report, the Markdown summary and the local dashboard
// (serve). It computes no aggregate: every number it prints comes from summary.json (the
// registry's metrics section, and the analysis sections), and records are read only for
// per-question views. Functions here write to an io.Writer and never choose file names
// themselves: the CLI decides where things go.
//
// To add an output: a new file with a Write<Thing>(w io.Writer, ...) function that reads
// a *rundir.Summary (scores.go builds the tables every output shares), and a golden test
// under testdata/.
package report

import (
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error { return safefile.EncodeJSON(w, v) }
