package benchrun

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// TestPairHintNamesTheFix: a pairing error says what fixes it: the other BIRD question
// file when the counts are dev's and mini-dev's, --allow-missing when questions lack a
// prediction, and nothing added when neither applies.
func TestPairHintNamesTheFix(t *testing.T) {
	count := func(preds, qs int) error {
		return &predict.PairError{Path: "p", Err: predict.ErrCountMismatch, Msg: fmt.Sprintf("%d for %d", preds, qs), Predictions: preds, Questions: qs}
	}
	missing := &predict.PairError{Path: "p", Key: "q7", Err: predict.ErrMissing, Msg: "question 7 has no prediction"}
	bird := func(file string) *dataset.Dataset {
		return &dataset.Dataset{Kind: dataset.KindBIRD, Path: "/data/bird/" + file}
	}
	for _, tc := range []struct {
		name   string
		ds     *dataset.Dataset
		err    error
		want   []string
		unwant []string
	}{
		{"mini-dev predictions on dev.json", bird("dev.json"), errors.Join(count(500, 1534), missing),
			[]string{"500 predictions for 1534 questions", "BIRD mini-dev", "--dataset bird:/data/bird/mini_dev_sqlite.json"},
			[]string{"question 7"}}, // one clear line, not every question's
		{"dev predictions on mini-dev", bird("mini_dev_sqlite.json"), count(1534, 500),
			[]string{"BIRD dev", "--dataset bird:/data/bird/dev.json"}, []string{"--allow-missing"}},
		{"a short BIRD file", bird("dev.json"), count(1500, 1534),
			[]string{"1500 for 1534", "--allow-missing"}, []string{"mini_dev"}},
		{"Spider counts are not BIRD's", &dataset.Dataset{Kind: dataset.KindSpider, Path: "dev.json"}, count(500, 1534),
			[]string{"--allow-missing"}, []string{"mini_dev", "BIRD"}},
		{"records without a prediction", bird("dev.json"), errors.Join(missing, missing),
			[]string{"question 7", "\n--allow-missing"}, nil},
		{"too many predictions", &dataset.Dataset{Kind: dataset.KindSpider}, count(1035, 1034),
			nil, []string{"--allow-missing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := pairHint(tc.ds, "p", tc.err)
			if !errors.Is(err, predict.ErrCountMismatch) && !errors.Is(err, predict.ErrMissing) {
				t.Errorf("the hint lost the sentinel: %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			for _, w := range tc.unwant {
				if strings.Contains(err.Error(), w) {
					t.Errorf("error has %q:\n%v", w, err)
				}
			}
		})
	}
}
