package collect

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// selectSchema runs the schema-selection strategy. src is "fallback_full" when the model's
// answer named nothing usable, so the whole schema was passed on.
func (r *runner) selectSchema(ctx context.Context, u *usageAcc, data PromptData, db *dbInfo) (map[string][]string, string, error) {
	full := db.schema.TableColumns()
	strategy := r.cfg.Pipeline.SchemaSelection.Strategy
	if strategy == SchemaFull {
		return full, "", nil
	}
	data.Schema = db.renderSchema(nil)
	name := promptSchema
	if strategy == SchemaPreliminarySQL {
		name = promptPreliminary
	}
	prompt, err := r.prompts.render(name, data)
	if err != nil {
		return nil, "", err
	}
	texts, err := r.chat(ctx, u, prompt, nil, 1)
	if err != nil {
		return nil, "", err
	}
	var sel map[string][]string
	switch strategy {
	case SchemaLLM:
		sel, _ = extractSchemaJSON(texts[0], db.schema)
	case SchemaPreliminarySQL:
		// TA-SQL's move: the tables and columns a draft query uses (selectedSchema is
		// shared with the TA-SQL trace adapter, so both read drafts the same way).
		sel, _ = selectedSchema(extractSQL(texts[0]), db.schema)
	}
	if len(sel) == 0 {
		return full, "fallback_full", nil
	}
	return sel, "", nil
}

// execOutcome is what running one query gave.
type execOutcome struct {
	err  error
	rows int
	key  string // canonical result, for voting
}

func (r *runner) execute(ctx context.Context, db *dbInfo, sql string) execOutcome {
	res, err := r.eng.Query(ctx, db.path, sql, engine.Limits{Timeout: r.cfg.Pipeline.QueryRevision.ExecTimeout.Duration, MaxRows: maxVoteRows})
	if err != nil {
		return execOutcome{err: err}
	}
	return execOutcome{rows: res.NumRows(), key: canonical(res)}
}

const maxVoteRows = 100_000

// canonical renders a result order-insensitively, as a multiset of rows with numbers
// compared by value (1 and 1.0 agree): two candidates vote together when their results
// would match under set-style execution accuracy.
func canonical(res *engine.Result) string {
	rows := make([]string, res.NumRows())
	for i := range res.NumRows() {
		row := res.Row(i)
		var b strings.Builder
		for _, v := range row {
			switch x := v.(type) {
			case nil:
				b.WriteString("N")
			case int64:
				b.WriteString("n" + strconv.FormatInt(x, 10))
			case float64:
				if x == float64(int64(x)) {
					b.WriteString("n" + strconv.FormatInt(int64(x), 10))
				} else {
					b.WriteString("n" + strconv.FormatFloat(x, 'g', -1, 64))
				}
			case string:
				b.WriteString("s" + strconv.Quote(x))
			case []byte:
				b.WriteString("b" + strconv.Quote(string(x)))
			}
			b.WriteByte('|')
		}
		rows[i] = b.String()
	}
	sort.Strings(rows)
	h := sha256.Sum256([]byte(strings.Join(rows, "\n")))
	return string(h[:])
}

// feedback says what was wrong with an execution, for a revision prompt; "" when nothing
// was (onlyErrors: an empty result is fine).
func feedback(o execOutcome, onlyErrors bool) string {
	switch {
	case o.err != nil:
		msg := o.err.Error()
		var dbe *engine.DBError
		if errors.As(o.err, &dbe) {
			msg = dbe.Message
		}
		return "executing it failed with the error: " + msg
	case o.rows == 0 && !onlyErrors:
		return "it returned no rows."
	}
	return ""
}

// revise runs the query-revision strategy over the candidates and fills rec.SQL.
func (r *runner) revise(ctx context.Context, u *usageAcc, rec *predict.ModuleRecord, data PromptData, db *dbInfo, cands []string) error {
	qr := r.cfg.Pipeline.QueryRevision
	switch qr.Strategy {
	case ReviseSelfConsistency:
		sql, votes := r.vote(ctx, db, cands)
		rec.SQL, rec.Votes = predict.OneSQL(sql), votes
		return ctx.Err()
	case ReviseExecution, ReviseRetryFailed:
		onlyErrors, name := false, promptRevise
		if qr.Strategy == ReviseRetryFailed {
			onlyErrors, name = true, promptRetry
		}
		cur := cands[0]
		for round := 0; round < qr.Rounds; round++ {
			fb := feedback(r.execute(ctx, db, cur), onlyErrors)
			if err := ctx.Err(); err != nil {
				return err
			}
			if fb == "" {
				break
			}
			d := data
			d.SQL, d.Feedback = cur, fb
			prompt, err := r.prompts.render(name, d)
			if err != nil {
				return err
			}
			texts, err := r.chat(ctx, u, prompt, nil, 1)
			if err != nil {
				return err
			}
			rec.RevisionRounds++
			rec.Feedback = append(rec.Feedback, fb)
			cur = extractSQL(texts[0])
		}
		rec.SQL = predict.OneSQL(cur)
		return nil
	}
	return fmt.Errorf("unknown revision strategy %q: %w", qr.Strategy, ErrBadConfig)
}

// vote executes every candidate and returns the one whose result most candidates share
// (ties go to the earliest), with the votes per candidate (0 for one that failed). When
// every candidate fails, the first is kept.
func (r *runner) vote(ctx context.Context, db *dbInfo, cands []string) (string, []int) {
	outs := make([]execOutcome, len(cands))
	count := map[string]int{}
	for i, c := range cands {
		outs[i] = r.execute(ctx, db, c)
		if outs[i].err == nil {
			count[outs[i].key]++
		}
	}
	votes := make([]int, len(cands))
	best := -1
	for i, o := range outs {
		if o.err != nil {
			continue
		}
		votes[i] = count[o.key]
		if best < 0 || votes[i] > votes[best] {
			best = i
		}
	}
	if best < 0 {
		return cands[0], votes
	}
	return cands[best], votes
}
