package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// NL2SQLBench records come as a JSON array or as JSONL (one object per line). Each
// object is either
//
//   - a flat record, as the released NL2SQLBench tool writes: question_id, db_id,
//     PREDICTED_SQL (a string, or an array of candidates whose first is the SQL),
//     prompt_tokens, completion_tokens, total_tokens, call_llm_times; or
//   - a module node (the paper's Appendix A.1): node_type (schema_selection,
//     schema_extraction, candidate_generation, query_revision or revision), question,
//     optional question_id and db_id, extracted_schema ({table: [columns]}), SQL (a
//     string or an array), optional PREDICTED_SQL, token_cost, llm_calls and optional
//     prompt_tokens / completion_tokens / total_tokens.
//
// Objects group into one Prediction per question_id, or per question text when the
// file carries no question_id at all (a file must use one or the other throughout).
// Candidates are every candidate_generation SQL in file order. The SQL to judge is the
// last query-revision SQL if any (Revised), else an explicit PREDICTED_SQL, else the
// first candidate. Usage is summed over objects; per object the token count is
// total_tokens, else token_cost, else prompt_tokens+completion_tokens (token_cost and
// total_tokens are the same quantity, so they are never added together), and the call
// count is llm_calls, else call_llm_times.

// Node types.
const (
	nodeSchemaSelection  = "schema_selection"
	nodeSchemaExtraction = "schema_extraction"
	nodeCandidate        = "candidate_generation"
	nodeQueryRevision    = "query_revision"
	nodeRevision         = "revision"
)

// rawRecord is one object of a records file. Fields that are either a string or an
// array stay raw until we know which.
type rawRecord struct {
	NodeType         *string             `json:"node_type"`
	QuestionID       json.RawMessage     `json:"question_id"`
	DBID             string              `json:"db_id"`
	Question         string              `json:"question"`
	ExtractedSchema  map[string][]string `json:"extracted_schema"`
	SQL              json.RawMessage     `json:"SQL"`
	PredictedSQL     json.RawMessage     `json:"PREDICTED_SQL"`
	TokenCost        json.RawMessage     `json:"token_cost"`
	LLMCalls         json.RawMessage     `json:"llm_calls"`
	CallLLMTimes     json.RawMessage     `json:"call_llm_times"`
	PromptTokens     json.RawMessage     `json:"prompt_tokens"`
	CompletionTokens json.RawMessage     `json:"completion_tokens"`
	TotalTokens      json.RawMessage     `json:"total_tokens"`
	LatencyMS        json.RawMessage     `json:"latency_ms"`
}

// group collects the objects of one question.
type group struct {
	pred      Prediction
	flatLine  int // line of its flat record, 0 if none
	revision  *string
	predicted *string
}

// readRecords reads NL2SQLBench records (see the comment above).
func readRecords(path string, data []byte) (*Set, error) {
	objs, err := splitObjects(path, data)
	if err != nil {
		return nil, err
	}
	var order []*group
	groups := map[string]*group{}
	idLine, textLine := 0, 0 // first line keyed by id / by text, to report mixing
	for _, o := range objs {
		var r rawRecord
		if err := json.Unmarshal(o.raw, &r); err != nil {
			// Name the field as the file spells it, not as our Go struct does.
			msg := strings.Replace(err.Error(), "Go struct field rawRecord.", "field ", 1)
			return nil, fmt.Errorf("%s:%d: %s: %w", path, o.line, msg, ErrMalformed)
		}
		id, err := formatID(r.QuestionID)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: question_id: %v: %w", path, o.line, err, ErrMalformed)
		}
		var gk string
		switch {
		case id != "":
			if textLine > 0 {
				return nil, fmt.Errorf("%s:%d: has a question_id but line %d has none; use question_id on every record or on none: %w",
					path, o.line, textLine, ErrMalformed)
			}
			idLine = max(idLine, o.line)
			gk = id
		case strings.TrimSpace(r.Question) != "":
			if idLine > 0 {
				return nil, fmt.Errorf("%s:%d: has no question_id but line %d has one; use question_id on every record or on none: %w",
					path, o.line, idLine, ErrMalformed)
			}
			textLine = max(textLine, o.line)
			gk = strings.TrimSpace(r.Question)
		default:
			return nil, fmt.Errorf("%s:%d: record has neither question_id nor question: %w", path, o.line, ErrMalformed)
		}
		g := groups[gk]
		if g == nil {
			g = &group{pred: Prediction{Key: id, Line: o.line}}
			groups[gk] = g
			order = append(order, g)
		}
		if err := g.add(&r, o.line); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, o.line, err)
		}
	}
	set := &Set{Path: path, Format: FormatRecords}
	for _, g := range order {
		set.Items = append(set.Items, g.finish())
	}
	return set, nil
}

