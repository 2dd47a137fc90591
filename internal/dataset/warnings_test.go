package dataset

import (
	"slices"
	"testing"
)

// TestNarrowWarnings: narrowing to some databases drops the warnings about the others and
// keeps those about the whole dataset, in order.
func TestNarrowWarnings(t *testing.T) {
	d := &Dataset{}
	d.Warnings = append(d.Warnings, "whole dataset")
	d.warnAbout("a", "about a")
	d.warnAbout("b", "about b")
	d.warnAbout("a", "about a again")
	d.NarrowWarnings(map[string]bool{"a": true})
	if want := []string{"whole dataset", "about a", "about a again"}; !slices.Equal(d.Warnings, want) {
		t.Fatalf("narrowed to a: %q, want %q", d.Warnings, want)
	}
	d.NarrowWarnings(map[string]bool{"b": true})
	if want := []string{"whole dataset"}; !slices.Equal(d.Warnings, want) {
		t.Errorf("then narrowed to b: %q, want %q", d.Warnings, want)
	}
}
