package jsonscan

import (
	"encoding/json"
	"strings"
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
		{`{"a": 1, "\u0061": 2}`, "a", true}, // equal once unescaped
		{`{"a}": "{\"b\": [", "b": {"b": 1, "b": 2}, "c": ["a", {"a": 0}]}`, "", false},
		{`{"x": "\\", "y": 1, "x": 2}`, "x", true},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":3}`, "k3", true},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17}`, "", false},
		{` {"a": [1, {"a": 2}], "a": null}`, "a", true},
		{"{\"\xb4\": 1, \"\xb5\": 2}", "\ufffd", true}, // one key to encoding/json
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

func TestFirstTooLong(t *testing.T) {
	tests := []struct {
		data  string
		json  bool
		start int
		ok    bool
	}{
		{`{"a": "1234"}`, true, 0, true},
		{`{"a": "12345"}`, true, 7, false},
		{`{"12345": 1}`, true, 2, false},
		{`["1234", "\"\""]`, true, 0, true}, // escaped quotes are part of the value
		{`["\"123"]`, true, 2, false},       // ... and count as its bytes
		{`["a\\", "1234"]`, true, 0, true},  // an escaped backslash ends before the quote
		{`["12345`, true, 2, false},         // unclosed and over
		{`["123`, true, 0, true},            // unclosed, the decoder's error
		{"1234\n1234\n", false, 0, true},
		{"1234\n12345\n", false, 5, false},
		{"1234\n12345", false, 5, false},
		{"1234\r\n1234", false, 0, false}, // a CR counts: the line is 5 bytes
	}
	for _, tc := range tests {
		start, ok := FirstTooLong([]byte(tc.data), 4, tc.json)
		if ok != tc.ok || (!ok && start != tc.start) {
			t.Errorf("FirstTooLong(%q, 4, %v) = %d, %v; want %d, %v", tc.data, tc.json, start, ok, tc.start, tc.ok)
		}
	}
}

func TestSkipSeparators(t *testing.T) {
	tests := []struct {
		data string
		off  int
		want int
	}{
		{"", 0, 0},
		{" \t\r\n, {}", 0, 6},
		{"[1, 2]", 2, 4},
		{"x", 0, 0},
		{" , ", 0, 3},
		{"\v1", 0, 0}, // vertical tab is no JSON white space
	}
	for _, tc := range tests {
		if got := SkipSeparators([]byte(tc.data), tc.off); got != tc.want {
			t.Errorf("SkipSeparators(%q, %d) = %d, want %d", tc.data, tc.off, got, tc.want)
		}
		if got := SkipSeparators([]byte(tc.data), int64(tc.off)); got != int64(tc.want) {
			t.Errorf("SkipSeparators(%q, int64 %d) = %d, want %d", tc.data, tc.off, got, tc.want)
		}
	}
}

func TestMembers(t *testing.T) {
	for _, tt := range []struct {
		obj  string
		want []string // key=value
	}{
		{`{}`, nil},
		{` { "a" : 1 , "b":"x,}" ,"c":{"d":[1,{"e":"]"}]},"d":[],"e":null,"f":-1.5e3}`,
			[]string{`a=1`, `b="x,}"`, `c={"d":[1,{"e":"]"}]}`, `d=[]`, `e=null`, `f=-1.5e3`}},
		{"{\n\"\\u0030\": \"SELECT \\\"a\\\"\",\n\"1\": true\n}", []string{`0="SELECT \"a\""`, `1=true`}},
		{`[1, 2]`, nil},
	} {
		var got []string
		Members([]byte(tt.obj), func(key, value []byte) bool {
			got = append(got, string(key)+"="+string(value))
			return true
		})
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("Members(%s) = %q, want %q", tt.obj, got, tt.want)
		}
	}
}
