package predict

import (
	"fmt"
	"strings"
)

// NL2SQLBench records come as a JSON array or as JSONL (one object per line). Each
// object is a ModuleOutput (modulerecord.go), either
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
// Other fields (ModuleDetails, or another tool's) are not read. An empty node_type is a
// flat record. Objects group into one Prediction per question_id, or per question text
// when the file carries no question_id at all (a file must use one or the other throughout).
// Candidates are every candidate_generation SQL in file order. The SQL to judge is the
// last query-revision SQL if any (Revised), else an explicit PREDICTED_SQL, else the
// first candidate. Usage is summed over objects; per object the token count is
// total_tokens, else token_cost, else prompt_tokens+completion_tokens (token_cost and
// total_tokens are the same quantity, so they are never added together), and the call
// count is llm_calls, else call_llm_times (ModuleOutput.Usage).

// group collects the objects of one question.
type group struct {
	pred     Prediction
	flatLine int // line of its flat record, 0 if none
	// revisionLine is the line of its query_revision node, 0 if none: a question has one
	// revised query, so a second node is refused rather than silently winning.
	revisionLine int
	revision     *string
	predicted    *string
}

// readRecords reads NL2SQLBench records (see the comment above).
func readRecords(src *source, ic itemCap) (*Set, error) {
	path := src.path
	var order []*group
	groups := map[string]*group{}
	idLine, textLine := 0, 0 // first line keyed by id / by text, to report mixing
	err := src.eachRecord(ic, func(n, line int, dup firstDup, decode func(any) error) error {
		var r ModuleOutput
		if err := decode(&r); err != nil {
			if f, ok := err.(*streamFault); ok {
				return f.err
			}
			return fmt.Errorf("%s:%d: %s: %w", path, line, fieldError(err), ErrMalformed)
		}
		if n == dup.index {
			// encoding/json keeps the last of two equal keys; which SQL was meant
			// cannot be told.
			return fmt.Errorf("%s:%d: key %q appears twice in one record: %w", path, line, dup.key, ErrMalformed)
		}
		id := string(r.QuestionID)
		var gk string
		switch {
		case id != "":
			if textLine > 0 {
				return fmt.Errorf("%s:%d: has a question_id but line %d has none; use question_id on every record or on none: %w",
					path, line, textLine, ErrMalformed)
			}
			idLine = max(idLine, line)
			gk = id
		case strings.TrimSpace(r.Question) != "":
			if idLine > 0 {
				return fmt.Errorf("%s:%d: has no question_id but line %d has one; use question_id on every record or on none: %w",
					path, line, idLine, ErrMalformed)
			}
			textLine = max(textLine, line)
			gk = strings.TrimSpace(r.Question)
		default:
			return fmt.Errorf("%s:%d: record has neither question_id nor question: %w", path, line, ErrMalformed)
		}
		g := groups[gk]
		if g == nil {
			g = &group{pred: Prediction{Key: id, Line: line}}
			groups[gk] = g
			order = append(order, g)
		}
		if err := g.add(&r, line); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Sized once: a file of a million records grew this slice through 890 MB of copies.
	set := &Set{Path: path, Format: FormatRecords, Items: make([]Prediction, 0, len(order))}
	for _, g := range order {
		set.Items = append(set.Items, g.finish())
	}
	return set, nil
}

// add folds one object into the group.
func (g *group) add(r *ModuleOutput, line int) error {
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
	predicted := r.PredictedSQL
	module, ok := r.Module()
	switch {
	case !ok:
		return fmt.Errorf("unknown node_type %q (want schema_selection, schema_extraction, candidate_generation, query_revision or revision): %w",
			r.NodeType, ErrMalformed)
	case module == "": // a flat record
		if g.flatLine > 0 {
			return fmt.Errorf("%s has a second record (first at line %d): %w", g.name(), g.flatLine, ErrDuplicate)
		}
		g.flatLine = line
		if predicted.IsZero() { // tolerate SQL in place of PREDICTED_SQL
			predicted = r.SQL
		}
		if predicted.IsZero() {
			return fmt.Errorf("record has neither node_type nor PREDICTED_SQL: %w", ErrMalformed)
		}
		if predicted.List {
			p.Candidates = append(p.Candidates, predicted.Queries...)
		}
	case module == NodeCandidateGeneration:
		p.Candidates = append(p.Candidates, r.SQL.Queries...)
	case module == NodeQueryRevision:
		if g.revisionLine > 0 {
			return fmt.Errorf("%s has a second query_revision node (first at line %d); a question has one revised query: %w", g.name(), g.revisionLine, ErrDuplicate)
		}
		g.revisionLine = line
		if len(r.SQL.Queries) > 0 {
			g.revision = &r.SQL.Queries[0]
		}
		p.Revised = true
	}
	if len(predicted.Queries) > 0 {
		g.predicted = &predicted.Queries[0]
	}
	mergeSchema(p, r.ExtractedSchema)
	addUsage(&p.Usage, r.Usage())
	return nil
}

// name says which question the group is, for messages.
func (g *group) name() string {
	if g.pred.Key != "" {
		return fmt.Sprintf("question_id %q", g.pred.Key)
	}
	return fmt.Sprintf("question %q", g.pred.Question)
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
