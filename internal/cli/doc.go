// Package cli is nl2sqlbench's command line: flags, printing and the run directory, one
// file per subcommand, each built by a constructor. Run(ctx, args, stdin, stdout, stderr)
// is the whole program minus the process: it takes the arguments and streams and returns
// an exit code, so tests drive the CLI in-process; cmd/nl2sqlbench/main.go is one line
// into it. Run starts gctune and wraps stdout and stderr in termsafe writers, so every
// line printed is safe for a terminal.
//
// Every subcommand's work is done below: internal/benchrun (the one orchestrator) or the
// package that owns it; this package keeps the flags and the printing, and report renders
// the larger tables. Nothing here opens a dataset, an engine or a run directory's files
// itself.
//
// # eval and demo
//
// eval's flags are declared once in evalflags.go (with how args.json remembers each,
// resumeargs.go; rundir.Args.Resume takes args.json back by those rules). eval and demo share evaluate (eval.go), which calls benchrun.EvalInto
// (lock, resume checks, manifest, records, summary.json, seal, the --force swap) with an
// observer, then prints the one-screen summary, every table with --details, or the JSON
// summary (summaryprint.go).
//
// Warnings and progress come from the run's Observer (progress.go: a bar on a terminal, a
// line every 5 s elsewhere, the time left from package eta's smoothed estimator). SIGINT
// cancels the context; the records written so far are complete, and the printed
// nl2sqlbench eval --resume --out DIR continues from them.
//
// # Other subcommands
//
// Each lives in its own file and makes one call below: collect benchrun.OpenCollect then
// collect.Run or benchrun.TwoPass; matrix benchrun.OpenMatrix; merge benchrun.MergeInto;
// parse benchrun.Parser; compare benchrun.CommonSystem and benchrun.Compare; demo
// benchrun.DemoConfig through evaluate; rescore benchrun.RescoreRun; agreement
// benchrun.AgreementInto; audit benchrun.AuditInto; export-docs benchrun.ExportDocs;
// load-db benchrun.Engines.LoadSQLite; adapt benchrun.AdaptTASQL; gen-large
// demo.GenerateLarge; report, serve and verify read through rundir and render through
// report. engines.go binds the engine flags eval and collect share into a
// benchrun.Engines (secrets read from the environment only); llmjudge.go binds the LLM
// judge's flags, never taken from args.json.
//
// To add a subcommand: write new<Name>Cmd(*env) in <name>.go and add it in newRootCmd
// (root.go); it writes through the env's stdout and stderr, never os.Stdout or os.Exit.
package cli
