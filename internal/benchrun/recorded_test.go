package benchrun

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestRecordedSettingsTable: every field of ManifestSettings is one entry of the table
// (Extra holds the entries without a field), each key once.
func TestRecordedSettingsTable(t *testing.T) {
	var fields, keys []string
	for name := range settingFieldNames {
		if name != "extra" {
			fields = append(fields, name)
		}
	}
	for _, r := range recordedSettings {
		if slices.Contains(keys, r.key) {
			t.Errorf("key %s twice", r.key)
		}
		if r.flag == nil {
			keys = append(keys, r.key)
		} else if settingFieldNames[r.key] {
			t.Errorf("setting %s, declared with its flag, has the key of a field", r.key)
		}
		if len(r.flags) == 0 {
			t.Errorf("key %s: no flag sets it", r.key)
		}
	}
	slices.Sort(fields)
	slices.Sort(keys)
	if !slices.Equal(fields, keys) {
		t.Errorf("ManifestSettings' fields %v\nthe table's keys        %v", fields, keys)
	}
}

// TestMergeRestoresEverySetting: merge puts back into its Config every setting a run
// records (configOf), so the settings recorded from that Config are the run's; the
// entries merge does not put back are those it cannot rebuild (a library, an LLM
// judge, task code) or that differ between shards.
func TestMergeRestoresEverySetting(t *testing.T) {
	cfg := Config{
		Timeout: 7 * time.Second, MaxRows: 123, MaxResultBytes: 4567, Semantics: "spider", AllowMissing: true,
		Engine: "postgres", GoldEngine: "sqlite", DBIDs: []string{"a", "b"}, Flex: true,
		ESMValues: true, ESMDistinct: true, ETMVerbose: true, ETMMode: "corrected", SpiderMode: "corrected",
		PassK: []int{1, 3}, VES: true, Timing: "robust", VESIterations: 9, PricingPath: "",
		Spider2Mode: "strict", LiveSQLMode: "corrected", TestSuite: true, TestSuiteSeed: 42, Metrics: []string{"ex", "ves", "ts_ex"},
	}
	ds := &dataset.Dataset{Kind: "spider", Path: "/d/dev.json", DBRoot: "/d/database"}
	p := &Plan{Config: cfg, Dataset: ds, Settings: resolved(t, cfg).withDefaultSemantics(ds.Kind)}
	m := &rundir.Manifest{Settings: manifestSettings(p), Dataset: rundir.FileDigest{Path: ds.Path}}
	back, st, err := configOf(m, 1)
	if err != nil {
		t.Fatal(err)
	}
	if back.DatasetSpec != "spider:/d/dev.json" {
		t.Errorf("dataset %q", back.DatasetSpec)
	}
	p2 := &Plan{Config: back, Dataset: ds, Settings: st}
	got, want := settingFields(manifestSettings(p2)), settingFields(m.Settings)
	for _, r := range recordedSettings {
		if (r.restore == nil && r.flag == nil) || r.key == "test_suite" { // merge's summary takes the search's seed from st
			continue
		}
		if string(got[r.key]) != string(want[r.key]) {
			t.Errorf("setting %s: recorded %s, merged %s", r.key, want[r.key], got[r.key])
		}
	}
	if st.TestSuite != m.Settings.TestSuite || !strings.Contains(st.TestSuite, "seed=42") {
		t.Errorf("test suite for the merged summary: %q, recorded %q", st.TestSuite, m.Settings.TestSuite)
	}
}

// TestMergeRefusesBadSettings: a recorded mode this build does not know, or a recorded
// setting it has no entry for, is refused by merge, naming its manifest key.
func TestMergeRefusesBadSettings(t *testing.T) {
	for key, set := range map[string]func(*rundir.ManifestSettings){
		"semantics":    func(s *rundir.ManifestSettings) { s.Semantics = "exact" },
		"spider_mode":  func(s *rundir.ManifestSettings) { s.SpiderMode = "bogus" },
		"etm_mode":     func(s *rundir.ManifestSettings) { s.ETMMode = "bogus" },
		"spider2_mode": func(s *rundir.ManifestSettings) { s.Spider2Mode = "bogus" },
		"timing":       func(s *rundir.ManifestSettings) { s.VES, s.Timing = true, "bogus" },
		"metrics":      func(s *rundir.ManifestSettings) { s.Metrics = []string{"nope"} },
		"newer":        func(s *rundir.ManifestSettings) { s.Extra = map[string]json.RawMessage{"newer": json.RawMessage(`1`)} },
	} {
		m := &rundir.Manifest{Settings: rundir.ManifestSettings{DatasetKind: "spider", Engine: "sqlite"}}
		set(&m.Settings)
		_, _, err := configOf(m, 1)
		if !errors.Is(err, ErrMerge) || !errors.Is(err, ErrManifestSetting) || !strings.Contains(err.Error(), "manifest setting "+key+":") {
			t.Errorf("bad %s: %v", key, err)
		}
	}
}

// TestFlagSetting: a setting declared only in the table is recorded under its key in
// Extra (absent at its zero value, so older runs resume), compared by resume under its
// key, put back by merge, and a value of the wrong type is refused naming the key.
func TestFlagSetting(t *testing.T) {
	r := recordedSetting{key: "toy", flags: flags("toy"), flag: &SettingFlag{Name: "toy", Value: func(c *Config) any { return &c.VESIterations }}}
	var s rundir.ManifestSettings
	r.recordTo(&Plan{}, &s)
	if s.Extra != nil {
		t.Errorf("zero value recorded: %v", s.Extra)
	}
	r.recordTo(&Plan{Config: Config{VESIterations: 3}}, &s)
	if string(s.Extra["toy"]) != "3" {
		t.Fatalf("recorded %v", s.Extra)
	}
	var c Config
	if err := r.restoreTo(&c, &rundir.Manifest{Settings: s}); err != nil || c.VESIterations != 3 {
		t.Errorf("restored %d, %v", c.VESIterations, err)
	}
	d := settingsDiffs(rundir.ManifestSettings{}, s)
	if !slices.Equal(d, []string{"setting toy changed (none → 3)"}) {
		t.Errorf("resume diffs %q", d)
	}
	// A key of a field's name in Extra is compared apart from the field.
	hostile := rundir.ManifestSettings{ETMMode: "", Extra: map[string]json.RawMessage{"etm_mode": json.RawMessage(`"official"`)}}
	if d := settingsDiffs(hostile, rundir.ManifestSettings{ETMMode: "official"}); len(d) != 2 {
		t.Errorf("hostile extra: %q", d)
	}
	bad := rundir.ManifestSettings{Extra: map[string]json.RawMessage{"toy": json.RawMessage(`"x"`)}}
	if err := r.restoreTo(&c, &rundir.Manifest{Settings: bad}); !errors.Is(err, ErrManifestSetting) || !strings.Contains(err.Error(), "manifest setting toy:") {
		t.Errorf("bad value: %v", err)
	}
	// Shards may differ on the shard alone.
	a := rundir.ManifestSettings{Shard: &rundir.ShardInfo{Index: 1}, Semantics: "bird"}
	if w := withoutPerShard(a); w.Shard != nil || w.Semantics != "bird" || a.Shard == nil {
		t.Errorf("without the shard: %+v (from %+v)", w, a)
	}
	if !reflect.DeepEqual(RecordedSettings()[0].Flags, []string{"dataset"}) {
		t.Errorf("the table's first entry: %+v", RecordedSettings()[0])
	}
}
