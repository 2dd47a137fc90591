package collect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// Two-pass runs (the Couchbase NL2SQL++ benchmark): pass 1 is an ordinary run, judged;
// pass 2 runs again, with the second-pass prompt, on the questions pass 1 got wrong
// (Options.Select, Options.Pass, Options.Previous); the final records are pass 1's with
// the retried questions' blocks replaced by pass 2's. The orchestration (judging between
// passes) lives in the run layer (internal/run, TwoPass), which can reach the judge.

// ReadRecords reads a module-records file collect wrote (modules.jsonl), in file order. A
// torn last line (a run killed mid-write) is ignored, as resume would cut it off.
func ReadRecords(path string) ([]predict.ModuleRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	var out []predict.ModuleRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	off, line := 0, 0
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		off += len(raw) + 1
		if off > len(data) {
			break // no newline: torn
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var r predict.ModuleRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v: %w", path, line, err, ErrBadRecords)
		}
		out = append(out, r)
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
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("write records: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write records: %w", err)
	}
	return nil
}
