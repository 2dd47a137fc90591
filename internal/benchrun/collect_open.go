package benchrun

import (
	"context"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

// CollectConfig is what `collect` runs: the pipeline config file, the dataset, and
// where the pipeline's queries run.
type CollectConfig struct {
	ConfigPath, DatasetSpec, DBRoot, Tables string
	Limit                                   int
	ShardArg                                string              // --shard INDEX/COUNT or auto ("": every question)
	Getenv                                  func(string) string // --shard auto's environment
	Engines                                 *Engines
	Log                                     io.Writer    // collect's notes
	Warn                                    func(string) // the dataset's warnings, once loaded
}

// OpenCollect reads the pipeline config, checks it against the engine (a SQL++ pipeline
// runs on --engine sqlpp, with a bucket; a SQLite one does not), loads the dataset and,
// for a server engine, opens it: the options collect.Run (or TwoPass) starts from, and
// the function that closes the engine.
func OpenCollect(ctx context.Context, cc CollectConfig) (collect.Options, func(), error) {
	none := func() {}
	cfg, err := collect.LoadConfig(cc.ConfigPath)
	if err != nil {
		return collect.Options{}, none, err
	}
	switch sqlpp := cc.Engines.Engine == EngineSQLPP; {
	case cfg.SQLPP() && !sqlpp:
		return collect.Options{}, none, configf("%s: pipeline.dialect is sqlpp: run it with --engine sqlpp --sqlpp-endpoint URL --sqlpp-bucket BUCKET", cc.ConfigPath)
	case !cfg.SQLPP() && sqlpp:
		return collect.Options{}, none, configf("--engine sqlpp: %s writes SQLite SQL (pipeline.dialect sqlite); set pipeline.dialect: sqlpp and pipeline.documents", cc.ConfigPath)
	case sqlpp && cc.Engines.SQLPPBucket == "":
		return collect.Options{}, none, configf("--engine sqlpp: collect needs --sqlpp-bucket (prompts name collections inside the database's scope of that bucket)")
	}
	var shard *dataset.Shard
	if cc.ShardArg != "" {
		s, err := ParseShard(cc.ShardArg, cc.Getenv)
		if err != nil {
			return collect.Options{}, none, err
		}
		shard = &s
	}
	ds, err := dataset.Load(ctx, cc.DatasetSpec, dataset.Options{DBRoot: cc.DBRoot, Tables: cc.Tables})
	if err != nil {
		return collect.Options{}, none, err
	}
	for _, w := range ds.Warnings {
		cc.Warn(w)
	}
	base := collect.Options{Config: cfg, Dataset: ds, Limit: cc.Limit, Shard: shard, Log: cc.Log}
	if !cc.Engines.Server() {
		return base, none, nil
	}
	eng, locate, _, err := cc.Engines.Open(1, nil)
	if err != nil {
		return collect.Options{}, none, err
	}
	base.Engine, base.Locate = eng, locate
	return base, func() { eng.Close() }, nil
}

// OpenCollectTasks is OpenCollect for a task dataset (livesql:DIR, evalbench:DIR;
// IsTaskDataset): the pipeline config, the tasks as questions with their prompts, the
// --limit. Its queries run only when judged, so no engine is opened here.
func OpenCollectTasks(ctx context.Context, cc CollectConfig) (*TaskCollect, error) {
	cfg, err := collect.LoadConfig(cc.ConfigPath)
	if err != nil {
		return nil, err
	}
	if cc.ShardArg != "" {
		return nil, configf("--shard: not yet for task datasets (docs/tasks.md)")
	}
	engineName := ""
	if cc.Engines != nil {
		engineName = cc.Engines.Engine
	}
	tc, err := OpenTaskCollect(ctx, cfg, cc.DatasetSpec, engineName, nil)
	if err != nil {
		return nil, err
	}
	tc.Base.Limit, tc.Base.Log = cc.Limit, cc.Log
	return tc, nil
}