// add folds one object into the group.
func (g *group) add(r *rawRecord, line int) error {
	p := &g.pred
	if r.DBID != "" {
		if p.DBID != "" && p.DBID != r.DBID {
			return fmt.Errorf("db_id %q disagrees with %q given earlier for the same question: %w", r.DBID, p.DBID, ErrMalformed)
		}
		p.DBID = r.DBID
	}
	if p.Question == "" {
		p.Question = strings.TrimSpace(r.Question)
	}
	sqls, err := stringOrList(r.SQL)
	if err != nil {
		return fmt.Errorf("SQL: %v: %w", err, ErrMalformed)
	}
	predicted, err := stringOrList(r.PredictedSQL)
	if err != nil {
		return fmt.Errorf("PREDICTED_SQL: %v: %w", err, ErrMalformed)
	}
	if r.NodeType == nil { // a flat record
		if g.flatLine > 0 {
			return fmt.Errorf("%s has a second record (first at line %d): %w", g.name(), g.flatLine, ErrDuplicate)
		}
		g.flatLine = line
		rawPred := r.PredictedSQL
		if predicted == nil { // tolerate SQL in place of PREDICTED_SQL
			predicted, rawPred = sqls, r.SQL
		}
		if predicted == nil {
			return fmt.Errorf("record has neither node_type nor PREDICTED_SQL: %w", ErrMalformed)
		}
		if isArray(rawPred) {
			p.Candidates = append(p.Candidates, predicted...)
		}
	} else {
		switch *r.NodeType {
		case nodeSchemaSelection, nodeSchemaExtraction:
		case nodeCandidate:
			p.Candidates = append(p.Candidates, sqls...)
		case nodeQueryRevision, nodeRevision:
			if len(sqls) > 0 {
				g.revision = &sqls[0]
			}
			p.Revised = true
		default:
			return fmt.Errorf("unknown node_type %q (want schema_selection, schema_extraction, candidate_generation, query_revision or revision): %w",
				*r.NodeType, ErrMalformed)
		}
	}
	if len(predicted) > 0 {
		g.predicted = &predicted[0]
	}
	c, err := parseCounts(r)
	if err != nil {
		return err
	}
	mergeSchema(p, r.ExtractedSchema)
	addUsage(p, c)
	return nil
}

// name says which question the group is, for messages.
func (g *group) name() string {
	if g.pred.Key != "" {
		return fmt.Sprintf("question_id %q", g.pred.Key)
	}
	return fmt.Sprintf("question %q", g.pred.Question)
}

func isArray(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '['
}

func (g *group) finish() Prediction {
	p := g.pred
	switch {
	case g.revision != nil:
		p.SQL = *g.revision
	case g.predicted != nil:
		p.SQL = *g.predicted
	case len(p.Candidates) > 0:
		p.SQL = p.Candidates[0]
	}
	return p
}

// mergeSchema adds a module's selected tables and columns to the prediction's, keeping
// first-seen order and dropping repeats.
func mergeSchema(p *Prediction, s map[string][]string) {
	if len(s) == 0 {
		return
	}
	if p.SelectedSchema == nil {
		p.SelectedSchema = map[string][]string{}
	}
	for table, cols := range s {
		have := p.SelectedSchema[table]
		for _, c := range cols {
			if !contains(have, c) {
				have = append(have, c)
			}
		}
		if have == nil {
			have = []string{}
		}
		p.SelectedSchema[table] = have
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func addUsage(p *Prediction, c counts) {
	p.PromptTokens += c.prompt.v
	p.CompletionTokens += c.completion.v
	switch {
	case c.total.set:
		p.TotalTokens += c.total.v
	case c.tokenCost.set:
		p.TotalTokens += c.tokenCost.v
	default:
		p.TotalTokens += c.prompt.v + c.completion.v
	}
	if c.llmCalls.set {
		p.LLMCalls += c.llmCalls.v
	} else {
		p.LLMCalls += c.callLLMTimes.v
	}
	p.LatencyMS += int64(c.latency.v)
}
