// Package rundir owns the run directory (docs/run-directory.md): its file names, the
// types of summary.json (Summary, which carries match's and slicing's summary types),
// manifest.json (Manifest), reviewed.json, agreement.json and matrix.json (a judged record
// is internal/record's), the schema_version each JSON file carries, and every read and
// write of them. eval, merge, rescore, audit, agreement, report, serve, compare and verify
// all read and write a run directory through it, because a run directory is data from
// someone else: it travels, and what it holds is checked before it is believed.
//
// Every file is written atomically, through internal/safefile. Load reads a run back
// (summary.json, each system's records, audit.jsonl, reviewed.json, agreement.json)
// within a size cap per file, so a broken or huge run fails alone with an error naming
// the file, and a cut-off last line gets a clear error. Every path read from a run is
// resolved inside it (Resolve, paths.go). Seal is a run's last write: summary.json with
// the sha256 of every file its numbers come from, then manifest.json with the same and
// summary.json's own; Check recomputes them (integrity.go). AcquireLock is the writer
// lock on --out (flock(2) on a file beside the directory, lock.go). The writer of a run
// being judged is here too: Writer (writer.go) streams each system's records (the run
// layer's sink), PlanOut (outdir.go) decides whether a run is written in place or beside
// an earlier one it replaces once complete, args.json (args.go) remembers eval's
// arguments, and resume.go holds --resume's checks.
//
// To add a file: its name and cap in files.go, its type in its own file, its reader
// beside it.
package rundir
