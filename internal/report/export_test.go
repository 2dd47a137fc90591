package report

// has reports whether the table has a column for metric id.
func (t ScoreTable) has(id string) bool {
	for _, c := range t.Columns {
		if c.ID == id {
			return true
		}
	}
	return false
}
