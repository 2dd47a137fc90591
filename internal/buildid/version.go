package buildid

import (
	"runtime/debug"
	"strings"
)

// version is the release version, set when a release is built (scripts/release.sh):
//
//	go build -ldflags "-X github.com/nl2sqlbench/nl2sqlbench/internal/buildid.version=0.1.0"
//
// It is a var, not a const, because -X can only set a package-level string variable.
var version string

// Devel is the version of a build that names none: a source build without -X.
const Devel = "(devel)"

// Version is the version this build reports (the version command, --version and the
// manifest): the one set at build time, else the module version Go stamped (go install
// module@v0.1.0), else Devel.
func Version() string {
	bi, _ := debug.ReadBuildInfo()
	module := ""
	if bi != nil {
		module = bi.Main.Version
	}
	return versionOf(version, module)
}

func versionOf(set, module string) string {
	if s := strings.TrimSpace(set); s != "" {
		return s
	}
	if module != "" && module != Devel {
		return module
	}
	return Devel
}

// Describe is Version followed, when the build has one, by its VCS stamp: "0.1.0", or
// "(devel) (6a6e7bc1d2e3 2026-11-26T06:00:00Z, modified)" for a source build, so a
// user reporting a bug from a checkout still names the commit.
func Describe() string {
	return describe(Version(), Stamp())
}

func describe(v string, s VCS) string {
	if s.Revision == "" {
		return v
	}
	rev := s.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if s.Time != "" {
		rev += " " + s.Time
	}
	if s.Modified {
		rev += ", modified"
	}
	return v + " (" + rev + ")"
}
