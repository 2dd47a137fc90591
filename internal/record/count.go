package record

// MaxCount is the largest usage count (tokens, calls) the tool takes or writes: 2^53, the
// largest integer every reader of its JSON (Python, JavaScript, Go's float64) holds
// exactly. A count read above it is refused; a sum reaching it stays there (AddCount).
const MaxCount = 1 << 53

// AddCount is a + b for non-negative counts, saturating at MaxCount: a total of counts
// never wraps to a negative number, however many records add to it.
func AddCount(a, b int) int {
	if a < 0 {
		a = 0
	}
	if b < 0 {
		b = 0
	}
	if a >= MaxCount || b >= MaxCount-a {
		return MaxCount
	}
	return a + b
}
