package dataset

import "testing"

func TestTopLevelKeys(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		want int
	}{
		{`{}`, 0},
		{`{"a": 1}`, 1},
		{`{"a": 1, "b": {"c": 2, "d": [3, {"e": 4}]}, "f": "x:y"}`, 3},
		{`{"a\"b" : "c\\", "d":"\"e\": 1"}`, 2},
		{`{"a": 1, "a": 2}`, 2},
		{"{\n\t\"q\"\t:\n\"s\",\"db_id\" :\"x\"}", 2},
	} {
		if got := topLevelKeys([]byte(tt.raw)); got != tt.want {
			t.Errorf("topLevelKeys(%s) = %d, want %d", tt.raw, got, tt.want)
		}
	}
}
