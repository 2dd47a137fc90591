package benchrun

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/counterex"
)

// TestTestSuiteSetting: the manifest's test_suite setting names the domain in realistic
// mode (so a resume in the other mode is refused) and keeps the text of runs made before
// domains existed in declared mode (so those runs resume in declared mode only).
func TestTestSuiteSetting(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, ""},
		{Config{TestSuite: true, TestSuiteSeed: 1}, "seed=1 budget=200,2s domain=realistic"},
		{Config{TestSuite: true, TestSuiteSeed: 1, TestSuiteDomain: counterex.DomainRealistic}, "seed=1 budget=200,2s domain=realistic"},
		{Config{TestSuite: true, TestSuiteSeed: 1, TestSuiteDomain: counterex.DomainDeclared}, "seed=1 budget=200,2s"},
	} {
		if got := testSuiteSetting(tc.cfg); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.cfg.TestSuiteDomain, got, tc.want)
		}
	}
}
