package dataset

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// ErrShard marks a split that cannot be made (a count below 1, an index out of range,
// more shards than databases).
var ErrShard = errors.New("invalid shard")

// Shard is one part of a split of a dataset's questions into Count parts: the part with
// 0-based Index.
type Shard struct {
	Index, Count int
}

// String is the form --shard takes: INDEX/COUNT, 0-based.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ShardPart is what one shard of a split holds.
type ShardPart struct {
	DBIDs     []string // its databases, sorted
	Positions []int    // its questions' positions in the split's question list, ascending
}

// SplitShards splits qs into n shards that keep each database's questions together, so a
// shard opens few databases. Databases are placed largest first (most questions; ties by
// db_id), each on the shard holding the fewest questions so far (ties: the lowest index):
// a balanced greedy bin packing. The split depends only on qs's db_ids and n, so every
// process of a sharded run, and a later merge, computes the same one. n above the number
// of databases is refused: a shard would be empty.
func SplitShards(qs []Question, n int) ([]ShardPart, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: %d shards: want at least 1", ErrShard, n)
	}
	count := map[string]int{}
	for _, q := range qs {
		count[q.DBID]++
	}
	if n > len(count) {
		return nil, fmt.Errorf("%w: %d shards but the questions are on %d database%s; a database's questions stay in one shard, so at most %d shards",
			ErrShard, n, len(count), plural(len(count)), len(count))
	}
	ids := make([]string, 0, len(count))
	for id := range count {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	load := make([]int, n)
	shardOf := make(map[string]int, len(ids))
	parts := make([]ShardPart, n)
	for _, id := range ids {
		best := 0
		for i := 1; i < n; i++ {
			if load[i] < load[best] {
				best = i
			}
		}
		load[best] += count[id]
		shardOf[id] = best
		parts[best].DBIDs = append(parts[best].DBIDs, id)
	}
	for i := range parts {
		slices.Sort(parts[i].DBIDs)
	}
	for pos, q := range qs {
		s := shardOf[q.DBID]
		parts[s].Positions = append(parts[s].Positions, pos)
	}
	return parts, nil
}

// SelectShard narrows d to shard s of SplitShards(d.Questions, s.Count) and returns
// which positions of the questions it had were kept. Questions keep their Index in the
// whole dataset file.
func (d *Dataset) SelectShard(s Shard) (ShardPart, error) {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return ShardPart{}, fmt.Errorf("%w: %s: want INDEX/COUNT with 0 <= INDEX < COUNT", ErrShard, s)
	}
	parts, err := SplitShards(d.Questions, s.Count)
	if err != nil {
		return ShardPart{}, err
	}
	p := parts[s.Index]
	qs := make([]Question, len(p.Positions))
	for i, pos := range p.Positions {
		qs[i] = d.Questions[pos]
	}
	d.Questions = qs
	return p, nil
}

// IndexDigest is the sha256 of questions' dataset indexes (decimal, comma-separated):
// what a shard's manifest records to say exactly which questions it holds.
func IndexDigest(qs []Question) string {
	h := sha256.New()
	var b []byte
	for i, q := range qs {
		b = b[:0]
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(q.Index), 10)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
