package record

import "regexp"

// unsafeDirChars are the characters a system's name may hold that its directory name
// does not: anything but letters, digits and . _ + -.
var unsafeDirChars = regexp.MustCompile(`[^A-Za-z0-9._+-]+`)

// SystemDir is the directory, inside a run directory, holding the records of the system
// called name: DIR/SystemDir(name)/records.jsonl. Each run of unsafe characters becomes
// one "_" ("GPT 4 (x)" is "GPT_4_x_"). It is the one mapping: eval writes there,
// summary.json records it per system (metrics.Summary.Dir), and report and serve read
// summary.json's dir, or this function for a summary written before the field existed.
// The result can be "", "." or "..", which name no directory: callers refuse them.
func SystemDir(name string) string {
	return unsafeDirChars.ReplaceAllString(name, "_")
}
