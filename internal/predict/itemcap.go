package predict

import (
	"errors"
	"fmt"
)

// A prediction file holds one item per question (a line, key or list element), or a few
// records per question (module nodes). Reading a file of a million tiny items in full
// costs a gigabyte and half a minute, only for pairing to refuse it, so a reader given the
// question count stops at the first item over a bound, before holding the rest.
const (
	// ItemsPerQuestion is how many items a file may hold per question: records may give
	// each question several module nodes (schema selection, candidates, revision).
	ItemsPerQuestion = 64
	// MinItemBound is the bound for a small dataset, so that a file for the whole
	// benchmark still reads when only a few questions are judged.
	MinItemBound = 100_000
)

// ErrTooMany: a prediction file holds more items than ItemBound of the question count.
var ErrTooMany = errors.New("too many predictions")

// ItemBound is the most items read from a prediction file for a dataset of questions.
func ItemBound(questions int) int { return max(MinItemBound, ItemsPerQuestion*questions) }

// ReadFor reads a prediction file for a dataset of questions questions (the format
// detected, as Read does), refusing one with more than ItemBound(questions) items at the
// first item over it.
func ReadFor(path string, questions int) (*Set, error) {
	return readFormat(path, "", itemCap{limit: ItemBound(questions), questions: questions})
}

// itemCap is the bound a reader applies; a zero limit is none.
type itemCap struct {
	limit, questions int
}

// check refuses item n (0-based; what names items: "lines", "keys", ...) when it is over
// the bound; line is where it starts.
func (c itemCap) check(path string, line, n int, what string) error {
	if c.limit <= 0 || n < c.limit {
		return nil
	}
	return fmt.Errorf("%s:%d: more than %d %s for %d questions (the bound is %d a question, at least %d): %w",
		path, line, c.limit, what, c.questions, ItemsPerQuestion, MinItemBound, ErrTooMany)
}
