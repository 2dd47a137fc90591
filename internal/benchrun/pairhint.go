package benchrun

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// BIRD's two question files hold these many questions; a prediction file with the other
// one's count was made for the other file (the mistake is easy: both live in one
// directory, and bird:DIR reads dev.json).
const (
	birdDevQuestions     = 1534 // dev.json
	birdMiniDevQuestions = 500  // mini_dev_sqlite.json (and its MySQL and PostgreSQL twins)
)

// pairHint adds to a pairing error of the prediction file path what to do: the question
// file the predictions were made for when their count is the other BIRD file's, else
// --allow-missing when questions lack a prediction. Other errors are returned as they are.
func pairHint(ds *dataset.Dataset, path string, err error) error {
	count := countMismatch(err)
	if count != nil && ds.Kind == dataset.KindBIRD {
		if file, split, also := birdOtherFile(count.Predictions, count.Questions); file != "" {
			return fmt.Errorf("%s: %d predictions for %d questions (%w): %d is how many questions BIRD %s has, and --dataset read %s; for these predictions give --dataset bird:%s%s",
				path, count.Predictions, count.Questions, predict.ErrCountMismatch, count.Predictions, split,
				ds.Path, filepath.Join(filepath.Dir(ds.Path), file), also)
		}
	}
	missing := count != nil && count.Predictions < count.Questions
	if !missing && !errors.Is(err, predict.ErrMissing) {
		return err
	}
	hint := "--allow-missing judges the questions without a prediction as errors (a file of lines must still hold line i for question i)"
	sep := "; "
	if strings.Contains(err.Error(), "\n") {
		sep = "\n"
	}
	return fmt.Errorf("%w%s%s", err, sep, hint)
}

// birdOtherFile is the BIRD question file, and its split, that has as many questions as
// there are predictions when the dataset read has the other split's count; "" when the
// counts say nothing. also names mini-dev's MySQL and PostgreSQL files.
func birdOtherFile(predictions, questions int) (file, split, also string) {
	switch {
	case predictions == birdMiniDevQuestions && questions == birdDevQuestions:
		return "mini_dev_sqlite.json", "mini-dev", " (mini_dev_mysql.json or mini_dev_postgresql.json with those engines)"
	case predictions == birdDevQuestions && questions == birdMiniDevQuestions:
		return "dev.json", "dev", ""
	}
	return "", "", ""
}

// countMismatch is err's ErrCountMismatch, among joined pairing problems too; nil if none.
func countMismatch(err error) *predict.PairError {
	var pe *predict.PairError
	if errors.As(err, &pe) && errors.Is(pe.Err, predict.ErrCountMismatch) {
		return pe
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if pe := countMismatch(e); pe != nil {
				return pe
			}
		}
	}
	return nil
}
