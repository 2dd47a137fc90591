package sqlscan

import "testing"

func TestFirstStatement(t *testing.T) {
	tests := []struct {
		query     string
		wantFirst string
		wantMore  bool
	}{
		{"SELECT 1", "SELECT 1", false},
		{"SELECT 1;", "SELECT 1", false},
		{"SELECT 1; ", "SELECT 1", false},
		{"SELECT 1;;\n;", "SELECT 1", true}, // Python's sqlite3 refuses a second, empty statement too
		{"SELECT 1; -- done", "SELECT 1", false},
		{"SELECT 1; /* done */", "SELECT 1", false},
		{"SELECT 1; /* unterminated", "SELECT 1", false},
		{"SELECT 1; SELECT 2", "SELECT 1", true},
		{"SELECT 1; -- c\nSELECT 2", "SELECT 1", true},
		{"SELECT 1; /* c */ x", "SELECT 1", true},
		{"SELECT ';'", "SELECT ';'", false},
		{"SELECT 'a'';b'; x", "SELECT 'a'';b'", true},
		{`SELECT "a;b"`, `SELECT "a;b"`, false},
		{`SELECT "a"";b"; x`, `SELECT "a"";b"`, true},
		{"SELECT `a;b`", "SELECT `a;b`", false},
		{"SELECT [a;b]", "SELECT [a;b]", false},
		{"SELECT [a;b]; x", "SELECT [a;b]", true},
		{"SELECT 1 -- ; x", "SELECT 1 -- ; x", false},
		{"SELECT 1 -- ; x\n; y", "SELECT 1 -- ; x\n", true},
		{"SELECT 1 /* ; */ ; y", "SELECT 1 /* ; */ ", true},
		{"SELECT 1 /*/ ; */", "SELECT 1 /*/ ; */", false}, // "/*/" does not close the comment
		{"SELECT 1 - -1; x", "SELECT 1 - -1", true},
		{"SELECT 4/2; x", "SELECT 4/2", true},
		{"SELECT 'unterminated; x", "SELECT 'unterminated; x", false},
		{"SELECT [unterminated; x", "SELECT [unterminated; x", false},
		{"SELECT 1 /* unterminated; x", "SELECT 1 /* unterminated; x", false},
		{"", "", false},
		{";", "", false},
		{"; SELECT 1", "", true},
		{"SELECT 'é;ü'; x", "SELECT 'é;ü'", true},
	}
	for _, tc := range tests {
		first, more := FirstStatement(tc.query)
		if first != tc.wantFirst || more != tc.wantMore {
			t.Errorf("FirstStatement(%q) = (%q, %v), want (%q, %v)", tc.query, first, more, tc.wantFirst, tc.wantMore)
		}
	}
}

func TestOnlyTrivia(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"", true},
		{" \t\r\n\f", true},
		{";", false},
		{"\v", false},
		{"-- c", true},
		{"-- c\n/* d */ ;", false},
		{"/* unterminated", true},
		{"-- c\nx", false},
		{"x", false},
		{"- -", false},
		{"/", false},
	}
	for _, tc := range tests {
		if got := OnlyTrivia(tc.s); got != tc.want {
			t.Errorf("OnlyTrivia(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
