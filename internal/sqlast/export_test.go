package sqlast

// SQL returns the text that was parsed.
func (q *Query) SQL() string { return q.sql }
