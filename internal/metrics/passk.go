package metrics

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Candidate generation (NL2SQLBench paper, Section 3.1.2 and eq. 7): CR / IR / ER over the
// generated candidates, with error categories, and Pass@k: a question counts as correct at
// k when any of its first k candidates is correct.
//
// Conventions: a question with fewer than k candidates uses all it has (counted in
// PassAtK.Short); a judged record that reports no candidates counts its judged SQL as its
// one candidate. Only judged records (correct, incorrect, error) count.

// DefaultPassK is the paper's k list.
var DefaultPassK = []int{1, 5, 10, 15, 20}

// ParsePassK parses a comma-separated k list ("1,5,10"); every k must be a positive
// integer. An empty string gives DefaultPassK.
func ParsePassK(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return append([]int(nil), DefaultPassK...), nil
	}
	seen := map[int]bool{}
	var ks []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("pass@k list %q: %q is not a positive integer: %w", s, f, ErrBadK)
		}
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	sort.Ints(ks)
	return ks, nil
}

// candidateVerdicts returns the verdicts of a record's candidates in order (its own
// verdict when it reports none).
func candidateVerdicts(r *record.Record) []record.Candidate {
	if len(r.Candidates) > 0 {
		return r.Candidates
	}
	return []record.Candidate{{SQL: r.PredSQL, Verdict: r.Verdict, ErrorCategory: r.ErrorCategory}}
}

// PassAt reports whether one of the first k candidates of r is correct, and how many
// candidates that looked at (fewer than k when r has fewer).
func PassAt(r *record.Record, k int) (correct bool, used int) {
	cs := candidateVerdicts(r)
	used = min(k, len(cs))
	for _, c := range cs[:used] {
		if c.Verdict == record.Correct {
			return true, used
		}
	}
	return false, used
}

// FillPassAt sets a judged record's pass_at map for ks (and clears it otherwise).
func FillPassAt(r *record.Record, ks []int) {
	r.PassAt, r.PassAtCandidates = nil, 0
	if !r.Judged() || len(ks) == 0 {
		return
	}
	vals := make([]int, len(ks))
	same := true
	for i, k := range ks {
		ok, _ := PassAt(r, k)
		vals[i] = b2i(ok)
		same = same && vals[i] == vals[0]
	}
	r.PassAtCandidates = len(candidateVerdicts(r))
	if same { // the usual case (one candidate): one map shared by every such record
		r.PassAt = sharedPassAt(ks, vals[0])
		return
	}
	r.PassAt = make(map[string]int, len(ks))
	for i, k := range ks {
		r.PassAt[strconv.Itoa(k)] = vals[i]
	}
}

// passAtMaps holds the maps of records whose Pass@k are all v, per k list: 200 systems
// x 1034 questions made 58 MB of identical maps. Read-only once made, like every
// record's PassAt (FillPassAt replaces a map, never writes into one).
var passAtMaps sync.Map

func sharedPassAt(ks []int, v int) map[string]int {
	key := fmt.Sprint(ks, v)
	if m, ok := passAtMaps.Load(key); ok {
		return m.(map[string]int)
	}
	m := make(map[string]int, len(ks))
	for _, k := range ks {
		m[strconv.Itoa(k)] = v
	}
	got, _ := passAtMaps.LoadOrStore(key, m)
	return got.(map[string]int)
}

// PassAtK is Pass@k over a set of records.
type PassAtK struct {
	K         int     `json:"k"`
	Questions int     `json:"questions"`
	Correct   int     `json:"correct"`
	Rate      float64 `json:"rate"`
	// Short counts questions with fewer than k candidates: they used all they had.
	Short int `json:"fewer_than_k"`
}

// CandidateGeneration is one system's candidate-generation scores.
type CandidateGeneration struct {
	Questions  int `json:"questions"`  // judged records
	Candidates int `json:"candidates"` // candidates judged over them
	// MultiCandidate counts questions with more than one candidate.
	MultiCandidate int `json:"multi_candidate_questions"`
	// AllCandidates is CR / IR / ER over every candidate (paper eq. 4-6, Q = all
	// generated queries); FirstCandidate over each question's first candidate (Pass@1,
	// how the paper's tables report multi-candidate systems).
	AllCandidates  VerdictRates `json:"all_candidates"`
	FirstCandidate VerdictRates `json:"first_candidate"`
	PassAt         []PassAtK    `json:"pass_at"`
}

// VerdictRates are CR / IR / ER with error categories over a set of queries.
type VerdictRates struct {
	N          int                              `json:"n"`
	Correct    float64                          `json:"cr"`
	Incorrect  float64                          `json:"ir"`
	Error      float64                          `json:"er"`
	Categories map[record.ErrorCategory]float64 `json:"error_categories"`
}

// RatesOf computes CR / IR / ER over candidates that were judged (skipped and gold_error
// candidates are left out). Rates are 0 when n is 0.
func RatesOf(cs []record.Candidate) VerdictRates {
	v := VerdictRates{Categories: map[record.ErrorCategory]float64{}}
	var c, i, e int
	cats := map[record.ErrorCategory]int{}
	for _, x := range cs {
		switch x.Verdict {
		case record.Correct:
			c++
		case record.Incorrect:
			i++
		case record.Error:
			e++
			cats[x.ErrorCategory]++
		default:
			continue
		}
		v.N++
	}
	if v.N == 0 {
		return v
	}
	n := float64(v.N)
	v.Correct, v.Incorrect, v.Error = float64(c)/n, float64(i)/n, float64(e)/n
	for k, x := range cats {
		v.Categories[k] = float64(x) / n
	}
	return v
}

// CandidateGenerationOf scores the candidates of judged records, with Pass@k for ks.
func CandidateGenerationOf(recs []record.Record, ks []int) CandidateGeneration {
	var cg CandidateGeneration
	var all, first []record.Candidate
	pass := make([]PassAtK, len(ks))
	for j, k := range ks {
		pass[j].K = k
	}
	for i := range recs {
		r := &recs[i]
		if !r.Judged() {
			continue
		}
		cg.Questions++
		cs := candidateVerdicts(r)
		if len(cs) > 1 {
			cg.MultiCandidate++
		}
		all = append(all, cs...)
		first = append(first, cs[0])
		for j, k := range ks {
			ok, used := PassAt(r, k)
			pass[j].Questions++
			pass[j].Correct += b2i(ok)
			if used < k {
				pass[j].Short++
			}
		}
	}
	cg.Candidates = len(all)
	cg.AllCandidates = RatesOf(all)
	cg.FirstCandidate = RatesOf(first)
	for j := range pass {
		if pass[j].Questions > 0 {
			pass[j].Rate = float64(pass[j].Correct) / float64(pass[j].Questions)
		}
	}
	cg.PassAt = pass
	return cg
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ErrBadK reports a malformed Pass@k list.
var ErrBadK = errors.New("bad pass@k value")
