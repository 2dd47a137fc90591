package judge

import (
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// How the judge notes where Spider's official rewrite changed a query, and judges
// under --spider-mode corrected (spider_corrected.go).

// rewriteChanged reports whether a rewrite changed what a query means: the query ran as
// written (orig) but its rewrite (rew) did not, or returned other rows as a set (BIRD's
// comparison, so a dropped top-level DISTINCT, which only repeats rows, is no change).
func rewriteChanged(orig, rew outcome) bool {
	return orig.err == nil && (rew.err != nil || !BirdEqual(rew.res, orig.res))
}

// correctedPred is the prediction's outcome under SpiderCorrectPred, reusing the
// official (osp) or as-written (ob) outcome when the text is the same.
func (qj *questionJob) correctedPred(sql string, ob, osp outcome) outcome {
	cp := SpiderCorrectPred(sql, ob.err == nil)
	switch cp {
	case SpiderRewritePred(sql):
		return osp
	case sql:
		return ob
	}
	o := emptyAsNoRows(qj.exec(cp))
	o.dur += ob.dur
	return o
}

// rewriteNote is the record's spider_rewrite section: which of the question's queries
// the official rewrite changed and how, and the official verdict where corrected mode's
// differs.
func (qj *questionJob) rewriteNote(goldCorners []string, j judgement) record.SpiderRewrite {
	var n record.SpiderRewrite
	for _, g := range qj.golds {
		if g.changed {
			n.SpiderRewriteChanged = append(n.SpiderRewriteChanged, "gold")
			break
		}
	}
	if j.predChanged {
		n.SpiderRewriteChanged = append(n.SpiderRewriteChanged, "pred")
	}
	if len(n.SpiderRewriteChanged) > 0 {
		c := slices.Concat(goldCorners, j.predCorners)
		slices.Sort(c)
		n.SpiderRewriteCorners = slices.Compact(c)
	}
	if qj.spiderMode == SpiderCorrected && j.exSpiderOfficial != j.exSpider {
		off := j.exSpiderOfficial
		n.ExSpiderOfficial = &off
	}
	return n
}
