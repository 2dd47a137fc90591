package match

import (
	"context"
	"errors"
	"testing"
)

// TestETMPrepareCache: a text that prepared is remembered and matches as before on its
// next use; a text that did not prepare is not remembered, and still fails each time.
func TestETMPrepareCache(t *testing.T) {
	d := etmTestDB(t)
	ctx := context.Background()
	good, bad := "SELECT name FROM t1 WHERE age > 3", "SELECT nope FROM t1"
	for i := range 2 {
		if v := d.Compare(ctx, good, good); !v.Match {
			t.Fatalf("use %d: %q does not match itself: %v", i, good, v.Err)
		}
		if _, err := d.Normalize(ctx, bad); !errors.Is(err, ErrETMPrepare) {
			t.Fatalf("use %d: Normalize(%q) error %v, want ErrETMPrepare", i, bad, err)
		}
	}
	if _, ok := d.prepared.Load(good); !ok {
		t.Errorf("%q prepared but is not remembered", good)
	}
	if _, ok := d.prepared.Load(bad); ok {
		t.Errorf("%q did not prepare but is remembered", bad)
	}
}
