package benchrun

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// recordedSettings is the table of every setting that shapes verdicts and scores, as a
// run directory records it: its manifest key, the eval flags that set it, how it is read
// from a prepared run into rundir.ManifestSettings (manifestSettings), how merge puts it
// back into a Config (configOf), and whether the shards of one run may differ on it
// (only the shard itself). Resume compares every key (CompareManifests); the cli's flag
// table names each entry's key on its flags (TestEvalFlagTable holds the two equal).
//
// To add a setting that shapes verdicts: one entry here that declares its flag,
//
//	{key: "toy", flags: flags("toy"), flag: &SettingFlag{Name: "toy", Usage: "...",
//		Value: func(c *Config) any { return &c.Toy }}},
//
// and its field in Config (TestFlagSetting shows such an entry at work). It is recorded under its key in ManifestSettings.Extra (absent while
// it has its zero value, so runs made before it existed still resume), the cli declares
// its flag from the entry, and --resume must be told it again when Restate says why.
// The settings below predate the table and keep their fields of ManifestSettings.
var recordedSettings = []recordedSetting{
	setting("dataset_kind", flags("dataset"), func(s *rundir.ManifestSettings) *string { return &s.DatasetKind },
		func(p *Plan) string { return p.Dataset.Kind },
		func(c *Config, v string, m *rundir.Manifest) { c.DatasetSpec = v + ":" + m.Dataset.Path }),
	setting("db_root", flags("db-root"), func(s *rundir.ManifestSettings) *string { return &s.DBRoot },
		func(p *Plan) string { return absPath(p.Dataset.DBRoot) },
		func(c *Config, v string, _ *rundir.Manifest) { c.DBRoot = v }),
	setting("semantics", flags("semantics"), func(s *rundir.ManifestSettings) *string { return &s.Semantics },
		func(p *Plan) string { return string(p.Settings.Semantics) },
		func(c *Config, v string, _ *rundir.Manifest) { c.Semantics = v }),
	setting("timeout_s", flags("timeout"), func(s *rundir.ManifestSettings) *float64 { return &s.TimeoutS },
		func(p *Plan) float64 { return p.Config.Timeout.Seconds() },
		func(c *Config, v float64, _ *rundir.Manifest) { c.Timeout = time.Duration(v * float64(time.Second)) }),
	setting("max_rows", flags("max-rows"), func(s *rundir.ManifestSettings) *int { return &s.MaxRows },
		func(p *Plan) int { return p.Config.MaxRows },
		func(c *Config, v int, _ *rundir.Manifest) { c.MaxRows = v }),
	setting("max_result_bytes", flags("max-result-bytes"), func(s *rundir.ManifestSettings) *int64 { return &s.MaxResultBytes },
		func(p *Plan) int64 { return p.Config.maxResultBytes() },
		func(c *Config, v int64, _ *rundir.Manifest) { c.MaxResultBytes = v }),
	setting("allow_missing", flags("allow-missing"), func(s *rundir.ManifestSettings) *bool { return &s.AllowMissing },
		func(p *Plan) bool { return p.Config.AllowMissing },
		func(c *Config, v bool, _ *rundir.Manifest) { c.AllowMissing = v }),
	setting("engine", flags("engine"), func(s *rundir.ManifestSettings) *string { return &s.Engine },
		func(p *Plan) string { return cmp.Or(p.Config.Engine, "sqlite") },
		func(c *Config, v string, _ *rundir.Manifest) { c.Engine = v }),
	setting("gold_engine", flags("gold-engine"), func(s *rundir.ManifestSettings) *string { return &s.GoldEngine },
		func(p *Plan) string { return cmp.Or(p.Config.GoldEngine, p.Config.Engine, "sqlite") },
		func(c *Config, v string, m *rundir.Manifest) {
			if m.Settings.Engine != "sqlite" { // the cli leaves it "" for the SQLite files
				c.GoldEngine = v
			}
		}),
	setting("db_ids", flags("db-id"), func(s *rundir.ManifestSettings) *[]string { return &s.DBIDs },
		func(p *Plan) []string { return p.Config.DBIDs },
		func(c *Config, v []string, _ *rundir.Manifest) { c.DBIDs = v }),
	setting("flex", flags("flex"), func(s *rundir.ManifestSettings) *bool { return &s.Flex },
		func(p *Plan) bool { return p.Config.Flex },
		func(c *Config, v bool, _ *rundir.Manifest) { c.Flex = v }),
	setting("esm_values", flags("esm-values"), func(s *rundir.ManifestSettings) *bool { return &s.ESMValues },
		func(p *Plan) bool { return p.Config.ESMValues },
		func(c *Config, v bool, _ *rundir.Manifest) { c.ESMValues = v }),
	setting("esm_distinct", flags("esm-distinct"), func(s *rundir.ManifestSettings) *bool { return &s.ESMDistinct },
		func(p *Plan) bool { return p.Config.ESMDistinct },
		func(c *Config, v bool, _ *rundir.Manifest) { c.ESMDistinct = v }),
	setting("etm_verbose", flags("etm-verbose"), func(s *rundir.ManifestSettings) *bool { return &s.ETMVerbose },
		func(p *Plan) bool { return p.Config.ETMVerbose },
		func(c *Config, v bool, _ *rundir.Manifest) { c.ETMVerbose = v }),
	setting("etm_mode", flags("etm-mode"), func(s *rundir.ManifestSettings) *string { return &s.ETMMode },
		func(p *Plan) string { return string(p.Settings.ETMMode) },
		func(c *Config, v string, _ *rundir.Manifest) { c.ETMMode = v }),
	setting("spider_mode", flags("spider-mode"), func(s *rundir.ManifestSettings) *string { return &s.SpiderMode },
		spiderModeSetting,
		func(c *Config, v string, _ *rundir.Manifest) { c.SpiderMode = v }),
	setting("pass_k", flags("pass-k"), func(s *rundir.ManifestSettings) *[]int { return &s.PassK },
		func(p *Plan) []int { return p.Config.passK() },
		func(c *Config, v []int, _ *rundir.Manifest) { c.PassK = v }),
	setting("ves", flags("ves"), func(s *rundir.ManifestSettings) *bool { return &s.VES },
		func(p *Plan) bool { return p.Config.VES },
		func(c *Config, v bool, _ *rundir.Manifest) { c.VES = v }),
	setting("timing", flags("timing"), func(s *rundir.ManifestSettings) *string { return &s.Timing },
		func(p *Plan) string { return withVES(p, string(p.Settings.Timing)) },
		func(c *Config, v string, _ *rundir.Manifest) { c.Timing = v }),
	setting("ves_iterations", flags("ves-iterations"), func(s *rundir.ManifestSettings) *int { return &s.VESIterations },
		func(p *Plan) int { return withVES(p, p.Config.VESIterations) },
		func(c *Config, v int, _ *rundir.Manifest) { c.VESIterations = v }),
	// Merge reads the pricing file again (configOf).
	setting("pricing", flags("pricing"), func(s *rundir.ManifestSettings) *string { return &s.Pricing },
		func(p *Plan) string { return p.Config.PricingPath },
		func(c *Config, v string, _ *rundir.Manifest) { c.PricingPath = v }),
	setting("spider2_mode", flags("spider2-mode"), func(s *rundir.ManifestSettings) *string { return &s.Spider2Mode },
		spider2ModeSetting,
		func(c *Config, v string, _ *rundir.Manifest) { c.Spider2Mode = v }),
	setting("livesql_mode", flags("livesql-mode"), func(s *rundir.ManifestSettings) *string { return &s.LiveSQLMode },
		liveSQLModeSetting,
		func(c *Config, v string, _ *rundir.Manifest) { c.LiveSQLMode = v }),
	// Recorded as in force: "python (python3 not found)" is not a --task-code value.
	setting("task_code", flags("task-code"), func(s *rundir.ManifestSettings) *string { return &s.TaskCode },
		func(p *Plan) string { return taskCodeSetting(p.Config, p) }, nil),
	// The library that ran, not a Config value.
	setting("duckdb", flags("duckdb-lib"), func(s *rundir.ManifestSettings) *string { return &s.DuckDB },
		func(p *Plan) string { return duckDBSetting(p.Config, p) }, nil),
	// Each shard of a run has its own: merge compares the rest.
	setting("shard", flags("shard"), func(s *rundir.ManifestSettings) **rundir.ShardInfo { return &s.Shard },
		func(p *Plan) *rundir.ShardInfo { return p.Shard }, nil).ownPerShard(),
	setting("test_suite", flags("test-suite", "test-suite-seed", "test-suite-budget", "test-suite-domain", "proof", "proof-bound", "proof-budget"),
		func(s *rundir.ManifestSettings) *string { return &s.TestSuite },
		func(p *Plan) string { return testSuiteSetting(p.Config) },
		func(c *Config, v string, _ *rundir.Manifest) { c.TestSuite = v != "" }),
	setting("metrics", flags("metrics"), func(s *rundir.ManifestSettings) *[]string { return &s.Metrics },
		func(p *Plan) []string { return p.Settings.metricsSetting() },
		func(c *Config, v []string, _ *rundir.Manifest) { c.Metrics = v }),
	// A judge is not rebuilt from its name: the records hold its verdicts.
	setting("llm_judge", flags("llm-judge", "llm-judge-on", "llm-judge-prompt"), func(s *rundir.ManifestSettings) *string { return &s.LLMJudge },
		func(p *Plan) string {
			if p.Config.LLMJudge == nil {
				return ""
			}
			return p.Config.LLMJudge.Setting()
		}, nil),
}

