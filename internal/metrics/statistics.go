package metrics

import (
	"sort"
	"strconv"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Statistics is the NL2SQLBench postprocessing statistics file (statistics.json):
// "counts" and "ids" per evaluated module. Keys follow the released tool:
// "candidate_generation" judges a system's generated SQL (its first candidate when it
// reported several) and "revision" its revised SQL, when it reported a revision.
// Questions that were skipped or whose gold failed are left out, as the tool never
// evaluates them.
type Statistics struct {
	Counts map[string]ModuleCounts `json:"counts"`
	IDs    map[string]ModuleIDs    `json:"ids"`
}

// ModuleCounts tallies one module's verdicts.
type ModuleCounts struct {
	Correct   int `json:"correct"`
	Incorrect int `json:"incorrect"`
	Error     int `json:"error"`
	Total     int `json:"total"`
}

// ModuleIDs lists question ids per verdict: [db_id, question_id] pairs, and for errors
// [db_id, question_id, error].
type ModuleIDs struct {
	Correct   [][]string `json:"correct"`
	Incorrect [][]string `json:"incorrect"`
	Error     [][]string `json:"error"`
}

// Module keys of statistics.json.
const (
	KeyCandidateGeneration = "candidate_generation"
	KeyRevision            = "revision"
)

// NewStatistics builds statistics.json from one system's records.
func NewStatistics(recs []record.Record) Statistics {
	st := Statistics{Counts: map[string]ModuleCounts{}, IDs: map[string]ModuleIDs{}}
	add := func(key string, r *record.Record, v record.Verdict, msg string) {
		c, ids := st.Counts[key], st.IDs[key]
		c.Total++
		id := []string{r.DBID, r.QuestionID}
		switch v {
		case record.Correct:
			c.Correct++
			ids.Correct = append(ids.Correct, id)
		case record.Incorrect:
			c.Incorrect++
			ids.Incorrect = append(ids.Incorrect, id)
		default:
			c.Error++
			ids.Error = append(ids.Error, append(id, msg))
		}
		st.Counts[key], st.IDs[key] = c, ids
	}
	for i := range recs {
		r := &recs[i]
		if !r.Judged() {
			continue
		}
		switch {
		case r.RevisionApplied && len(r.Candidates) > 0:
			c := r.Candidates[0]
			add(KeyCandidateGeneration, r, c.Verdict, string(c.ErrorCategory))
			add(KeyRevision, r, r.Verdict, r.ErrorMessage)
		case r.RevisionApplied:
			add(KeyRevision, r, r.Verdict, r.ErrorMessage)
		default:
			add(KeyCandidateGeneration, r, r.Verdict, r.ErrorMessage)
		}
	}
	for k, ids := range st.IDs {
		sortIDs(ids.Correct)
		sortIDs(ids.Incorrect)
		sortIDs(ids.Error)
		if ids.Correct == nil {
			ids.Correct = [][]string{}
		}
		if ids.Incorrect == nil {
			ids.Incorrect = [][]string{}
		}
		if ids.Error == nil {
			ids.Error = [][]string{}
		}
		st.IDs[k] = ids
	}
	return st
}

// sortIDs orders [db_id, question_id, ...] tuples as the released tool does (by db_id,
// then question id), comparing numeric ids as numbers.
func sortIDs(ids [][]string) {
	sort.SliceStable(ids, func(i, j int) bool {
		a, b := ids[i], ids[j]
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		na, ea := strconv.Atoi(a[1])
		nb, eb := strconv.Atoi(b[1])
		if ea == nil && eb == nil {
			return na < nb
		}
		return a[1] < b[1]
	})
}
