package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestDuplicateKey(t *testing.T) {
	for _, tt := range []struct {
		raw string
		key string
		dup bool
	}{
		{`{}`, "", false},
		{`{"a": 1, "b": {"a": 2}}`, "", false},
		{`{"a": 1, "b": 2, "a": 3}`, "a", true},
		{`{"a\"": 1, "a\"": 2}`, `a"`, true},
	} {
		key, dup := DuplicateKey([]byte(tt.raw))
		if key != tt.key || dup != tt.dup {
			t.Errorf("DuplicateKey(%s) = %q, %v; want %q, %v", tt.raw, key, dup, tt.key, tt.dup)
		}
	}
}

func TestErrorLine(t *testing.T) {
	for _, tt := range []struct {
		data string
		want int
	}{
		{"{\n\"a\": 1,\n\"b\": x\n}", 3},
		{"{\n\"a\": 1,\n", 2}, // truncated: the last line with content
		{"[1,\n2,\n\"x\"]", 3},
	} {
		var v []int
		err := json.Unmarshal([]byte(tt.data), &v)
		if tt.data[0] == '{' {
			var m map[string]int
			err = json.Unmarshal([]byte(tt.data), &m)
		}
		if err == nil {
			t.Fatalf("%q decoded", tt.data)
		}
		if got := ErrorLine([]byte(tt.data), err); got != tt.want {
			t.Errorf("ErrorLine(%q, %v) = %d, want %d", tt.data, err, got, tt.want)
		}
	}
}
