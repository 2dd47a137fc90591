package benchrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// ErrResumeMismatch marks a resumed run whose records or manifest do not belong to the
// run being prepared: continuing would mix verdicts of different inputs in one number.
var ErrResumeMismatch = errors.New("cannot resume")

// MismatchError lists every difference between the run a directory holds and the run
// asked for, each naming its item.
type MismatchError struct{ Diffs []string }

func (e *MismatchError) Error() string {
	return "--resume: " + strings.Join(e.Diffs, "; ") + "; rerun without --resume or with the same inputs"
}

// Is makes a *MismatchError match ErrResumeMismatch.
func (e *MismatchError) Is(target error) bool { return target == ErrResumeMismatch }

// CompareManifests returns nil when cur describes the same run as old (the manifest of
// the run being resumed), else a *MismatchError naming every difference: the build
// (version, revision, Go and SQLite; the executable's sha256 when the revision does not
// pin the source: a modified tree, or no VCS information),
// each setting, the dataset and tables files, each system's prediction file and each
// database (by sha256 when both manifests hashed it, else by size and modification
// time). When the resumed run was started is not compared.
func CompareManifests(old, cur *rundir.Manifest) error {
	var d []string
	add := func(format string, a ...any) { d = append(d, fmt.Sprintf(format, a...)) }
	for _, b := range []struct{ name, old, cur string }{
		{"nl2sqlbench version", old.Version, cur.Version},
		{"nl2sqlbench VCS revision", old.Revision + dirty(old.Modified), cur.Revision + dirty(cur.Modified)},
		{"Go version", old.GoVersion, cur.GoVersion},
		{"SQLite version", old.SQLiteVersion, cur.SQLiteVersion},
	} {
		if b.old != b.cur {
			add("%s changed (%s → %s)", b.name, orNone(b.old), orNone(b.cur))
		}
	}
	// A clean build of one revision is the same source; a modified tree or a build
	// without VCS information is told apart by its executable.
	unsure := old.Revision == "" || old.Modified || cur.Modified
	if unsure && old.Executable != "" && cur.Executable != "" && old.Executable != cur.Executable {
		add("nl2sqlbench executable changed (sha256 %s → %s: another build)", short(old.Executable), short(cur.Executable))
	}
	d = append(d, settingsDiffs(old.Settings, cur.Settings)...)
	d = append(d, digestDiffs("dataset file", &old.Dataset, &cur.Dataset)...)
	d = append(d, digestDiffs("tables file", old.Tables, cur.Tables)...)
	d = append(d, digestDiffs("difficulty file", old.DiffJSON, cur.DiffJSON)...)
	d = append(d, digestDiffs("alternatives file", old.Alternatives, cur.Alternatives)...)
	d = append(d, digestDiffs("Spider 2.0 eval config", old.Spider2Eval, cur.Spider2Eval)...)
	d = append(d, digestDiffs("Spider 2.0 gold results", old.Spider2Gold, cur.Spider2Gold)...)
	d = append(d, predictionDiffs(old.Predictions, cur.Predictions)...)
	d = append(d, databaseDiffs(old.Databases, cur.Databases)...)
	if len(d) == 0 {
		return nil
	}
	return &MismatchError{Diffs: d}
}

