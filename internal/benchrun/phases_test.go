package benchrun

import (
	"context"
	"testing"
)

// TestHashingPhase: with HashDBs, hashing the databases is a phase of its own, started
// and finished before judging, over every database of the run.
func TestHashingPhase(t *testing.T) {
	cfg := demoConfig(t)
	cfg.HashDBs = true
	obs := &notes{}
	p, err := Prepare(context.Background(), cfg, obs)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.phases) != 1 || obs.phases[0].Name != PhaseHashing || obs.phases[0].Items != len(p.Manifest.Databases) || obs.finished != 1 {
		t.Errorf("phases %+v (%d finished), want one %q over %d databases", obs.phases, obs.finished, PhaseHashing, len(p.Manifest.Databases))
	}
	cfg.HashDBs = false
	obs = &notes{}
	if _, err := Prepare(context.Background(), cfg, obs); err != nil {
		t.Fatal(err)
	}
	if len(obs.phases) != 0 {
		t.Errorf("without HashDBs: phases %+v", obs.phases)
	}
}
