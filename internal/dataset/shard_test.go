package dataset

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// questionsOn builds questions whose db_ids are given in dataset order.
func questionsOn(dbs ...string) []Question {
	qs := make([]Question, len(dbs))
	for i, db := range dbs {
		qs[i] = Question{Index: i, ID: fmt.Sprint(i), DBID: db}
	}
	return qs
}

func TestSplitShards(t *testing.T) {
	// a:4, b:3, c:3 (tie with b: b first), d:1, e:1 — interleaved in dataset order.
	qs := questionsOn("a", "b", "c", "a", "d", "b", "c", "a", "e", "b", "c", "a")
	tests := []struct {
		n    int
		want [][]string
	}{
		{1, [][]string{{"a", "b", "c", "d", "e"}}},
		// Largest first onto the lightest shard: a(4)->0; b(3)->1; c(3)->1 (load 3 < 4);
		// d->0 (4 < 6); e->0 (5 < 6).
		{2, [][]string{{"a", "d", "e"}, {"b", "c"}}},
		// a->0, b->1, c->2, d->1 (3,3 tie: lowest index 1), e->2.
		{3, [][]string{{"a"}, {"b", "d"}, {"c", "e"}}},
		{5, [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			parts, err := SplitShards(qs, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			seen := map[int]int{}
			for si, p := range parts {
				got = append(got, p.DBIDs)
				if !slices.IsSorted(p.Positions) {
					t.Errorf("shard %d positions not ascending: %v", si, p.Positions)
				}
				for _, pos := range p.Positions {
					if !slices.Contains(p.DBIDs, qs[pos].DBID) {
						t.Errorf("shard %d holds question %d on %s, not one of its databases %v", si, pos, qs[pos].DBID, p.DBIDs)
					}
					seen[pos]++
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("databases per shard = %v, want %v", got, tt.want)
			}
			for pos := range qs {
				if seen[pos] != 1 {
					t.Errorf("question %d is in %d shards, want exactly 1", pos, seen[pos])
				}
			}
		})
	}
}

func TestSplitShardsIgnoresQuestionOrder(t *testing.T) {
	qs := questionsOn("a", "b", "c", "a", "d", "b", "c", "a", "e", "b", "c", "a")
	rev := slices.Clone(qs)
	slices.Reverse(rev)
	p1, _ := SplitShards(qs, 3)
	p2, _ := SplitShards(rev, 3)
	for i := range p1 {
		if !slices.Equal(p1[i].DBIDs, p2[i].DBIDs) {
			t.Errorf("shard %d: %v in one order, %v in the other: the split must depend only on db_ids and n", i, p1[i].DBIDs, p2[i].DBIDs)
		}
	}
}

func TestSplitShardsRefuses(t *testing.T) {
	qs := questionsOn("a", "b", "a")
	for _, n := range []int{0, -1, 3} {
		if _, err := SplitShards(qs, n); !errors.Is(err, ErrShard) {
			t.Errorf("SplitShards(n=%d) = %v, want ErrShard", n, err)
		}
	}
	d := &Dataset{Questions: qs}
	for _, s := range []Shard{{Index: 2, Count: 2}, {Index: -1, Count: 2}, {Index: 0, Count: 0}} {
		if _, err := d.SelectShard(s); !errors.Is(err, ErrShard) {
			t.Errorf("SelectShard(%v) = %v, want ErrShard", s, err)
		}
	}
}

func TestSelectShardKeepsIndexes(t *testing.T) {
	d := &Dataset{Questions: questionsOn("a", "b", "a", "c")}
	p, err := d.SelectShard(Shard{Index: 0, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	for _, q := range d.Questions {
		idx = append(idx, q.Index)
	}
	if !slices.Equal(idx, []int{0, 2}) || !slices.Equal(p.DBIDs, []string{"a"}) {
		t.Errorf("shard 0/2 = questions %v on %v, want [0 2] on [a]", idx, p.DBIDs)
	}
	if IndexDigest(d.Questions) == IndexDigest(questionsOn("a", "b", "a")[:2]) {
		t.Error("IndexDigest of indexes 0,2 equals that of 0,1")
	}
}
