package rundir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// Integrity ties summary.json to the files its numbers come from. When a run finishes,
// Seal hashes every file of the run directory (records, statistics, counterexample
// scripts, an audit) into summary.json's files, then writes manifest.json with the same
// hashes and the sha256 of summary.json itself. Check recomputes them: an edited number
// in summary.json, a flipped verdict in a records file, a records file of another system
// swapped in, a removed hash all show as Changed. (Someone who edits a file and both
// hash lists consistently is not caught: this guards against changes, not forgery.)

// ErrChanged is the error of a run whose files differ from the hashes it recorded:
// merge, rescore, compare and --resume refuse such a run.
var ErrChanged = errors.New("this run was changed after it was written")

// IntegrityState is what Check found.
type IntegrityState int

const (
	// NotChecked: Check did not run (a Run built in memory, not loaded).
	NotChecked IntegrityState = iota
	// Unchecked: the run recorded no hashes (written before nl2sqlbench recorded them).
	Unchecked
	// Intact: every recorded hash matches.
	Intact
	// Changed: a file differs from its recorded hash, is missing, or a hash is missing.
	Changed
)

// Integrity is the result of Check: its state and, when Changed, each problem, naming
// the file.
type Integrity struct {
	State    IntegrityState
	Problems []string
}

// Err is nil unless the run was changed; then it matches ErrChanged and names the files.
func (i Integrity) Err() error {
	if i.State != Changed {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrChanged, strings.Join(i.Problems, "; "))
}

// Banner is the line every rendering of a changed run shows first ("" otherwise).
func (i Integrity) Banner() string {
	if i.State != Changed {
		return ""
	}
	return "This run was changed after it was written: " + strings.Join(i.Problems, "; ") +
		". Its numbers may not be what its records support; rerun eval, or use the original run directory."
}

// Note is what a report says of a run whose integrity cannot be checked ("" otherwise).
func (i Integrity) Note() string {
	if i.State != Unchecked {
		return ""
	}
	return "integrity cannot be checked: this run was written by an nl2sqlbench that did not record the sha256 of its files"
}

// maxHashed caps a file Check or Seal hashes: bigger than any file a run writes.
const maxHashed = 4 << 30

// hashCap is the cap of the reader of the run file rel (slash path): a file over it is
// refused when read, so Check refuses it before reading it through.
func hashCap(rel string) int64 {
	switch path.Base(rel) {
	case RecordsFile:
		return MaxRecords
	case StatisticsFile:
		return MaxStatistics
	case AuditFile:
		return MaxAudit
	case ReviewedFile:
		return MaxReviewed
	case AgreementFile:
		return MaxAgreement
	}
	return maxHashed
}

// sealExcluded are the run directory's files that hashes do not cover: the two that
// carry the hashes, the arguments resume reads (checked on their own), a rendering that
// report rewrites, and the reviews people append to (Reseal covers them when rescore
// applies them).
var sealExcluded = map[string]bool{SummaryFile: true, ManifestFile: true, ArgsFile: true, ReportFile: true, ReviewsFile: true}

// hashFiles hashes every regular file below dir but those sealExcluded and hidden ones
// (temporary files, the lock), by slash path relative to dir. Symbolic links are not
// followed, and not hashed: a run writes none.
func hashFiles(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || sealExcluded[rel] {
			return nil
		}
		sum, err := safefile.SHA256(p, maxHashed)
		if err != nil {
			return err
		}
		out[rel] = sum
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("hash the run's files: %w", err)
	}
	return out, nil
}

// Seal is a run's last write: it hashes the files of dir into sum.Files, writes
// summary.json, then writes m (nil: the manifest.json in dir) as manifest.json with the
// same hashes and summary.json's sha256. sum is changed (its version and files); m is not.
func Seal(dir string, sum *Summary, m *Manifest) error {
	files, err := hashFiles(dir)
	if err != nil {
		return err
	}
	sum.SchemaVersion = SchemaVersion
	sum.Files = files
	if sm := sum.Manifest; sm != nil && (sm.Files != nil || sm.SummarySHA256 != "") {
		c := *sm // a resumed run's manifest carries the hashes of its earlier finish
		c.Files, c.SummarySHA256 = nil, ""
		sum.Manifest = &c
	}
	var buf bytes.Buffer
	if err := safefile.EncodeJSON(&buf, sum); err != nil {
		return fmt.Errorf("write %s: %w", SummaryFile, err)
	}
	if err := safefile.WriteFile(filepath.Join(dir, SummaryFile), buf.Bytes()); err != nil {
		return err
	}
	if m == nil {
		if m, err = ReadManifest(dir); err != nil {
			return err
		}
	}
	mc := *m
	mc.SchemaVersion = SchemaVersion
	mc.Files = make(map[string]string, len(files))
	for k, v := range files {
		mc.Files[k] = v
	}
	h := sha256.Sum256(buf.Bytes())
	mc.SummarySHA256 = hex.EncodeToString(h[:])
	return WriteJSON(filepath.Join(dir, ManifestFile), &mc)
}

