package dataset

import (
	"context"
	"path/filepath"
	"strings"
)

// The dataset kinds (the KIND of --dataset KIND:PATH), each declared once in Kinds:
// its loader, where its databases are, whether its questions carry evidence, the
// semantics that judges it by default and its help text. Help strings, Load's error and
// the cli's checks are derived from the registry; no other package compares a kind with
// a literal.
//
// To add a kind: a constant, an entry in Kinds (a loader, or Tasks for a kind the run
// layer loads itself) and a test in kind_test.go.

// Kinds Load knows, and the kinds of tasks on a database copy that the run layer loads.
const (
	KindBIRD      = "bird"
	KindSpider    = "spider"
	KindJSONL     = "jsonl"
	KindSpider2   = "spider2" // Spider 2.0 (spider2-lite, spider2-snow): result tables judged against gold CSVs (spider2.go)
	KindLiveSQL   = "livesql"
	KindEvalBench = "evalbench"
)

// Kind is one dataset kind.
type Kind struct {
	Name string
	// Help says what PATH is, for --dataset's help.
	Help string
	// Load reads PATH; nil for Tasks kinds, which the run layer loads.
	Load func(ctx context.Context, path string, opt Options) (*Dataset, error)
	// Layout lists where db's SQLite file may be under root, in order (DBCandidates).
	Layout func(root, db string) []string
	// Evidence: the questions carry evidence (BIRD's hints) that outputs show.
	Evidence bool
	// Semantics is the execution-match semantics that judges the kind by default (bird
	// or spider; eval --semantics overrides it).
	Semantics string
	// GoldSQL: every question has gold SQL (Spider 2.0's gold is result tables), which
	// parse, audit and collect's examples need.
	GoldSQL bool
	// Tasks: tasks on a fresh copy of a database template, judged by their own rules
	// (docs/tasks.md); loaded and judged by the run layer.
	Tasks bool
}

// nested is <root>/<db>/<db>.sqlite, every layout's first candidate but Spider 2.0's.
func nested(root, db string) string { return filepath.Join(root, db, db+".sqlite") }

// Kinds is the registry, in the order help lists them.
var Kinds = []Kind{
	{Name: KindBIRD, GoldSQL: true, Help: "BIRD questions (dev.json, mini-dev JSON, or a gold .sql)", Evidence: true, Semantics: "bird",
		Load: func(_ context.Context, p string, o Options) (*Dataset, error) { return loadBIRD(p, o) },
		Layout: func(root, db string) []string {
			return []string{nested(root, db), filepath.Join(root, "dev_databases", db, db+".sqlite")}
		}},
	{Name: KindSpider, GoldSQL: true, Help: "Spider questions (dev/test JSON or a gold file)", Semantics: "spider",
		Load:   loadSpider,
		Layout: func(root, db string) []string { return []string{nested(root, db)} }},
	{Name: KindSpider2, Help: "a Spider 2.0 suite directory", Semantics: "bird",
		Load: func(_ context.Context, p string, o Options) (*Dataset, error) { return loadSpider2(p, o) },
		// evaluate.py: resource/databases/<db>.sqlite
		Layout: func(root, db string) []string { return []string{filepath.Join(root, db+".sqlite"), nested(root, db)} }},
	{Name: KindJSONL, GoldSQL: true, Help: "a JSONL question file", Evidence: true, Semantics: "bird",
		Load:   func(_ context.Context, p string, o Options) (*Dataset, error) { return loadJSONL(p, o) },
		Layout: permissiveLayout},
	{Name: KindLiveSQL, GoldSQL: true, Help: "a BIRD-Interact / LiveSQLBench task directory (--engine postgres)", Semantics: "bird", Tasks: true, Layout: permissiveLayout},
	{Name: KindEvalBench, GoldSQL: true, Help: "an EvalBench task directory (--engine sqlite, postgres or mysql)", Semantics: "bird", Tasks: true, Layout: permissiveLayout},
}

// permissiveLayout is jsonl's, and that of datasets built by hand.
func permissiveLayout(root, db string) []string {
	return []string{nested(root, db), filepath.Join(root, db+".sqlite"), filepath.Join(root, "databases", db, db+".sqlite")}
}

// KindNamed returns the kind called name (any case); ok is false for none.
func KindNamed(name string) (Kind, bool) {
	name = strings.ToLower(name)
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// KindOf is the kind of a --dataset KIND:PATH spec; ok is false when KIND is none.
func KindOf(spec string) (Kind, bool) {
	name, _, _ := strings.Cut(spec, ":")
	return KindNamed(name)
}

// Loadable is the kinds Load reads (every kind but Tasks kinds).
func Loadable(k Kind) bool { return k.Load != nil }

// QuestionFiles is the kinds Load reads whose questions have gold SQL (parse, collect).
func QuestionFiles(k Kind) bool { return k.Load != nil && k.GoldSQL }

// AnyKind is every kind.
func AnyKind(Kind) bool { return true }

// KindList names the kinds keep accepts, "a, b or c", in registry order.
func KindList(keep func(Kind) bool) string {
	var names []string
	for _, k := range Kinds {
		if keep(k) {
			names = append(names, k.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// KindFlagHelp is --dataset's help for a command taking the kinds keep accepts: the
// one-line form "dataset as KIND:PATH (bird, spider or jsonl)".
func KindFlagHelp(keep func(Kind) bool) string {
	return "dataset as KIND:PATH (" + KindList(keep) + ")"
}

// KindsHelp describes each kind keep accepts, one "  KIND:PATH  help" line each, for a
// command's long help.
func KindsHelp(keep func(Kind) bool) string {
	var b strings.Builder
	for _, k := range Kinds {
		if keep(k) {
			b.WriteString("  " + k.Name + ":PATH")
			b.WriteString(strings.Repeat(" ", max(1, 16-len(k.Name))))
			b.WriteString(k.Help + "\n")
		}
	}
	return b.String()
}
