package collect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// ErrBadRecords reports a records file collect cannot resume from.
var ErrBadRecords = errors.New("records file cannot be resumed")

// recordWriter appends each question's records in one write and syncs it, so a crash
// leaves at most the tail of one question's block, which resume cuts off.
type recordWriter struct {
	mu sync.Mutex
	f  *os.File
}

func (w *recordWriter) write(recs []predict.ModuleRecord) error {
	b, err := encodeRecords(recs)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(b); err != nil {
		return fmt.Errorf("write records: %w", err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("sync records: %w", err)
	}
	return nil
}

// doneQuestion is a question already in the records file.
type doneQuestion struct {
	recs []predict.ModuleRecord
}

// openRecords opens path for appending after reading the questions it already holds. A
// question's block is complete when it has exactly the node types want, in order;
// an incomplete block at the end (a crash mid-write, or a torn line) is cut off. Anything
// else that does not fit is an error naming the line: it is not ours to repair.
func openRecords(path string, want []string) (*recordWriter, map[string]doneQuestion, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("open records: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() > maxRecordsFile {
		err = fmt.Errorf("%w: %s, the cap is %s", safefile.ErrTooLarge, safefile.Bytes(fi.Size()), safefile.Bytes(maxRecordsFile))
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("read records %s: %w", path, err)
	}
	done, good, err := parseDone(path, f, want)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if good < fi.Size() {
		if err := f.Truncate(int64(good)); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("repair records: %w", err)
		}
	}
	if _, err := f.Seek(int64(good), io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("open records: %w", err)
	}
	return &recordWriter{f: f}, done, nil
}

func questionKey(dbID, qid string) string { return dbID + "\x00" + qid }

// parseDone reads complete question blocks; good is the byte offset after the last one.
// A last line that is not JSON, with or without its newline, is a torn write.
func parseDone(path string, r io.Reader, want []string) (map[string]doneQuestion, int64, error) {
	done := map[string]doneQuestion{}
	var block []predict.ModuleRecord
	var good int64
	blockStart := 0
	var badLine error // a line that is not JSON: an error unless it is the last
	_, err := safefile.ReadLines(r, 0, func(l safefile.Line) error {
		if badLine != nil {
			return badLine
		}
		line := l.N
		var r predict.ModuleRecord
		if err := json.Unmarshal(l.Bytes, &r); err != nil {
			badLine = fmt.Errorf("%s:%d: %v: %w", path, line, err, ErrBadRecords)
			return nil
		}
		if len(block) == 0 {
			blockStart = line
		}
		if len(block) > 0 && questionKey(block[0].DBID, string(block[0].QuestionID)) != questionKey(r.DBID, string(r.QuestionID)) {
			return fmt.Errorf("%s:%d: question %s starts before question %s (line %d) has all its modules: %w",
				path, line, r.QuestionID, block[0].QuestionID, blockStart, ErrBadRecords)
		}
		if r.NodeType != want[len(block)] {
			return fmt.Errorf("%s:%d: node_type %q where this pipeline writes %q (was the file written with another config? use a new --out): %w",
				path, line, r.NodeType, want[len(block)], ErrBadRecords)
		}
		block = append(block, r)
		if len(block) == len(want) {
			k := questionKey(r.DBID, string(r.QuestionID))
			if _, dup := done[k]; dup {
				return fmt.Errorf("%s:%d: question %s (%s) recorded twice: %w", path, line, r.QuestionID, r.DBID, ErrBadRecords)
			}
			done[k] = doneQuestion{recs: block}
			block = nil
			good = l.End
		}
		return nil
	})
	if err != nil && !errors.Is(err, safefile.ErrTornLine) {
		if errors.Is(err, ErrBadRecords) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("read records %s: %w", path, err)
	}
	return done, good, nil
}

// encodeRecords renders records as JSON Lines, HTML characters left as they are.
func encodeRecords(recs []predict.ModuleRecord) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return nil, fmt.Errorf("encode record: %w", err)
		}
	}
	return buf.Bytes(), nil
}
