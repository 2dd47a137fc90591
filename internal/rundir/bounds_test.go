package rundir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(tb testing.TB, f func()) uint64 {
	tb.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// writeSummary writes text as dir's summary.json.
func writeSummary(tb testing.TB, dir, text string) {
	tb.Helper()
	if err := os.WriteFile(filepath.Join(dir, SummaryFile), []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestLoadBoundsSummaryByCounts: a summary.json made to decode into far more memory than
// it holds is refused before decoding, with an error naming the file, having allocated a
// small multiple of its size. Before, 4.5 MB holding 1.5M `{}` in systems took 8.7 GB in
// report (issue 45, failure 1).
func TestLoadBoundsSummaryByCounts(t *testing.T) {
	const head = `{"tool": "nl2sqlbench", "dataset": {"kind": "spider"}, "systems": [`
	for _, tt := range []struct {
		name string
		text string
		want error
	}{
		{"1.5M empty systems", head + strings.Repeat(`{},`, 1500000) + `{}]}`, jsonscan.ErrTooDense},
		{"systems of one short key", head + strings.Repeat(`{"system":"abcdefghij"},`, 200000) + `{}]}`, ErrTooManySystems},
		{"501 real-sized systems", head + strings.Repeat(`{"system":"`+strings.Repeat("s", 300)+`"},`, MaxSystems) + `{}]}`, ErrTooManySystems},
		{"empty slices in a section", `{"tool": "x", "systems": [], "warnings": [` + strings.Repeat(`[],`, 1000000) + `[]]}`, jsonscan.ErrTooDense},
		{"empty objects in a map", `{"tool": "x", "systems": [], "files": {"a": ` + strings.Repeat(`{"b": `, 300000) + `1` + strings.Repeat(`}`, 300000) + `}}`, jsonscan.ErrTooDense},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeSummary(t, dir, tt.text)
			var err error
			n := allocated(t, func() { _, err = Load(context.Background(), dir) })
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), filepath.Join(dir, SummaryFile)) {
				t.Errorf("err = %v, want %v naming summary.json", err, tt.want)
			}
			if per := float64(n) / float64(len(tt.text)); per > 50 {
				t.Errorf("allocated %d bytes for a %d-byte summary.json (%.0fx), want under 50x", n, len(tt.text), per)
			}
		})
	}
}

// TestLoadBoundsRecords: a system's records.jsonl of `{}` lines is refused naming the
// file and line (a 1 MB one took 847 MB before).
func TestLoadBoundsRecords(t *testing.T) {
	dir, _ := sealedDir(t)
	data := strings.Repeat("{}\n", 350000)
	if err := os.WriteFile(filepath.Join(dir, "a", RecordsFile), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	n := allocated(t, func() { _, err = Load(context.Background(), dir) })
	if !errors.Is(err, record.ErrTooDense) || !strings.Contains(err.Error(), filepath.Join(dir, "a", RecordsFile)) || !strings.Contains(err.Error(), "line 1025") {
		t.Errorf("err = %v, want ErrTooDense naming the records file and line 1025", err)
	}
	if per := float64(n) / float64(len(data)); per > 50 {
		t.Errorf("allocated %d bytes for a %d-byte records file (%.0fx), want under 50x", n, len(data), per)
	}
}

// TestCheckSystems: eval refuses up front the system count the tools cannot read back.
func TestCheckSystems(t *testing.T) {
	if err := CheckSystems(MaxSystems); err != nil {
		t.Errorf("CheckSystems(%d) = %v", MaxSystems, err)
	}
	if err := CheckSystems(MaxSystems + 1); !errors.Is(err, ErrTooManySystems) {
		t.Errorf("CheckSystems(%d) = %v, want ErrTooManySystems", MaxSystems+1, err)
	}
}

// TestReadJSONBoundsEveryRunFile: the run's other JSON files (manifest, reviewed,
// agreement, statistics) share the count bound through readJSON.
func TestReadJSONBoundsEveryRunFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ManifestFile)
	data := `{"tool": "x", "warnings": [` + strings.Repeat(`{},`, 500000) + `{}]}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := readJSON(path, MaxManifest, &m); !errors.Is(err, jsonscan.ErrTooDense) || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want ErrTooDense naming %s", err, path)
	}
}
