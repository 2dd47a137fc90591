package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

// readFormat reads a prediction file in the given format ("bird", "spider", "list" or
// "records"; "" or "auto" detects it: Detect), bounded by ic. ReadFor is its reader.
func readFormat(path, format string, ic itemCap) (*Set, error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("read predictions: %w", err)
	}
	// A UTF-8 byte-order mark is an editor's artefact, never part of the first SQL.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// Before anything decodes (and copies) it: no single prediction over MaxSQLBytes.
	first := skipSpace(data, 0)
	isJSON := first < int64(len(data)) && (data[first] == '{' || data[first] == '[')
	if err := checkLengths(path, data, isJSON); err != nil {
		return nil, err
	}
	if format == "" || format == "auto" {
		if format, err = Detect(path, data); err != nil {
			return nil, err
		}
	}
	switch format {
	case FormatBIRD:
		return readBIRD(path, data, ic)
	case FormatSpider:
		return readSpider(path, data, ic)
	case FormatRecords:
		return readRecords(path, data, ic)
	case FormatList:
		return readList(path, data, ic)
	}
	return nil, fmt.Errorf("read predictions %s: %w %q (want bird, spider, list or records)", path, ErrUnknownFormat, format)
}

// lineCounter turns byte offsets into 1-based line numbers. Offsets asked for are
// usually increasing, so it counts on from the last answer instead of from the start.
type lineCounter struct {
	data []byte
	off  int
	line int
}

func newLineCounter(data []byte) *lineCounter { return &lineCounter{data: data, line: 1} }

func (lc *lineCounter) at(off int64) int {
	o := int(off)
	o = max(0, min(o, len(lc.data)))
	if o < lc.off {
		lc.off, lc.line = 0, 1
	}
	lc.line += bytes.Count(lc.data[lc.off:o], []byte{'\n'})
	lc.off = o
	return lc.line
}

// jsonError locates a JSON decoding error in data and names the file and line.
func jsonError(path string, data []byte, base int64, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		// Name the last line with content, not the empty one after a final newline.
		end := len(bytes.TrimRight(data, " \t\r\n"))
		return fmt.Errorf("%s:%d: unexpected end of file: %w", path, newLineCounter(data).at(int64(end)), ErrMalformed)
	}
	if off < 0 {
		return fmt.Errorf("%s: %v: %w", path, err, ErrMalformed)
	}
	return fmt.Errorf("%s:%d: %v: %w", path, newLineCounter(data).at(base+off), err, ErrMalformed)
}

// skipSpace is jsonscan.SkipSeparators at this package's int64 offsets.
func skipSpace(data []byte, off int64) int64 { return jsonscan.SkipSeparators(data, off) }
