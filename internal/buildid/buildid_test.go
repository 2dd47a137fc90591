package buildid

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func sumOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestFileSHA256Cache: a file's sum is kept under the cache directory and read back while
// the file is unchanged; a changed file is hashed again; "off" keeps nothing.
func TestFileSHA256Cache(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sum is cached on Linux only (the file's change time)")
	}
	cache := t.TempDir()
	t.Setenv("NL2SQLBENCH_CACHE_DIR", cache)
	path := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(path, []byte("first version"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := fileSHA256(path); got != sumOf([]byte("first version")) {
		t.Fatalf("first sum = %s", got)
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "exe", "*"))
	if len(entries) != 1 {
		t.Fatalf("cache entries = %v, want one", entries)
	}
	// A planted sum is what the next call returns: the cache is read, the file is not.
	planted := strings.Repeat("ab", sha256.Size)
	if err := os.WriteFile(entries[0], []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := fileSHA256(path); got != planted {
		t.Fatalf("unchanged file: sum = %s, want the cached %s", got, planted)
	}
	// Rewriting the file changes its identity (size here; the times too, but within one
	// clock tick of the file system they may not): hashed again.
	if err := os.WriteFile(path, []byte("other"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := fileSHA256(path); got != sumOf([]byte("other")) {
		t.Fatalf("rewritten file: sum = %s, want its own", got)
	}
	// A damaged entry is ignored.
	entries, _ = filepath.Glob(filepath.Join(cache, "exe", "*"))
	for _, e := range entries {
		os.WriteFile(e, []byte("not a sum"), 0o644)
	}
	if got := fileSHA256(path); got != sumOf([]byte("other")) {
		t.Fatalf("damaged entry: sum = %s", got)
	}

	off := filepath.Join(t.TempDir(), "none")
	t.Setenv("NL2SQLBENCH_CACHE_DIR", "off")
	if got := fileSHA256(path); got != sumOf([]byte("other")) {
		t.Fatalf("cache off: sum = %s", got)
	}
	if CacheDir() != "" {
		t.Errorf("CacheDir() with off = %q", CacheDir())
	}
	if _, err := os.Stat(off); err == nil {
		t.Errorf("cache off wrote %s", off)
	}
}

// TestIdentityOfATestBinary: a test binary carries no VCS stamp, so it is named by its
// executable's sum.
func TestIdentityOfATestBinary(t *testing.T) {
	t.Setenv("NL2SQLBENCH_CACHE_DIR", t.TempDir())
	if Pinned() {
		t.Skip("this test binary is VCS-stamped")
	}
	id := Identity()
	if !strings.HasPrefix(id, "exe:") || !isSHA256Hex(strings.TrimPrefix(id, "exe:")) {
		t.Errorf("Identity() = %q, want exe:<sha256>", id)
	}
}
