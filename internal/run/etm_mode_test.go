package run

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestETMModeManifest: the ETM mode shapes verdicts, so the manifest records it (official
// by default) and --resume refuses a change of mode, naming it.
func TestETMModeManifest(t *testing.T) {
	p := &Plan{Dataset: &dataset.Dataset{}}
	for in, want := range map[string]string{"": "official", "official": "official", "corrected": "corrected"} {
		if got := manifestSettings(Config{ETMMode: in}, p).ETMMode; got != want {
			t.Errorf("--etm-mode %q: manifest etm_mode %q, want %q", in, got, want)
		}
	}
	old := &rundir.Manifest{Settings: manifestSettings(Config{}, p)}
	cur := &rundir.Manifest{Settings: manifestSettings(Config{ETMMode: "corrected"}, p)}
	err := CompareManifests(old, cur)
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "setting etm_mode changed (official → corrected)") {
		t.Errorf("resume across ETM modes: %v", err)
	}
	if err := checkETMMode(Config{ETMMode: "strict"}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "--etm-mode") {
		t.Errorf("bad mode: %v", err)
	}
}