// Reseal records in manifest.json the hashes of files added to a finished run after it
// was written (reviewed.json, reviews.jsonl by rescore; audit.jsonl by audit;
// agreement.json by agreement), by slash
// path relative to dir; a name whose file is gone loses its hash. A run that recorded no
// hashes is left as it is.
func Reseal(dir string, names ...string) error {
	m, err := ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if m.SummarySHA256 == "" {
		return nil
	}
	if m.Files == nil {
		m.Files = map[string]string{}
	}
	for _, n := range names {
		sum, err := safefile.SHA256(filepath.Join(dir, filepath.FromSlash(n)), maxHashed)
		switch {
		case errors.Is(err, os.ErrNotExist):
			delete(m.Files, n)
		case err != nil:
			return err
		default:
			m.Files[n] = sum
		}
	}
	return WriteJSON(filepath.Join(dir, ManifestFile), m)
}

// Check compares the files of the run in dir, whose summary.json is sum, with the
// hashes the run recorded (Seal, Reseal).
func Check(dir string, sum *Summary) Integrity {
	var p []string
	changed := func(format string, a ...any) { p = append(p, fmt.Sprintf(format, a...)) }
	sealedSummary := sum.SchemaVersion >= SchemaVersion || len(sum.Files) > 0
	m, err := ReadManifest(dir)
	if err != nil {
		if !sealedSummary {
			return Integrity{State: Unchecked}
		}
		changed("%s cannot be read (%v)", ManifestFile, err)
		return Integrity{State: Changed, Problems: p}
	}
	if !sealedSummary && m.SummarySHA256 == "" && len(m.Files) == 0 && m.SchemaVersion < SchemaVersion {
		return Integrity{State: Unchecked}
	}
	if m.SummarySHA256 == "" {
		changed("%s records no sha256 of %s", ManifestFile, SummaryFile)
	} else if got, err := safefile.SHA256(filepath.Join(dir, SummaryFile), maxHashed); err != nil {
		changed("%s: %v", SummaryFile, err)
	} else if got != m.SummarySHA256 {
		changed("%s differs from the sha256 %s recorded (%.12s, now %.12s)", SummaryFile, ManifestFile, m.SummarySHA256, got)
	}
	if len(sum.Files) == 0 {
		changed("%s records no file hashes", SummaryFile)
	}
	if sum.Manifest == nil {
		changed("%s carries no manifest", SummaryFile)
	} else if !sameManifest(sum.Manifest, m) {
		changed("%s differs from the manifest %s carries", ManifestFile, SummaryFile)
	}
	for _, k := range sortedKeys(sum.Files) {
		if m.Files[k] != sum.Files[k] {
			changed("%s and %s record different hashes of %s", SummaryFile, ManifestFile, k)
		}
	}
	for _, s := range sum.Systems {
		d, ok := systemDir(s)
		if !ok {
			continue // Load warns of it
		}
		if rel := d + "/" + RecordsFile; m.Files[rel] == "" {
			changed("the records of system %s (%s) are not among the files the run recorded", s.System, rel)
		}
	}
	for _, n := range []string{AuditFile, ReviewedFile, AgreementFile} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil && m.Files[n] == "" {
			changed("%s was added after the run was written, by something that did not record it", n)
		}
	}
	for _, k := range sortedKeys(m.Files) {
		if !localPath(k) {
			changed("%s records a file outside the run directory (%q)", ManifestFile, k)
			continue
		}
		// Within the run (a symlink out is not read) and the cap of the file's reader: a
		// sparse 2 GB records.jsonl was hashed for 7 s before anything refused it.
		file, err := Resolve(dir, k)
		got := ""
		if err == nil {
			got, err = safefile.SHA256(file, hashCap(k))
		}
		switch {
		case errors.Is(err, os.ErrNotExist) && (k == ReviewedFile || k == AuditFile || k == AgreementFile):
			// An add-on a later command wrote (rescore, the dashboard, audit, agreement) and may write
			// again: without it that section is not shown, and nothing shown is unsupported.
		case errors.Is(err, os.ErrNotExist):
			changed("%s is missing", k)
		case err != nil:
			changed("%s: %v", k, err)
		case got != m.Files[k]:
			changed("%s differs from its recorded sha256 (%.12s, now %.12s)", k, m.Files[k], got)
		}
	}
	if len(p) > 0 {
		return Integrity{State: Changed, Problems: p}
	}
	return Integrity{State: Intact}
}

// sameManifest reports whether two manifests are the same but for the hashes Seal adds.
func sameManifest(a, b *Manifest) bool {
	strip := func(m *Manifest) []byte {
		c := *m
		c.SchemaVersion, c.Files, c.SummarySHA256 = 0, nil, ""
		j, err := json.Marshal(&c)
		if err != nil {
			return nil
		}
		return j
	}
	ja, jb := strip(a), strip(b)
	return ja != nil && bytes.Equal(ja, jb)
}

// localPath reports whether rel (slash-separated) names a file inside the directory:
// relative, clean, not leaving it.
func localPath(rel string) bool {
	return rel != "" && !path.IsAbs(rel) && !strings.Contains(rel, "\\") && path.Clean(rel) == rel && rel != ".." && !strings.HasPrefix(rel, "../") && filepath.IsLocal(filepath.FromSlash(rel))
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
