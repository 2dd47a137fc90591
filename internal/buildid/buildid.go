// Package buildid says which build of nl2sqlbench is running: its version (set at build
// time with -ldflags -X .../internal/buildid.version=V, else the module's, else
// "(devel)"; version.go), the VCS stamp Go put in the binary and, when that stamp does
// not pin the source (a modified tree, go run, a binary built with -buildvcs=false, a
// test), the sha256 of the executable itself.
//
// Why one place: the version subcommand prints them, a run's manifest records them, and
// caches of pure results (Spider's hardness) are keyed by Identity, so a different build
// never reuses what another built. Hashing the executable, tens of megabytes, costs a
// noticeable part of a second, so its sum is kept in the user's cache
// directory, keyed by the file's identity (device, inode, size, modification and change
// times: a rebuilt or replaced binary has another). NL2SQLBENCH_CACHE_DIR moves the cache
// directory; "off" turns every nl2sqlbench cache off.
//
// To key a new cache by the build, use Identity (and CacheDir for where to keep it).
package buildid

import (
	"crypto/sha256"
	"encoding/hex"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
)

// VCS is the binary's VCS stamp ("", "", false without one).
type VCS struct {
	Revision, Time string
	Modified       bool
}

// Stamp reads the running binary's VCS stamp.
var Stamp = sync.OnceValue(func() VCS {
	var v VCS
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
})

// Pinned reports whether the VCS revision pins the binary's source (a clean tree).
func Pinned() bool {
	v := Stamp()
	return v.Revision != "" && !v.Modified
}

// Identity names this build for cache keys: "rev:" and the revision when it pins the
// source, else "exe:" and the executable's sha256; "" when neither is known (then
// nothing may be cached).
func Identity() string {
	if Pinned() {
		return "rev:" + Stamp().Revision
	}
	if s := ExecutableSHA256(); s != "" {
		return "exe:" + s
	}
	return ""
}

// CacheDir is the directory of nl2sqlbench's caches: NL2SQLBENCH_CACHE_DIR, else
// nl2sqlbench/ in the user's cache directory; "" when caching is off or there is none.
func CacheDir() string {
	dir := os.Getenv("NL2SQLBENCH_CACHE_DIR")
	if dir == "off" {
		return ""
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "nl2sqlbench")
	}
	return dir
}

// ExecutableSHA256 is the sha256 of the running binary, "" when it cannot be read. It is
// computed once per process, and read from the cache when this very file was hashed
// before.
var ExecutableSHA256 = sync.OnceValue(func() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	return fileSHA256(path)
})

// fileSHA256 is the sha256 of the file at path, through the cache when the file's
// identity can be read.
func fileSHA256(path string) string {
	entry, key := "", fileKey(path)
	if key != "" {
		if dir := CacheDir(); dir != "" {
			k := sha256.Sum256([]byte(key))
			entry = filepath.Join(dir, "exe", hex.EncodeToString(k[:16]))
			if b, err := os.ReadFile(entry); err == nil && isSHA256Hex(string(b)) {
				return string(b)
			}
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if entry != "" && fileKeyOf(f) == key {
		StoreCacheFile(entry, []byte(sum)) // only when the file read is the one looked up, unchanged
	}
	return sum
}

func isSHA256Hex(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == sha256.Size
}

// StoreCacheFile writes a cache entry at path (making its directory), atomically: readers
// see the old file or the whole new one, never a part. It reports nothing: a cache that
// cannot be written only costs the next run the work it would have saved.
func StoreCacheFile(path string, data []byte) {
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	_ = safefile.WriteFile(path, data)
}
