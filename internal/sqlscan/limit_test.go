package sqlscan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestTooLong(t *testing.T) {
	tests := []struct {
		n    int
		want error
	}{
		{0, nil},
		{MaxAnalysed, nil},
		{MaxAnalysed + 1, ErrTooLong},
	}
	for _, tt := range tests {
		if err := TooLong(strings.Repeat("x", tt.n)); !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("TooLong(%d bytes) = %v, want %v", tt.n, err, tt.want)
		}
	}
	// The message names the limit: it must say what the constant is.
	if want := fmt.Sprintf("query over %d KiB", MaxAnalysed>>10); !strings.Contains(ErrTooLong.Error(), want) {
		t.Errorf("ErrTooLong = %q, want it to say %q", ErrTooLong, want)
	}
}
