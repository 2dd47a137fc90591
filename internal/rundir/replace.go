package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNotReplaceable is the error of `eval --force` into a folder that is not a run
// directory: --force replaces an earlier run, and removing anything else (a thesis, a
// source tree) is never what was meant.
var ErrNotReplaceable = errors.New("not a run directory, not replaced")

// topFiles are the files a run directory may hold at its top: what eval, merge, rescore,
// audit, agreement, report and collect's two-pass write there.
var topFiles = map[string]bool{
	ManifestFile: true, SummaryFile: true, ArgsFile: true, StatisticsFile: true,
	ReviewsFile: true, AuditFile: true, ReportFile: true, LLMJudgeCacheFile: true,
	AgreementFile: true, ReviewedFile: true, "two_pass.json": true,
}

// systemFiles are the files a system's folder holds.
var systemFiles = map[string]bool{RecordsFile: true, StatisticsFile: true}

// CheckReplaceable says whether dir may be replaced wholesale (eval --force): it must be
// empty, or a run directory holding nothing but what runs write: a manifest.json,
// args.json or summary.json, the run's other files, system folders of records.jsonl and
// statistics.json, and atomic writes' leftover temporary files. Anything else is an error
// matching ErrNotReplaceable that names up to five of the entries no run writes.
func CheckReplaceable(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	if len(ents) == 0 {
		return nil
	}
	var foreign []string
	marked := false
	for _, e := range ents {
		name := e.Name()
		switch {
		case e.Type().IsRegular() && topFiles[name]:
			marked = marked || name == ManifestFile || name == ArgsFile || name == SummaryFile
		case e.Type().IsRegular() && isTempFile(name):
		case e.IsDir() && systemFolder(filepath.Join(dir, name)):
		case e.IsDir():
			foreign = append(foreign, name+"/")
		default:
			foreign = append(foreign, name)
		}
	}
	sort.Strings(foreign)
	switch {
	case len(foreign) > 0:
		more := ""
		if len(foreign) > 5 {
			more = fmt.Sprintf(" and %d more", len(foreign)-5)
			foreign = foreign[:5]
		}
		return fmt.Errorf("%w: --out %s holds %s%s, which no run writes; --force replaces only a run directory (or an empty folder), so nothing was removed: move them, or use another --out",
			ErrNotReplaceable, dir, strings.Join(foreign, ", "), more)
	case !marked:
		return fmt.Errorf("%w: --out %s holds no %s, %s or %s; --force replaces only a run directory (or an empty folder), so nothing was removed: use another --out",
			ErrNotReplaceable, dir, ManifestFile, ArgsFile, SummaryFile)
	}
	return nil
}

// systemFolder reports whether dir is a system's folder of a run: a records.jsonl or
// statistics.json, and nothing else but atomic writes' temporary files; or empty.
func systemFolder(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	found := false
	for _, e := range ents {
		switch {
		case e.Type().IsRegular() && systemFiles[e.Name()]:
			found = true
		case e.Type().IsRegular() && isTempFile(e.Name()):
		default:
			return false
		}
	}
	return found || len(ents) == 0 // a folder made just before a run was killed
}

// isTempFile reports whether name is an atomic write's temporary file (safefile.Write:
// ".<name>.<random>.tmp") of a file a run writes.
func isTempFile(name string) bool {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".tmp") {
		return false
	}
	base := strings.TrimSuffix(strings.TrimPrefix(name, "."), ".tmp")
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return false
	}
	base = base[:i]
	return topFiles[base] || systemFiles[base]
}

// ErrSystemName is the error of a system whose folder name cannot be a system folder of
// the run directory: empty, "." or "..", one of the run's own file names (summary.json,
// manifest.json, args.json, ...: judging would fail at the end, and --resume could not
// recover it), or a dot name (the run's temporary files and the lock are dot names).
var ErrSystemName = errors.New("system name cannot name a system folder")

// CheckSystemDir checks dir (record.SystemDir of a system's name) can be that system's
// folder in a run directory; the error matches ErrSystemName and states the rule.
func CheckSystemDir(dir string) error {
	switch {
	case dir == "" || dir == "." || dir == "..":
		return fmt.Errorf("%w: its folder would be %q", ErrSystemName, dir)
	case strings.HasPrefix(dir, "."):
		return fmt.Errorf("%w: its folder %q would start with a dot, which the run directory keeps for its temporary files", ErrSystemName, dir)
	}
	for name := range topFiles {
		if strings.EqualFold(dir, name) {
			return fmt.Errorf("%w: its folder %q is the name of the run directory's own %s; a system may not be named after a file of the run (%s)",
				ErrSystemName, dir, name, strings.Join(reservedNames(), ", "))
		}
	}
	return nil
}

// reservedNames lists topFiles, sorted.
func reservedNames() []string {
	var out []string
	for n := range topFiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
