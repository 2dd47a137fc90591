package benchrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestSpiderModeManifest: the Spider mode shapes ex_spider, so the manifest records it
// (official by default) and --resume refuses a change of mode, naming it.
func TestSpiderModeManifest(t *testing.T) {
	for in, want := range map[string]string{"": "official", "official": "official", "corrected": "corrected"} {
		if got := manifestOf(t, Config{SpiderMode: in}).SpiderMode; got != want {
			t.Errorf("--spider-mode %q: manifest spider_mode %q, want %q", in, got, want)
		}
	}
	old := &rundir.Manifest{Settings: manifestOf(t, Config{})}
	cur := &rundir.Manifest{Settings: manifestOf(t, Config{SpiderMode: "corrected"})}
	err := CompareManifests(old, cur)
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "setting spider_mode changed (official → corrected)") {
		t.Errorf("resume across Spider modes: %v", err)
	}
}

// TestSpiderModeMerge: merging shards keeps their Spider and ETM modes for the summary,
// and refuses a mode this build does not know rather than reading it as official.
func TestSpiderModeMerge(t *testing.T) {
	tests := []struct {
		spider, etm string
		wantErr     string
	}{
		{"corrected", "corrected", ""},
		{"", "", ""},
		{"bogus", "official", "manifest setting spider_mode"},
		{"official", "bogus", "manifest setting etm_mode"},
	}
	for _, tc := range tests {
		m := &rundir.Manifest{Settings: rundir.ManifestSettings{DatasetKind: "spider", SpiderMode: tc.spider, ETMMode: tc.etm}}
		cfg, st, err := configOf(m, 1)
		if tc.wantErr != "" {
			if !errors.Is(err, ErrMerge) || !errors.Is(err, ErrManifestSetting) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("modes %q/%q: error %v, want ErrMerge naming %s", tc.spider, tc.etm, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cfg.SpiderMode != tc.spider || cfg.ETMMode != tc.etm || st.SpiderMode == "" || st.ETMMode == "" {
			t.Errorf("modes %q/%q: got %q/%q, %v", tc.spider, tc.etm, cfg.SpiderMode, cfg.ETMMode, err)
		}
	}
}
