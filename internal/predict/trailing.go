package predict

// dropTrailingBlanks forgets blank lines at the end of a Spider text file that are
// beyond the question count: an editor's or a script's extra final newline, which
// made "1035 lines for 1034 questions" fatal.
//
// Spider's evaluation.py drops every blank line of the prediction file (it keeps only
// lines with content), so a trailing one never counts there either. Blank lines inside
// the file stay empty predictions (dropping them would shift every later prediction
// onto the wrong question), and so do trailing ones the count needs: a file whose last
// question's prediction is empty still answers it. Only as many trailing blanks as the
// file has lines too many are dropped, so a file short of lines still fails.
func (p *pairer) dropTrailingBlanks() {
	// Questions keep their index in the whole dataset when only some are paired (--db-id),
	// so the line count that is needed is the highest index + 1.
	need := 0
	for _, q := range p.qs {
		need = max(need, q.Index+1)
	}
	items := p.set.Items
	extra := len(items) - need
	for extra > 0 && len(items) > 0 {
		last := items[len(items)-1]
		if last.SQL != "" || last.DBID != "" {
			break
		}
		items = items[:len(items)-1]
		extra--
	}
	p.set.Items = items
}
