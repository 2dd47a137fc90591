package buildid

import "testing"

// TestVersionOf: the version set at build time wins, then the module's, then Devel.
func TestVersionOf(t *testing.T) {
	for _, c := range []struct{ set, module, want string }{
		{"0.1.0", "v0.0.9", "0.1.0"},
		{" 0.1.0\n", "", "0.1.0"},
		{"", "v0.2.0", "v0.2.0"},
		{"", Devel, Devel},
		{"", "", Devel},
	} {
		if got := versionOf(c.set, c.module); got != c.want {
			t.Errorf("versionOf(%q, %q) = %q, want %q", c.set, c.module, got, c.want)
		}
	}
}

// TestDescribe: the VCS stamp follows the version, shortened, when there is one.
func TestDescribe(t *testing.T) {
	rev := "6a6e7bc1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7"
	for _, c := range []struct {
		v    string
		s    VCS
		want string
	}{
		{"0.1.0", VCS{}, "0.1.0"},
		{Devel, VCS{Revision: rev, Time: "2026-11-26T06:00:00Z"}, "(devel) (6a6e7bc1d2e3 2026-11-26T06:00:00Z)"},
		{Devel, VCS{Revision: rev, Modified: true}, "(devel) (6a6e7bc1d2e3, modified)"},
		{"0.1.0", VCS{Revision: "abc"}, "0.1.0 (abc)"},
	} {
		if got := describe(c.v, c.s); got != c.want {
			t.Errorf("describe(%q, %+v) = %q, want %q", c.v, c.s, got, c.want)
		}
	}
}
