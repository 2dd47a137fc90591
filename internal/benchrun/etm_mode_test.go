package benchrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestETMModeManifest: the ETM mode shapes verdicts, so the manifest records it (official
// by default) and --resume refuses a change of mode, naming it.
func TestETMModeManifest(t *testing.T) {
	for in, want := range map[string]string{"": "official", "official": "official", "corrected": "corrected"} {
		if got := manifestOf(t, Config{ETMMode: in}).ETMMode; got != want {
			t.Errorf("--etm-mode %q: manifest etm_mode %q, want %q", in, got, want)
		}
	}
	old := &rundir.Manifest{Settings: manifestOf(t, Config{})}
	cur := &rundir.Manifest{Settings: manifestOf(t, Config{ETMMode: "corrected"})}
	err := CompareManifests(old, cur)
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "setting etm_mode changed (official → corrected)") {
		t.Errorf("resume across ETM modes: %v", err)
	}
}
