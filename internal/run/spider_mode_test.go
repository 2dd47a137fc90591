package run

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
)

// TestSpiderModeManifest: the Spider mode shapes ex_spider, so the manifest records it
// (official by default) and --resume refuses a change of mode, naming it.
func TestSpiderModeManifest(t *testing.T) {
	p := &Plan{Dataset: &dataset.Dataset{}}
	for in, want := range map[string]string{"": "official", "official": "official", "corrected": "corrected"} {
		if got := manifestSettings(Config{SpiderMode: in}, p).SpiderMode; got != want {
			t.Errorf("--spider-mode %q: manifest spider_mode %q, want %q", in, got, want)
		}
	}
	old := &report.Manifest{Settings: manifestSettings(Config{}, p)}
	cur := &report.Manifest{Settings: manifestSettings(Config{SpiderMode: "corrected"}, p)}
	err := CompareManifests(old, cur)
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "setting spider_mode changed (official → corrected)") {
		t.Errorf("resume across Spider modes: %v", err)
	}
	if err := checkSpiderMode(Config{SpiderMode: "strict"}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "--spider-mode") {
		t.Errorf("bad mode: %v", err)
	}
}
