package collect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// ErrBadRecords reports a records file collect cannot resume from.
var ErrBadRecords = errors.New("records file cannot be resumed")

// ModuleRecord is one module's output for one question: one line of records.jsonl, in the
// NL2SQLBench module-node form `eval --pred` reads. Usage fields are always written (a
// module that called no LLM used 0 tokens: known, not unknown); token_cost repeats
// total_tokens and call_llm_times repeats llm_calls, for readers that know only those names.
type ModuleRecord struct {
	NodeType        string              `json:"node_type"`
	QuestionID      string              `json:"question_id"`
	DBID            string              `json:"db_id"`
	Question        string              `json:"question"`
	Strategy        string              `json:"strategy"`
	ExtractedSchema map[string][]string `json:"extracted_schema,omitempty"`
	// SQL is a string, or for several candidates a list (the first is the one judged
	// when there is no revision).
	SQL              any   `json:"SQL,omitempty"`
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	TotalTokens      int   `json:"total_tokens"`
	TokenCost        int   `json:"token_cost"`
	LLMCalls         int   `json:"llm_calls"`
	CallLLMTimes     int   `json:"call_llm_times"`
	LatencyMS        int64 `json:"latency_ms"`
	// CachedCalls is how many of the calls were answered from the response cache.
	CachedCalls int `json:"cached_calls,omitempty"`
	// SchemaSource says how extracted_schema was obtained when it is not the strategy's
	// normal outcome (e.g. "fallback_full" when the model's answer could not be read).
	SchemaSource string `json:"schema_source,omitempty"`
	// Revision details: rounds that called the LLM, what each was told, and the vote.
	RevisionRounds int      `json:"revision_rounds,omitempty"`
	Feedback       []string `json:"feedback,omitempty"`
	Votes          []int    `json:"votes,omitempty"`
	// Pass is 1 or 2 in a two-pass run (the pass that wrote the record); absent otherwise.
	Pass int `json:"pass,omitempty"`
}

// recordWriter appends each question's records in one write and syncs it, so a crash
// leaves at most the tail of one question's block, which resume cuts off.
type recordWriter struct {
	mu sync.Mutex
	f  *os.File
}

func (w *recordWriter) write(recs []ModuleRecord) error {
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
	recs []ModuleRecord
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
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("read records: %w", err)
	}
	done, good, err := parseDone(path, data, want)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if good < len(data) {
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
func parseDone(path string, data []byte, want []string) (map[string]doneQuestion, int, error) {
	done := map[string]doneQuestion{}
	var block []ModuleRecord
	blockStart, off, good, line := 0, 0, 0, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		end := off + len(raw) + 1
		if end > len(data) { // last line has no newline: torn
			break
		}
		var r ModuleRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			if end == len(data) {
				break // a torn last line
			}
			return nil, 0, fmt.Errorf("%s:%d: %v: %w", path, line, err, ErrBadRecords)
		}
		if len(block) == 0 {
			blockStart = line
		}
		if len(block) > 0 && questionKey(block[0].DBID, block[0].QuestionID) != questionKey(r.DBID, r.QuestionID) {
			return nil, 0, fmt.Errorf("%s:%d: question %s starts before question %s (line %d) has all its modules: %w",
				path, line, r.QuestionID, block[0].QuestionID, blockStart, ErrBadRecords)
		}
		if r.NodeType != want[len(block)] {
			return nil, 0, fmt.Errorf("%s:%d: node_type %q where this pipeline writes %q (was the file written with another config? use a new --out): %w",
				path, line, r.NodeType, want[len(block)], ErrBadRecords)
		}
		block = append(block, r)
		off = end
		if len(block) == len(want) {
			k := questionKey(r.DBID, r.QuestionID)
			if _, dup := done[k]; dup {
				return nil, 0, fmt.Errorf("%s:%d: question %s (%s) recorded twice: %w", path, line, r.QuestionID, r.DBID, ErrBadRecords)
			}
			done[k] = doneQuestion{recs: block}
			block = nil
			good = off
		}
	}
	return done, good, nil
}

// encodeRecords renders records as JSON Lines, HTML characters left as they are.
func encodeRecords(recs []ModuleRecord) ([]byte, error) {
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