// recordedSetting is one entry of recordedSettings.
type recordedSetting struct {
	key   string
	flags []string
	// flag declares the entry's eval flag, and makes it a setting recorded in
	// ManifestSettings.Extra (recordExtra); nil: the cli declares it, and record, restore
	// and clear say where it is recorded.
	flag *SettingFlag
	// record puts p's value into s; restore puts m's back into c (nil: merge does not
	// need it); clear zeroes it (merge: shards may differ only on perShard settings).
	record   func(p *Plan, s *rundir.ManifestSettings)
	restore  func(c *Config, m *rundir.Manifest) error
	clear    func(s *rundir.ManifestSettings)
	perShard bool
}

// recordTo puts p's value of the setting into s.
func (r recordedSetting) recordTo(p *Plan, s *rundir.ManifestSettings) {
	if r.flag != nil {
		r.recordExtra(p, s)
		return
	}
	r.record(p, s)
}

// restoreTo puts m's recorded value back into c (a setting merge does not need: nothing).
func (r recordedSetting) restoreTo(c *Config, m *rundir.Manifest) error {
	switch {
	case r.flag != nil:
		return r.restoreExtra(c, m)
	case r.restore != nil:
		return r.restore(c, m)
	}
	return nil
}

// clearIn zeroes the setting in s.
func (r recordedSetting) clearIn(s *rundir.ManifestSettings) {
	if r.flag != nil {
		delete(s.Extra, r.key)
		return
	}
	r.clear(s)
}

