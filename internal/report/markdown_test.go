package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteMarkdown(t *testing.T) {
	run := loadFixture(t, fixtureRun(t))
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, run); err != nil {
		t.Fatal(err)
	}
	// The dataset path differs per temp dir; only its base name is printed.
	golden(t, filepath.Join("markdown", "two-systems.md"), buf.Bytes())
	if strings.Contains(buf.String(), "<i>") {
		t.Error("a system name's markup reached the Markdown")
	}
}
