package dataset

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestKinds: the registry declares each kind once, with what every kind needs; help and
// Load's error are derived from it.
func TestKinds(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds {
		if seen[k.Name] || k.Name != strings.ToLower(k.Name) {
			t.Errorf("kind %q declared twice or not lower case", k.Name)
		}
		seen[k.Name] = true
		if k.Help == "" || k.Layout == nil || (k.Semantics != "bird" && k.Semantics != "spider") || (k.Load == nil) != k.Tasks {
			t.Errorf("kind %q: incomplete declaration %+v", k.Name, k)
		}
		if got, ok := KindOf(strings.ToUpper(k.Name) + ":x"); !ok || got.Name != k.Name {
			t.Errorf("KindOf(%s:x) = %q, %v", k.Name, got.Name, ok)
		}
	}
	if _, ok := KindOf("csv:x"); ok {
		t.Error("csv is a kind")
	}
	if got := KindList(Loadable); got != "bird, spider, spider2 or jsonl" {
		t.Errorf("Loadable: %s", got)
	}
	if got := KindList(QuestionFiles); got != "bird, spider or jsonl" {
		t.Errorf("QuestionFiles: %s", got)
	}
	if got := KindFlagHelp(AnyKind); got != "dataset as KIND:PATH (bird, spider, spider2, jsonl, livesql or evalbench)" {
		t.Errorf("flag help: %s", got)
	}
	if h := KindsHelp(AnyKind); strings.Count(h, "\n") != len(Kinds) || !strings.Contains(h, "  livesql:PATH ") {
		t.Errorf("kinds help:\n%s", h)
	}
	_, err := Load(context.Background(), "livesql:x", Options{})
	if !errors.Is(err, ErrUnknownKind) || !strings.Contains(err.Error(), "(want bird, spider, spider2 or jsonl)") {
		t.Errorf("Load of a task kind: %v", err)
	}
}

// TestKindLayouts: each kind's databases are looked for where its benchmark puts them.
func TestKindLayouts(t *testing.T) {
	r := "/r"
	n := filepath.Join(r, "d", "d.sqlite")
	flat, dev, dbs := filepath.Join(r, "d.sqlite"), filepath.Join(r, "dev_databases", "d", "d.sqlite"), filepath.Join(r, "databases", "d", "d.sqlite")
	for kind, want := range map[string][]string{
		KindBIRD: {n, dev}, KindSpider: {n}, KindSpider2: {flat, n}, KindJSONL: {n, flat, dbs},
		KindLiveSQL: {n, flat, dbs}, "": {n, flat, dbs}, "hand-made": {n, flat, dbs},
	} {
		if got := (&Dataset{Kind: kind, DBRoot: r}).DBCandidates("d"); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", kind, got, want)
		}
	}
}