func flags(names ...string) []string { return names }

// setting is the entry of a setting with a field of ManifestSettings (field), read from
// a prepared run by from and put back into a Config by into (nil: not put back).
func setting[T any](key string, flags []string, field func(*rundir.ManifestSettings) *T, from func(*Plan) T, into func(*Config, T, *rundir.Manifest)) recordedSetting {
	r := recordedSetting{
		key: key, flags: flags,
		record: func(p *Plan, s *rundir.ManifestSettings) { *field(s) = from(p) },
		clear:  func(s *rundir.ManifestSettings) { var zero T; *field(s) = zero },
	}
	if into != nil {
		r.restore = func(c *Config, m *rundir.Manifest) error {
			s := m.Settings
			into(c, *field(&s), m)
			return nil
		}
	}
	return r
}

func (r recordedSetting) ownPerShard() recordedSetting { r.perShard = true; return r }

// withVES is v when the run times VES, else the zero value (recorded only with VES).
func withVES[T any](p *Plan, v T) T {
	if !p.Config.VES {
		var zero T
		return zero
	}
	return v
}

// SettingFlag is the eval flag of a setting declared with its flag (recordedSetting.flag): the cli binds it to
// the Config field Value returns (a *bool, *string, *int, *time.Duration or *[]string)
// with Default (nil: the zero value) and Usage. Restate, when not "", says why --resume
// must be told it again rather than take it from args.json (it loads code, reaches the
// network, reads a secret or a configuration file).
type SettingFlag struct {
	Name, Usage string
	Default     any
	Restate     string
	Value       func(*Config) any
}