func dirty(modified bool) string {
	if modified {
		return " (modified)"
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// settingsDiffs compares every setting by its JSON name (those in Extra by their key),
// so a setting added to the table of recorded settings is compared without a line here.
func settingsDiffs(old, cur rundir.ManifestSettings) []string {
	om, cm := settingFields(old), settingFields(cur)
	keys := make([]string, 0, len(om)+len(cm))
	for k := range om {
		keys = append(keys, k)
	}
	for k := range cm {
		if _, ok := om[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var d []string
	for _, k := range keys {
		if !bytes.Equal(om[k], cm[k]) {
			o, c := jsonText(om[k]), jsonText(cm[k])
			if k == "metrics" {
				o, c = metricsText(om[k]), metricsText(cm[k])
			}
			d = append(d, fmt.Sprintf("setting %s changed (%s → %s)", k, o, c))
		}
	}
	return d
}

// metricsText is the metrics setting as --metrics takes it: absent is every metric.
func metricsText(v json.RawMessage) string {
	var ids []string
	if json.Unmarshal(v, &ids) != nil || len(ids) == 0 {
		return "all"
	}
	return strings.Join(ids, ",")
}

// jsonText is a JSON value as the message shows it: a string without its quotes.
func jsonText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return orNone(s)
	}
	return orNone(string(v))
}

// settingFields are s's settings by key: its fields' and Extra's.
func settingFields(s rundir.ManifestSettings) map[string]json.RawMessage {
	m := jsonFields(s)
	delete(m, "extra")
	for k, v := range s.Extra {
		if settingFieldNames[k] {
			k = "extra." + k // a hostile key of a field's name cannot hide the field's change
		}
		m[k] = v
	}
	return m
}

// settingFieldNames are the JSON names of ManifestSettings' fields.
var settingFieldNames = func() map[string]bool {
	names := map[string]bool{}
	t := reflect.TypeFor[rundir.ManifestSettings]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		names[name] = true
	}
	return names
}()

func jsonFields(v any) map[string]json.RawMessage {
	b, _ := json.Marshal(v) // settings are plain values: marshalling cannot fail
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(b, &m)
	return m
}

// digestDiffs compares one input file's path and content.
func digestDiffs(what string, old, cur *rundir.FileDigest) []string {
	switch {
	case old == nil && cur == nil:
		return nil
	case old == nil:
		return []string{fmt.Sprintf("%s %s was not part of the run", what, cur.Path)}
	case cur == nil:
		return []string{fmt.Sprintf("%s %s of the run is not given", what, old.Path)}
	}
	switch {
	case old.Path != cur.Path:
		return []string{fmt.Sprintf("%s changed (%s, sha256 %s → %s, sha256 %s)", what, old.Path, short(old.SHA256), cur.Path, short(cur.SHA256))}
	case old.SHA256 != cur.SHA256:
		return []string{fmt.Sprintf("%s changed (%s: sha256 %s → %s)", what, cur.Path, short(old.SHA256), short(cur.SHA256))}
	}
	return nil
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return orNone(sum)
}

// predictionDiffs compares the systems and each one's prediction file.
func predictionDiffs(old, cur []rundir.PredictionFile) []string {
	var d []string
	if !slices.EqualFunc(old, cur, func(a, b rundir.PredictionFile) bool { return a.System == b.System }) {
		d = append(d, fmt.Sprintf("systems changed (%s → %s)", systemNames(old), systemNames(cur)))
	}
	byName := map[string]*rundir.PredictionFile{}
	for i := range old {
		byName[old[i].System] = &old[i]
	}
	for i := range cur {
		if o := byName[cur[i].System]; o != nil {
			d = append(d, digestDiffs("prediction file for system "+cur[i].System, &o.FileDigest, &cur[i].FileDigest)...)
		}
	}
	return d
}

func systemNames(ps []rundir.PredictionFile) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.System
	}
	return strings.Join(names, ", ")
}

// databaseDiffs compares the databases by db_id: which exist, and their content.
func databaseDiffs(old, cur []rundir.DatabaseFile) []string {
	var d []string
	byID := map[string]*rundir.DatabaseFile{}
	for i := range old {
		byID[old[i].DBID] = &old[i]
	}
	inCur := map[string]bool{}
	for i := range cur {
		c := &cur[i]
		inCur[c.DBID] = true
		o := byID[c.DBID]
		switch {
		case o == nil:
			d = append(d, fmt.Sprintf("database %s was not part of the run", c.DBID))
		case o.Missing != c.Missing:
			d = append(d, fmt.Sprintf("database %s: %s → %s", c.DBID, dbState(o), dbState(c)))
		case o.Missing:
		case o.Path != c.Path:
			d = append(d, fmt.Sprintf("database %s changed (%s → %s)", c.DBID, o.Path, c.Path))
		case o.SHA256 != "" && c.SHA256 != "":
			if o.SHA256 != c.SHA256 {
				d = append(d, fmt.Sprintf("database %s changed (sha256 %s → %s)", c.DBID, short(o.SHA256), short(c.SHA256)))
			}
		case o.Size != c.Size || !o.ModTime.Equal(c.ModTime):
			d = append(d, fmt.Sprintf("database %s changed (%d bytes modified %s → %d bytes modified %s)",
				c.DBID, o.Size, o.ModTime.Format("2006-01-02T15:04:05Z"), c.Size, c.ModTime.Format("2006-01-02T15:04:05Z")))
		}
	}
	for _, o := range old {
		if !inCur[o.DBID] {
			d = append(d, fmt.Sprintf("database %s of the run is not judged now", o.DBID))
		}
	}
	return d
}

func dbState(f *rundir.DatabaseFile) string {
	if f.Missing {
		return "missing"
	}
	return "present at " + f.Path
}

// checkResumed refuses resumed records that are not the dataset's first questions, in
// order: each must carry its question's index, question_id and db_id.
func checkResumed(ds *dataset.Dataset, systems []System, resumed [][]record.Record) error {
	var d []string
	for si, recs := range resumed {
		name := systems[si].Name
		if len(recs) > len(ds.Questions) {
			d = append(d, fmt.Sprintf("system %s has %d records for a run of %d questions", name, len(recs), len(ds.Questions)))
			continue
		}
		for i := range recs {
			r, q := &recs[i], &ds.Questions[i]
			if r.Index != q.Index || r.QuestionID != q.ID || r.DBID != q.DBID {
				d = append(d, fmt.Sprintf("system %s: record %d is question %d (question_id %q, db %s) but the run's question %d is question_id %q on db %s; not a run of this dataset",
					name, i+1, r.Index, r.QuestionID, r.DBID, q.Index, q.ID, q.DBID))
				break
			}
		}
	}
	if len(d) == 0 {
		return nil
	}
	return &MismatchError{Diffs: d}
}
