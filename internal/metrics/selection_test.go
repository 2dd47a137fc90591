package metrics

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSelectMetrics(t *testing.T) {
	tests := []struct {
		name    string
		values  []string
		sw      Switches
		ids     []string // nil: all
		needs   Need
		lacks   Need
		wantErr string
	}{
		{name: "none is all", values: nil, needs: NeedHardness | NeedSoftF1 | NeedESM | NeedETM | NeedLinking | NeedModules},
		{name: "all", values: []string{"all"}, needs: NeedESM | NeedETM},
		{name: "all wins", values: []string{"ex", "all"}},
		{name: "ex alone needs nothing", values: []string{"ex"}, ids: []string{"ex"}, lacks: ^Need(0)},
		{name: "comma list, spaces, case", values: []string{" EX , ex_bird", "ex"}, ids: []string{"ex", "ex_bird"}, lacks: ^Need(0)},
		{name: "bird without --ves", values: []string{"bird"}, ids: []string{"ex_bird", "soft_f1", "by_difficulty"},
			needs: NeedSoftF1 | NeedHardness, lacks: NeedESM | NeedETM | NeedLinking | NeedTiming},
		{name: "bird with --ves", values: []string{"bird"}, sw: Switches{VES: true}, ids: []string{"ex_bird", "soft_f1", "ves", "rves", "by_difficulty"},
			needs: NeedSoftF1 | NeedTiming},
		{name: "spider", values: []string{"spider"}, ids: []string{"ex_spider", "esm", "by_difficulty", "esm_partial"},
			needs: NeedESM | NeedHardness, lacks: NeedSoftF1 | NeedETM | NeedLinking},
		{name: "etm", values: []string{"etm"}, ids: []string{"etm"}, needs: NeedETM, lacks: NeedESM | NeedHardness},
		{name: "schema", values: []string{"schema_table_f1"}, ids: []string{"schema_table_f1"}, needs: NeedLinking | NeedModules},
		{name: "pass@k", values: []string{"pass@5"}, ids: []string{"pass@5"}, needs: NeedLinking},
		{name: "usage", values: []string{"tokens"}, ids: []string{"tokens"}, needs: NeedModules, lacks: NeedLinking},
		{name: "unknown", values: []string{"ex,bleu"}, wantErr: `unknown metric "bleu"; valid: metrics ex,`},
		{name: "ves without --ves", values: []string{"ves"}, wantErr: "needs --ves"},
		{name: "ts_ex without --test-suite", values: []string{"ts_ex"}, wantErr: "needs --test-suite"},
		{name: "flex without --flex", values: []string{"flex"}, wantErr: "needs --flex"},
		{name: "--ves unchosen", values: []string{"ex"}, sw: Switches{VES: true}, wantErr: "--ves computes ves"},
		{name: "--ves with rves", values: []string{"rves"}, sw: Switches{VES: true}, ids: []string{"rves"}, needs: NeedTiming},
		{name: "--test-suite unchosen", values: []string{"spider"}, sw: Switches{TestSuite: true}, wantErr: "--test-suite computes ts_ex"},
		{name: "--flex unchosen is fine", values: []string{"ex"}, sw: Switches{Flex: true}, ids: []string{"ex"}, lacks: NeedFlex},
		{name: "llm_judge without --llm-judge", values: []string{"llm_judge"}, wantErr: "needs --llm-judge"},
		{name: "llm_judge brings ETM", values: []string{"llm_judge"}, sw: Switches{LLMJudge: true}, ids: []string{"llm_judge"}, needs: NeedLLMJudge | NeedETM, lacks: NeedESM | NeedModules},
		{name: "judge usage", values: []string{"llm_judge", "llm_judge_cost"}, sw: Switches{LLMJudge: true}, ids: []string{"llm_judge", "llm_judge_cost"}, needs: NeedLLMJudge, lacks: NeedModules},
		{name: "--llm-judge unchosen", values: []string{"ex"}, sw: Switches{LLMJudge: true}, wantErr: "--llm-judge computes llm_judge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := SelectMetrics(tt.values, Options{}, tt.sw)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := sel.IDs(Options{}); !slices.Equal(got, tt.ids) {
				t.Errorf("ids %v, want %v", got, tt.ids)
			}
			if tt.ids == nil && !sel.All() {
				t.Error("not all")
			}
			n := sel.Needs(Options{})
			if !n.Has(tt.needs) {
				t.Errorf("needs %b, want at least %b", n, tt.needs)
			}
			if n&tt.lacks != 0 {
				t.Errorf("needs %b, want none of %b", n, tt.lacks)
			}
		})
	}
	if _, err := SelectMetrics([]string{"nope"}, Options{}, Switches{}); !errors.Is(err, ErrUnknownMetric) {
		t.Errorf("unknown id: %v is not ErrUnknownMetric", err)
	}
}

// TestSelectionRoundTrip: the ids a manifest records select the same metrics again.
func TestSelectionRoundTrip(t *testing.T) {
	sel, err := SelectMetrics([]string{"spider", "soft_f1"}, Options{}, Switches{})
	if err != nil {
		t.Fatal(err)
	}
	again := SelectionOf(sel.IDs(Options{}))
	if !slices.Equal(again.IDs(Options{}), sel.IDs(Options{})) || again.Needs(Options{}) != sel.Needs(Options{}) {
		t.Errorf("round trip: %v -> %v", sel.IDs(Options{}), again.IDs(Options{}))
	}
	if SelectionOf(nil).IDs(Options{}) != nil || !SelectionOf(nil).All() {
		t.Error("nil ids are not every metric")
	}
	var got []string
	for _, m := range sel.Filter(Declared(Options{})) {
		got = append(got, m.ID)
	}
	if !slices.Equal(got, []string{"ex_spider", "esm", "soft_f1"}) {
		t.Errorf("Filter kept %v", got)
	}
}
