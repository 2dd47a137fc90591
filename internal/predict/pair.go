package predict

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxProblems caps how many pairing problems one error lists; a wholly misaligned file
// would otherwise produce one line per question.
const maxProblems = 20

// Pair matches predictions with questions and returns one entry per question of qs, in
// the order of qs (nil where a question has none and opt.AllowMissing is set).
//
// BIRD JSON and Spider text pair by position: key or line k answers the question whose
// Index is k. Records pair by question_id (or, when the file has none, by question
// text); a db_id given in the file must agree with the question's. Several questions
// sharing one id or text (real BIRD mini-dev repeats two questions verbatim) all get the
// prediction when they agree on db_id and text; otherwise that is ErrAmbiguous.
//
// Every problem is a *PairError naming the file and the line or key; when there are
// several, they are joined (at most maxProblems are listed). Pairing never guesses.
func Pair(set *Set, qs []QuestionRef, opt PairOptions) ([]*Prediction, error) {
	p := &pairer{set: set, qs: qs, opt: opt, out: make([]*Prediction, len(qs)), from: make([]int, len(qs))}
	var err error
	switch set.Format {
	case FormatSpider, FormatList:
		err = p.byPosition(true)
	case FormatBIRD:
		err = p.byPosition(false)
	case FormatRecords:
		p.byKey()
	default:
		return nil, fmt.Errorf("pair %s: %w %q", set.Path, ErrUnknownFormat, set.Format)
	}
	if err != nil {
		return nil, err
	}
	p.missing()
	if len(p.problems) > 0 {
		return nil, p.joined()
	}
	return p.out, nil
}

type pairer struct {
	set      *Set
	qs       []QuestionRef
	opt      PairOptions
	out      []*Prediction
	from     []int // item index+1 that filled out[i], to name both lines of a duplicate
	problems []error
	more     int
}

func (p *pairer) fail(line int, key string, sentinel error, format string, args ...any) {
	if len(p.problems) >= maxProblems {
		p.more++
		return
	}
	p.problems = append(p.problems, &PairError{Path: p.set.Path, Line: line, Key: key, Msg: fmt.Sprintf(format, args...), Err: sentinel})
}

func (p *pairer) joined() error {
	errs := p.problems
	if p.more > 0 {
		errs = append(errs, fmt.Errorf("and %d more pairing problems", p.more))
	}
	return errors.Join(errs...)
}

// byPosition pairs BIRD keys, Spider lines or SQL-list elements with question indexes.
func (p *pairer) byPosition(spider bool) error {
	if p.set.Format == FormatSpider {
		p.dropTrailingBlanks()
	}
	byIndex := make(map[int]int, len(p.qs))
	for i, q := range p.qs {
		if _, dup := byIndex[q.Index]; dup {
			return fmt.Errorf("pair %s: question index %d appears twice in the dataset: %w", p.set.Path, q.Index, ErrDuplicate)
		}
		byIndex[q.Index] = i
	}
	n, m := len(p.set.Items), len(p.qs)
	countBad := (n < m && !p.opt.AllowMissing) || (n > m && !p.opt.IgnoreExtra)
	if spider && countBad {
		// One clear message beats a thousand "line k answers nothing" ones.
		msg := fmt.Sprintf("%d lines for %d questions (line i answers question i, so they must agree)", n, m)
		if p.set.Format == FormatList {
			msg = fmt.Sprintf("%d SQL strings for %d questions (element i answers question i, so they must agree)", n, m)
		}
		return &PairError{Path: p.set.Path, Err: ErrCountMismatch, Msg: msg, Predictions: n, Questions: m}
	}
	if countBad {
		p.problems = append(p.problems, &PairError{Path: p.set.Path, Err: ErrCountMismatch,
			Msg: fmt.Sprintf("%d predictions for %d questions", n, m), Predictions: n, Questions: m})
	}
	for i := range p.set.Items {
		it := &p.set.Items[i]
		k, ok := parseIndex(it.Key)
		if !ok {
			p.fail(it.Line, it.Key, ErrUnknownKey, "key is not a question index")
			continue
		}
		qi, ok := byIndex[k]
		if !ok {
			if !p.opt.IgnoreExtra {
				p.fail(it.Line, it.Key, ErrUnknownKey, "no question has index %d (%d questions)", k, m)
			}
			continue
		}
		p.assign(qi, i)
	}
	return nil
}

