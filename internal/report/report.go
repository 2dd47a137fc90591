package report

import (
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error { return safefile.EncodeJSON(w, v) }
