package predict

import (
	"fmt"
)

// readFormat reads a prediction file in the given format ("bird", "spider", "list" or
// "records"; "" or "auto" detects it: detect), bounded by ic. ReadFor is its reader.
// The file is streamed (source.go): what is held is the predictions kept and one item.
func readFormat(path, format string, ic itemCap) (*Set, error) {
	// A UTF-8 byte-order mark is an editor's artefact, never part of the first SQL; the
	// source skips it.
	src, closeFile, err := openSource(path)
	if err != nil {
		return nil, fmt.Errorf("read predictions: %w", err)
	}
	defer closeFile()
	// Before anything decodes (and copies) it: no single prediction over MaxSQLBytes.
	first, _ := src.firstByte()
	if err := src.tooLongError(first == '{' || first == '['); err != nil {
		return nil, err
	}
	if format == "" || format == "auto" {
		if format, err = src.detect(); err != nil {
			return nil, err
		}
	}
	switch format {
	case FormatBIRD:
		return readBIRD(src, ic)
	case FormatSpider:
		return readSpider(src, ic)
	case FormatRecords:
		return readRecords(src, ic)
	case FormatList:
		return readList(src, ic)
	}
	return nil, fmt.Errorf("read predictions %s: %w %q (want bird, spider, list or records)", path, ErrUnknownFormat, format)
}
