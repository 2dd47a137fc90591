package record

import "testing"

func TestSystemDir(t *testing.T) {
	tests := []struct{ name, want string }{
		{"baseline", "baseline"},
		{"GPT 4 (x)", "GPT_4_x_"},
		{"a/b", "a_b"},
		{"../up", ".._up"},
		{"v1.2+rc-3_x", "v1.2+rc-3_x"},
		{"été", "_t_"},
		{"..", ".."},
		{"", ""},
	}
	for _, tc := range tests {
		if got := SystemDir(tc.name); got != tc.want {
			t.Errorf("SystemDir(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
