// Package cli is nl2sqlbench's command line: flags, printing and the run directory, one
// file per subcommand, each built by a constructor. Run(ctx, args, stdin, stdout, stderr)
// is the whole program minus the process: it takes the arguments and streams and returns
// an exit code, so tests drive the CLI in-process; cmd/nl2sqlbench/main.go is one line
// into it. Run starts gctune and wraps stdout and stderr in termsafe writers, so every
// line printed is safe for a terminal.
//
// Evaluations are orchestrated by internal/benchrun (imported as benchrun: the tests here have
// a func run); this package keeps the flags, the printing and the run directory.
//
// # eval and demo
//
// eval and demo share evaluate (eval.go), which:
//   - decides where the run goes (outdir.go: a non-empty --out only with --resume, or with
//     --force into a sibling directory renamed into place once complete);
//   - calls the run layer and, on --resume, compares the directory's manifest.json with
//     the plan's and refuses on any difference;
//   - writes the run directory, holding rundir.AcquireLock on --out throughout: args.json,
//     the eval arguments, so that eval --resume --out DIR alone continues a run
//     (resumeargs.go); then (rundir.go) manifest.json first, DIR/<system>/records.jsonl
//     streamed as the run's Sink (read back and cut at a torn line on --resume, rewritten
//     atomically after timing), statistics.json, and last rundir.Seal (summary.json and the
//     manifest with every file's sha256);
//   - prints the one-screen summary, every table with --details, or the JSON summary
//     (summaryprint.go).
//
// Warnings and progress come from the run's Observer (progress.go: a bar on a terminal, a
// line every 5 s elsewhere, the time left from package eta's smoothed estimator). SIGINT
// cancels the context; the records written so far are complete, and the printed
// nl2sqlbench eval --resume --out DIR continues from them.
//
// # Other subcommands
//
// collect prints a two-pass run and writes two_pass.json. matrix (matrix*.go) runs a
// plan's cells as collect + evaluate run directories under DIR/cells/, --workers at a
// time behind one gate per endpoint (matrix_llm.go), keeps DIR/matrix.json current
// through rundir, resumes (a cell is finished only when its cell.json, integrity check and
// module records' sha256 agree), moves cells of changed inputs to DIR/superseded/, and
// adopts shard directories' finished cells (--merge). The others (agreement, audit,
// parse, report, serve, rescore, merge, verify, adapt, gen-large, export-docs, load-db,
// ...) each live in their own file. engines.go holds the engine flags eval and collect
// share (--engine, --dsn-env, --gold-engine, the SQL++ endpoint), with secrets read from
// the environment only, and opens the server engines for the run layer (run.Server).
// llmjudge.go builds the LLM judge's setting from its flags, never from args.json.
//
// To add a subcommand: write new<Name>Cmd(*env) in <name>.go and add it in newRootCmd
// (root.go); it writes through the env's stdout and stderr, never os.Stdout or os.Exit.
package cli
