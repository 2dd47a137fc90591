package rundir

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// The files of a run directory (docs/run-directory.md). A system's files are in
// DIR/<system>/, <system> being record.SystemDir of its name.
const (
	ManifestFile   = "manifest.json"
	SummaryFile    = "summary.json"
	ArgsFile       = "args.json"
	RecordsFile    = "records.jsonl"
	StatisticsFile = "statistics.json"
	ReviewsFile    = "reviews.jsonl"
	AuditFile      = "audit.jsonl"
	ReportFile     = "report.html"
	// LLMJudgeCacheFile is eval --llm-judge's answer cache (collect's cache format).
	LLMJudgeCacheFile = "llm_judge_cache.jsonl"
)

// SchemaVersion is the version of the JSON files this build writes (summary.json's and
// manifest.json's schema_version). Absent (0): written before versions, by a build
// whose summary.json also carried the exec_efficiency section and no file hashes.
//
//	2: exec_efficiency dropped (the metrics section holds Soft-F1, VES and R-VES);
//	   summary.json and manifest.json carry the sha256 of every file the run wrote.
const SchemaVersion = 2

// Size caps per file: far over any real run, far under what would exhaust memory. A file
// over its cap is refused with an error naming it and the cap (safefile.ErrTooLarge).
const (
	MaxManifest   = 64 << 20
	MaxSummary    = 256 << 20
	MaxArgs       = 1 << 20
	MaxRecords    = 1 << 30
	MaxStatistics = 256 << 20
	MaxReviews    = review.MaxFile
	MaxAudit      = 256 << 20
	MaxReviewed   = 64 << 20
	MaxScript     = 64 << 20 // a counterexample script
	MaxPricing    = 16 << 20
)

// ReadFile reads a file of a run directory whole, within max bytes.
func ReadFile(path string, max int64) ([]byte, error) { return safefile.ReadFile(path, max) }

// WriteJSON writes v as DIR's file path, atomically.
func WriteJSON(path string, v any) error { return safefile.WriteJSON(path, v) }

// ReadManifest reads DIR/manifest.json. A missing file's error matches os.ErrNotExist.
func ReadManifest(dir string) (*Manifest, error) {
	var m Manifest
	path, err := Resolve(dir, ManifestFile) // inside the run: never a symlink out of it
	if err != nil {
		return nil, err
	}
	if err := readJSON(path, MaxManifest, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// ReadSummary reads DIR/summary.json. A missing file's error matches os.ErrNotExist.
func ReadSummary(dir string) (*Summary, error) {
	var s Summary
	path, err := Resolve(dir, SummaryFile) // inside the run: never a symlink out of it
	if err != nil {
		return nil, err
	}
	b, err := safefile.ReadFile(path, MaxSummary)
	if err != nil {
		return nil, err
	}
	if err := checkSummaryShape(b); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := jsonUnmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return &s, nil
}

func readJSON(path string, max int64, v any) error {
	b, err := safefile.ReadFile(path, max)
	if err != nil {
		return err
	}
	// Counted before decoding: a few bytes can decode into a kilobyte (jsonscan.Shape).
	if err := jsonscan.CheckDensity(b); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := jsonUnmarshal(b, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// ReadRecords reads a system's records.jsonl. A cut-off last line is an error matching
// record.ErrTornLine that names the file; the complete records before it are returned
// with it, so a caller that can go on (a report of an interrupted run) may.
func ReadRecords(path string) ([]record.Record, error) {
	f, _, err := safefile.Open(path, MaxRecords)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, _, err := record.ReadJSONL(f)
	if err != nil {
		return recs, fmt.Errorf("read %s: %w", path, err)
	}
	return recs, nil
}

// ResumeRecords reads the complete records of f, an open records file that a resumed
// run continues, and leaves f positioned after them with a torn last line cut off.
func ResumeRecords(f *os.File, path string) ([]record.Record, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("resume from %s: %w", path, err)
	}
	if fi.Size() > MaxRecords {
		return nil, fmt.Errorf("resume from %s: %w: %s, the cap is %s", path, safefile.ErrTooLarge, safefile.Bytes(fi.Size()), safefile.Bytes(MaxRecords))
	}
	recs, valid, err := record.ReadJSONL(f)
	if err != nil && !errors.Is(err, record.ErrTornLine) {
		return nil, fmt.Errorf("resume from %s: %w", path, err)
	}
	if err := f.Truncate(valid); err != nil {
		return nil, fmt.Errorf("resume from %s: %w", path, err)
	}
	if _, err := f.Seek(valid, io.SeekStart); err != nil {
		return nil, fmt.Errorf("resume from %s: %w", path, err)
	}
	return recs, nil
}

// WriteRecords replaces a records file with recs, atomically.
func WriteRecords(path string, recs []record.Record) error {
	return safefile.Write(path, func(w io.Writer) error {
		rw := record.NewWriter(w)
		for i := range recs {
			if err := rw.Write(&recs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}
