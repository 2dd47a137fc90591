package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/buildid"
	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// Spider's hardness is pure: the same question file, tables.json and parser give the same
// difficulties and warnings. Parsing every gold query was a tenth of a one-system run's
// CPU, so the result is kept in nl2sqlbench's cache directory (buildid.CacheDir:
// hardness/), keyed by the sha256 of the question file's bytes, tables.json's bytes and
// the build's identity (buildid.Identity: its VCS revision when that pins the source, else
// its executable's sha256), so a changed parser is never answered from it.
// NL2SQLBENCH_CACHE_DIR overrides the directory; "off" turns the cache off.

// hardnessCacheVersion changes when the cached file's shape changes.
const hardnessCacheVersion = "1"

// buildIdentity names the running build ("" when unknown: nothing is cached); tests
// replace it.
var buildIdentity = buildid.Identity

// hardnessCache is one dataset's cached difficulties and load warnings.
type hardnessCache struct {
	Difficulties []string        `json:"difficulties"`
	Warnings     []cachedWarning `json:"warnings"`
}

type cachedWarning struct {
	DB  string `json:"db,omitempty"` // the database it is about; "" for the whole dataset
	Msg string `json:"msg"`
}

// hardnessCachePath is where d's hardness is cached, "" when it is not to be cached.
func hardnessCachePath(d *Dataset, data []byte) string {
	rev, dir := buildIdentity(), buildid.CacheDir()
	if rev == "" || dir == "" || d.Tables == "" {
		return ""
	}
	tables, err := inputfile.Read(d.Tables)
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(hardnessCacheVersion), []byte(rev), []byte(d.Tables), data, tables} {
		h.Write([]byte{0})
		h.Write(part)
	}
	return filepath.Join(dir, "hardness", hex.EncodeToString(h.Sum(nil))+".json")
}

// cachedHardness sets d's difficulties and warnings from the cache; false when it has
// none for d (or one that does not fit: then hardness is computed again).
func cachedHardness(d *Dataset, path string) bool {
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var c hardnessCache
	if json.Unmarshal(b, &c) != nil || len(c.Difficulties) != len(d.Questions) {
		return false
	}
	for i := range d.Questions {
		d.Questions[i].Difficulty = c.Difficulties[i]
	}
	for _, w := range c.Warnings {
		if w.DB != "" {
			d.warnAbout(w.DB, w.Msg)
		} else {
			d.Warnings = append(d.Warnings, w.Msg)
		}
	}
	return true
}

// storeHardness writes d's difficulties and the warnings from index warnFrom on; a
// failure only costs the next run the parse.
func storeHardness(d *Dataset, path string, warnFrom int) {
	if path == "" {
		return
	}
	c := hardnessCache{Difficulties: make([]string, len(d.Questions)), Warnings: []cachedWarning{}}
	for i, q := range d.Questions {
		c.Difficulties[i] = q.Difficulty
	}
	for i := warnFrom; i < len(d.Warnings); i++ {
		c.Warnings = append(c.Warnings, cachedWarning{DB: d.warningDB[i], Msg: d.Warnings[i]})
	}
	if b, err := json.Marshal(c); err == nil {
		buildid.StoreCacheFile(path, b)
	}
}
