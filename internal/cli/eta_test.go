package cli

import (
	"testing"
	"time"
)

func TestFormatLeft(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{4 * time.Second: "4s", 65 * time.Second: "1m05s", 2*time.Hour + 3*time.Minute: "2h03m"} {
		if got := formatLeft(d); got != want {
			t.Errorf("formatLeft(%s) = %q, want %q", d, got, want)
		}
	}
}
