// Package run is the one orchestrator: an evaluation written to its run directory, two
// passes, shards and their merge, the experiment matrix. It exists so that eval, demo,
// collect's two-pass runs and every matrix cell share one run path that can be tested
// without a command line, and so that the cli is left with flags and printing: run
// prints nothing (its Observers hear warnings and progress) and writes the run directory
// only through rundir.
//
// EvalInto (evalinto.go) is an evaluation start to end: the lock, where the run goes
// (rundir.PlanOut: --force writes beside an earlier run and swaps it in once complete),
// the resume checks, Prepare, args.json and the manifest, Eval streaming the records to
// a rundir.Writer, statistics.json, and rundir.Seal.
//
// # One evaluation
//
// An evaluation has two steps. Prepare(ctx, cfg, obs) loads the dataset, reads and pairs
// every prediction file strictly, narrows the run to Config.DBIDs (--db-id) and refuses a
// run none of whose database files exists (ErrNoDatabases). It returns a Plan: the
// dataset, the judge semantics, the systems with their directory names, and the run's
// Manifest (manifest.go: the build, the settings that shape verdicts, the sha256 of the
// dataset, tables.json and prediction files, the databases' size and time, or their
// sha256 with HashDBs). CompareManifests (resume.go) names every difference between a
// resumed run's manifest and the new one.
//
// The caller then knows what an interrupted run already holds and passes those records
// to Eval(ctx, plan, resumed, sink, obs), which opens the engines (SQLite files, or the
// caller's Server for PostgreSQL, MySQL, SQL++), judges the rest with the annotators
// (annotate.go: ESM, schema linking and module fields, ETM, ...), and streams every new
// record to the caller's Sink in dataset order. Resumed records that are not the run's
// first questions, by index, question_id and db_id, are refused (ErrResumeMismatch).
// With Config.VES it times the correct predictions and hands each system's records to
// Sink.Rewrite. It returns every system's records and statistics.json, and the summary
// built by Summarize (summary.go, the one place summary.json's sections are computed;
// each section is a pure function of the records writing its own field, so they run side
// by side). A spider2 dataset is judged by judge.RunSpider2 (spider2.go). A livesql:DIR or evalbench:DIR dataset (tasks that
// write, test cases, follow-up turns) is prepared and judged by tasks.go: each task on
// fresh taskdb copies, livesql's official judging, BIRD-Interact's follow-up rule and
// reward, summary.json's tasks section (tasks_summary.go; docs/tasks.md).
//
// Warnings and progress go to the caller's Observer as they happen, each long step a
// named Phase (hashing databases, judging, VES timing); dataset warnings about databases
// --db-id leaves out are dropped. An interrupted judging phase is a StoppedError; a
// mistake in the configuration matches ErrConfig.
//
// # Choosing metrics
//
// Config holds the flags as given; Resolve (settings.go) parses its modes and selects
// Config.Metrics (eval --metrics) once, into the Plan's Settings, which everything after
// Prepare reads. The union of what the chosen metrics need decides the dataset options, the annotator list, the judge options
// (SkipSoftF1, Flex) and which sections Summarize builds. The manifest records the
// selection (settings.metrics), so a resume with another one is refused.
//
// # Two passes, shards, the matrix
//
// TwoPass (twopass.go) is the NL2SQL++ two-pass run: pass 1 with collect, pass 1 judged
// with the flexible comparison, pass 2 on the failures with the previous attempt in the
// prompt, the merged records judged (each through EvalInto), and a TwoPassReport.
// collect writes its own resumable pass directories; the caller's PassObserver only
// shows the collect passes and the judged runs.
//
// Sharding (shard.go, merge.go; docs/scale.md): Config.Shard narrows the plan, after
// --db-id and through the same path, to one part of dataset.SplitShards (databases kept
// whole, placed largest first on the lightest shard, so the split depends only on the
// questions' db_ids and the count); ParseShard reads --shard I/N or auto (Kubernetes,
// Slurm variables) for every command that takes it. The manifest names the shard
// (settings.shard: index, count, db_ids, sha256 of the question indexes) and the host.
// Merge checks shard runs (the same manifest but for shard and databases, no duplicate,
// none missing, each holding exactly its split's questions, VES only from one host) and
// summarises their records through Summarize, like a single run.
//
// The experiment matrix (matrix_plan.go, matrix_summary.go; docs/matrix.md):
// LoadMatrixPlan reads a plan strictly (models and pipelines through collect's own config
// parse) into cells (datasets x models x pipelines, plus prediction files, minus
// exclusions) and hashes each cell's inputs; MatrixSummary compares the finished cells
// once (each cell's value and interval from its summary.json, cost and latency per
// correct answer, marginal means with exact McNemar tests, best cell against the
// runner-up) into rundir.MatrixSummary, which matrix.json holds and the terminal and HTML
// render. Matrix (matrix.go, matrix_run.go, matrix_merge.go, matrix_gate.go) runs a plan:
// OpenMatrix reads its datasets and hashes every cell's inputs, Run collects and judges
// (EvalInto) the cells not done, workers at a time, each endpoint's limits held across
// them, keeping matrix.json current, adopts merged shards' finished cells, and writes the
// comparison and report.WriteMatrixHTML's matrix.html; Estimate is the dry run.
//
// Audit, Rescore and Agreement (audit.go, rescore.go, agreement.go) are the run paths of
// the audit, rescore and agreement subcommands.
//
// To extend a run: a per-question metric is an entry in the registry (metrics.Declared),
// which Summarize aggregates into summary.json's metrics section; when it needs record
// fields filled while judging, a judge.Annotator added in annotators (annotate.go). An
// analysis that is not a per-question mean is a section of summary.json: a line in
// Summarize.
package benchrun