// byKey pairs records by question_id, or by question text when they carry none.
func (p *pairer) byKey() {
	byID := map[string][]int{}
	byText := map[string][]int{}
	for i, q := range p.qs {
		byID[q.ID] = append(byID[q.ID], i)
		byText[strings.TrimSpace(q.Text)] = append(byText[strings.TrimSpace(q.Text)], i)
	}
	for i := range p.set.Items {
		it := &p.set.Items[i]
		key, cands := it.Key, byID[it.Key]
		if it.Key == "" {
			key, cands = it.Question, byText[strings.TrimSpace(it.Question)]
		}
		if len(cands) == 0 {
			if !p.opt.IgnoreExtra {
				p.fail(it.Line, key, ErrUnknownKey, "no question has this %s", p.keyKind(it))
			}
			continue
		}
		if len(cands) > 1 && it.DBID != "" {
			// A db_id can tell apart questions that share an id or text.
			var same []int
			for _, qi := range cands {
				if strings.EqualFold(p.qs[qi].DBID, it.DBID) {
					same = append(same, qi)
				}
			}
			if len(same) > 0 {
				cands = same
			}
		}
		if len(cands) > 1 && !p.interchangeable(cands) {
			p.fail(it.Line, key, ErrAmbiguous, "%s matches questions %s, which differ in db_id or text", p.keyKind(it), p.indexes(cands))
			continue
		}
		for _, qi := range cands {
			p.assign(qi, i)
		}
	}
}

// assign records that item i answers question qi, checking db_id and duplicates.
func (p *pairer) assign(qi, i int) {
	it := &p.set.Items[i]
	q := p.qs[qi]
	key := it.Key
	if key == "" {
		key = it.Question
	}
	if prev := p.from[qi]; prev > 0 {
		first := &p.set.Items[prev-1]
		p.fail(it.Line, key, ErrDuplicate, "question %d (id %q) already answered at line %d", q.Index, q.ID, first.Line)
		return
	}
	if it.DBID != "" && q.DBID != "" && !strings.EqualFold(it.DBID, q.DBID) {
		p.fail(it.Line, key, ErrDBMismatch, "db_id %q, but question %d (id %q) is on %q", it.DBID, q.Index, q.ID, q.DBID)
		return
	}
	p.out[qi] = it
	p.from[qi] = i + 1
}

// missing reports questions left without a prediction.
func (p *pairer) missing() {
	if p.opt.AllowMissing {
		return
	}
	for qi, pr := range p.out {
		if pr != nil {
			continue
		}
		q := p.qs[qi]
		key := q.ID
		if p.set.Format != FormatRecords {
			key = strconv.Itoa(q.Index)
		}
		p.fail(0, key, ErrMissing, "question %d (id %q, db %q) has no prediction", q.Index, q.ID, q.DBID)
	}
}

// interchangeable reports whether questions share db_id and text, so one prediction
// answers them all.
func (p *pairer) interchangeable(qis []int) bool {
	a := p.qs[qis[0]]
	for _, qi := range qis[1:] {
		b := p.qs[qi]
		if b.DBID != a.DBID || strings.TrimSpace(b.Text) != strings.TrimSpace(a.Text) {
			return false
		}
	}
	return true
}

func (p *pairer) keyKind(it *Prediction) string {
	if it.Key == "" {
		return "question text"
	}
	return "question_id"
}

func (p *pairer) indexes(qis []int) string {
	parts := make([]string, len(qis))
	for i, qi := range qis {
		parts[i] = strconv.Itoa(p.qs[qi].Index)
	}
	return strings.Join(parts, ", ")
}
