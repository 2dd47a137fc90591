package collect

import (
	"encoding/json"
	"fmt"

	"errors"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// Two-pass runs (the Couchbase NL2SQL++ benchmark): pass 1 is an ordinary run, judged;
// pass 2 runs again, with the second-pass prompt, on the questions pass 1 got wrong
// (Options.Select, Options.Pass, Options.Previous); the final records are pass 1's with
// the retried questions' blocks replaced by pass 2's. The orchestration (judging between
// passes) lives in the run layer (internal/benchrun, TwoPass), which can reach the judge.

// ReadRecords reads a module-records file collect wrote (modules.jsonl), in file order. A
// torn last line (a run killed mid-write) is ignored, as resume would cut it off.
func ReadRecords(path string) ([]predict.ModuleRecord, error) {
	f, _, err := safefile.Open(path, maxRecordsFile)
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	defer f.Close()
	var out []predict.ModuleRecord
	_, err = safefile.ReadLines(f, 0, func(l safefile.Line) error {
		var r predict.ModuleRecord
		if err := json.Unmarshal(l.Bytes, &r); err != nil {
			return fmt.Errorf("%s:%d: %v: %w", path, l.N, err, ErrBadRecords)
		}
		out = append(out, r)
		return nil
	})
	if err != nil && !errors.Is(err, safefile.ErrTornLine) {
		if errors.Is(err, ErrBadRecords) {
			return nil, err
		}
		return nil, fmt.Errorf("read records %s: %w", path, err)
	}
	return out, nil
}

// MergePasses returns first with the records of every question in retried (keys from
// QuestionKey) replaced by that question's records in second, in first's order. A retried
// question that second lacks (it failed for good in pass 2) keeps its first-pass records.
func MergePasses(first, second []predict.ModuleRecord, retried map[string]bool) []predict.ModuleRecord {
	byKey := map[string][]predict.ModuleRecord{}
	for _, r := range second {
		k := questionKey(r.DBID, string(r.QuestionID))
		if retried[k] {
			byKey[k] = append(byKey[k], r)
		}
	}
	out := make([]predict.ModuleRecord, 0, len(first))
	done := map[string]bool{}
	for _, r := range first {
		k := questionKey(r.DBID, string(r.QuestionID))
		if repl, ok := byKey[k]; ok {
			if !done[k] {
				out = append(out, repl...)
				done[k] = true
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// WriteRecordsFile writes recs to path atomically (a temporary file renamed over it), so
// a reader never sees half a merged file.
func WriteRecordsFile(path string, recs []predict.ModuleRecord) error {
	b, err := encodeRecords(recs)
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(path, b); err != nil {
		return fmt.Errorf("write records: %w", err)
	}
	return nil
}

// Size caps of collect's own files (safefile): far over a real run's.
const (
	maxRecordsFile  = 1 << 30
	maxManifestFile = 1 << 20
)
