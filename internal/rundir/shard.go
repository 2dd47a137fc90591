package rundir

import "time"

// ShardInfo names the shard a run judged: shard Index (0-based) of Count of the split
// of the dataset's questions (after --db-id) that dataset.SplitShards makes.
type ShardInfo struct {
	Index int `json:"index"`
	Count int `json:"count"`
	// Questions is how many questions the shard holds, of DatasetQuestions in all.
	Questions        int `json:"questions"`
	DatasetQuestions int `json:"dataset_questions"`
	// DBIDs are the shard's databases; IndexesSHA256 is dataset.IndexDigest of its
	// questions (their indexes in the dataset file), so a merge can tell exactly which
	// questions it holds.
	DBIDs         []string `json:"db_ids"`
	IndexesSHA256 string   `json:"indexes_sha256"`
}

// MergedShard is one shard run a merged run was made from.
type MergedShard struct {
	Dir       string    `json:"dir"`
	Index     int       `json:"index"`
	Count     int       `json:"count"`
	Questions int       `json:"questions"`
	Host      string    `json:"host,omitempty"`
	StartedAt time.Time `json:"started_at"`
}
