package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// spider2Case is one hand-made conformance case of data/spider2/conformance: a
// prediction, gold variants, an eval config, and the verdict the suite's official
// evaluate.py gave (pandas 1.5.3).
type spider2Case struct {
	Name      string
	Task      dataset.Spider2Task
	Pred      string
	Score     int
	ErrorInfo string
}

func loadSpider2Cases(tb testing.TB, suite string) []spider2Case {
	tb.Helper()
	root := testutil.Shared(tb, filepath.Join("data", "spider2", "conformance", "synthetic_"+suite))
	ents, err := os.ReadDir(root)
	if err != nil {
		tb.Fatal(err)
	}
	var out []spider2Case
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		var cfg map[string]any
		readCaseJSON(tb, filepath.Join(dir, "config.json"), &cfg)
		var exp struct {
			Score     int     `json:"score"`
			ErrorInfo *string `json:"error_info"`
		}
		readCaseJSON(tb, filepath.Join(dir, "expected.json"), &exp)
		id := cfg["instance_id"].(string)
		t := dataset.Spider2Task{ID: id, InEvalConfig: true}
		t.ConditionCols, t.HasConditionCols = cfg["condition_cols"]
		io, ok := cfg["ignore_order"].(bool)
		t.IgnoreOrder, t.HasIgnoreOrder = io, ok
		golds, err := dataset.ReadSpider2GoldDir(filepath.Join(dir, "gold"), nil)
		if err != nil {
			tb.Fatal(err)
		}
		t.Gold, t.Single = golds.Files(id)
		c := spider2Case{Name: e.Name(), Task: t, Pred: filepath.Join(dir, "pred", id+".csv"), Score: exp.Score}
		if exp.ErrorInfo != nil {
			c.ErrorInfo = *exp.ErrorInfo
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func readCaseJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

// judgeSpider2Case judges one case as the run does: the prediction read as pandas reads
// it (a read failure is evaluate.py's "Evaluation Error", score 0).
func judgeSpider2Case(tb testing.TB, suite string, c spider2Case) (Spider2Verdict, error) {
	tb.Helper()
	golds, err := ReadSpider2Golds(&c.Task, engine.Limits{})
	if err != nil {
		tb.Fatalf("%s: %v", c.Name, err)
	}
	pred, err := pandascsv.ReadFile(c.Pred, pandascsv.Limits{})
	if err != nil {
		return Spider2Verdict{}, err
	}
	return CompareSpider2(suite, &c.Task, pred, golds), nil
}

// officialErrorClass is the part of evaluate.py's error_info before any detail.
func officialErrorClass(s string) string {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		return s[:i]
	}
	return s
}

// TestSpider2Conformance: every hand-made case gives the verdict the official
// evaluate.py of its suite gives (score, and the class of its error_info).
func TestSpider2Conformance(t *testing.T) {
	for _, suite := range []string{dataset.Spider2Lite, dataset.Spider2Snow} {
		cases := loadSpider2Cases(t, suite)
		if len(cases) != 37 {
			t.Fatalf("%s: %d cases, want 37", suite, len(cases))
		}
		agree := 0
		for _, c := range cases {
			v, err := judgeSpider2Case(t, suite, c)
			got, gotErr := 0, ""
			if err != nil {
				gotErr = "Evaluation Error"
			} else {
				got = v.Official.Score
				switch {
				case v.Official.Error != "":
					gotErr = v.Official.Error
				case got == 0:
					gotErr = "Result Error"
				}
			}
			if got != c.Score || officialErrorClass(gotErr) != officialErrorClass(c.ErrorInfo) {
				t.Errorf("%s/%s: official score %d (%q), evaluate.py %d (%q)", suite, c.Name, got, gotErr, c.Score, c.ErrorInfo)
				continue
			}
			agree++
		}
		t.Logf("%s: %d of %d conformance cases agree with evaluate.py", suite, agree, len(cases))
	}
}

// TestSpider2StrictDifferences lists (with -v) where strict mode departs from the
// official verdict on the conformance cases and why; docs/spider2.md holds the table,
// and this test holds docs and code together.
func TestSpider2StrictDifferences(t *testing.T) {
	want := map[string]string{}
	for _, suite := range []string{dataset.Spider2Lite, dataset.Spider2Snow} {
		for _, c := range loadSpider2Cases(t, suite) {
			v, err := judgeSpider2Case(t, suite, c)
			if err != nil || v.Official.Score == v.Strict.Score {
				continue
			}
			want[suite+"/"+c.Name] = fmt.Sprintf("official %d, strict %d: %s", v.Official.Score, v.Strict.Score, v.Why)
		}
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %s", k, want[k])
	}
	if len(keys) == 0 {
		t.Fatal("strict mode agrees with official on every case: the quirk cases should differ")
	}
}