// recordExtra records a setting declared with its flag under its key in
// ManifestSettings.Extra, as JSON, while it is not its zero value (so runs made before
// it existed still resume).
func (r recordedSetting) recordExtra(p *Plan, s *rundir.ManifestSettings) {
	cfg := p.Config
	v := reflect.ValueOf(r.flag.Value(&cfg)).Elem()
	if v.IsZero() {
		return
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		panic(fmt.Sprintf("setting %s: %v", r.key, err)) // plain values always marshal
	}
	if s.Extra == nil {
		s.Extra = map[string]json.RawMessage{}
	}
	s.Extra[r.key] = b
}

// restoreExtra puts the value recordExtra recorded back into c; a value of the wrong
// type is refused, naming the key.
func (r recordedSetting) restoreExtra(c *Config, m *rundir.Manifest) error {
	b, ok := m.Settings.Extra[r.key]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(b, r.flag.Value(c)); err != nil {
		return &manifestSettingError{msg: fmt.Sprintf("manifest setting %s: %v", r.key, err)}
	}
	return nil
}

// RecordedSetting is what the cli learns of an entry of the table: its manifest key,
// the eval flags that set it, and the flag it declares (nil: the cli declares it).
type RecordedSetting struct {
	Key   string
	Flags []string
	Flag  *SettingFlag
}

// RecordedSettings lists the table, in its order.
func RecordedSettings() []RecordedSetting {
	out := make([]RecordedSetting, len(recordedSettings))
	for i, r := range recordedSettings {
		out[i] = RecordedSetting{Key: r.key, Flags: slices.Clone(r.flags), Flag: r.flag}
	}
	return out
}

// manifestSettings are p's settings that shape verdicts and scores, as in force (the
// semantics after its default, the Pass@k list after its default): every entry of
// recordedSettings.
func manifestSettings(p *Plan) rundir.ManifestSettings {
	var s rundir.ManifestSettings
	for _, r := range recordedSettings {
		r.recordTo(p, &s)
	}
	return s
}

// restoreSettings puts m's recorded settings back into cfg; a recorded key no entry has
// (a run made by a newer build) is refused, naming it.
func restoreSettings(cfg *Config, m *rundir.Manifest) error {
	for k := range m.Settings.Extra {
		if !slices.ContainsFunc(recordedSettings, func(r recordedSetting) bool { return r.key == k && r.flag != nil }) {
			return &manifestSettingError{msg: fmt.Sprintf("manifest setting %s: unknown to this build of nl2sqlbench", k)}
		}
	}
	for _, r := range recordedSettings {
		if err := r.restoreTo(cfg, m); err != nil {
			return err
		}
	}
	return nil
}

// withoutPerShard is s without the settings each shard of a run has its own.
func withoutPerShard(s rundir.ManifestSettings) rundir.ManifestSettings {
	s.Extra = maps.Clone(s.Extra)
	for _, r := range recordedSettings {
		if r.perShard {
			r.clearIn(&s)
		}
	}
	return s
}
