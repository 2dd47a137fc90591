package benchrun

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// spiderSevenRecords judges the seven Spider dev systems of ../shared with every
// metric, in memory, and returns their records (skipping when the data is absent).
func spiderSevenRecords(tb testing.TB) []record.Record {
	tb.Helper()
	spider := testutil.Shared(tb, "data/spider")
	cfg := Config{DatasetSpec: "spider:" + spider, Timeout: 30 * time.Second, MaxRows: 100_000, Workers: 2, AllowMissing: true}
	for _, s := range []string{"C3", "DAIL", "DIN", "RASAT+PICARD", "RESDSQL", "SuperSQL", "codeS"} {
		cfg.Preds = append(cfg.Preds, s+"="+filepath.Join(spider, "predictions", s+".txt"))
	}
	ctx := context.Background()
	p, err := Prepare(ctx, cfg, nil)
	if err != nil {
		tb.Fatal(err)
	}
	sink := newMemSink(len(p.Systems))
	if _, err := Eval(ctx, p, nil, sink, nil); err != nil {
		tb.Fatal(err)
	}
	var recs []record.Record
	for _, w := range sink.written {
		recs = append(recs, w...)
	}
	return recs
}

// TestRecordsEncodeAsEncodingJSON: every record of a real seven-system Spider run is
// written by record.Writer exactly as encoding/json (HTML escaping off) writes it.
func TestRecordsEncodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping: judges seven Spider systems (-short)")
	}
	recs := spiderSevenRecords(t)
	if len(recs) < 7*1000 {
		t.Fatalf("only %d records", len(recs))
	}
	var got, want bytes.Buffer
	w := record.NewWriter(&got)
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	for i := range recs {
		got.Reset()
		want.Reset()
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(&recs[i]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("record %d differs from encoding/json\n got: %s\nwant: %s", i, got.Bytes(), want.Bytes())
		}
	}
}

// BenchmarkEncodeRecords: writing the records of a real seven-system Spider run (every
// metric), with encoding/json as record.Writer did before, and with record.Writer.
//
//	go test ./internal/benchrun -run '^$' -bench EncodeRecords -count 7
func BenchmarkEncodeRecords(b *testing.B) {
	recs := spiderSevenRecords(b)
	b.Run("encoding-json", func(b *testing.B) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		b.ReportAllocs()
		for b.Loop() {
			for i := range recs {
				buf.Reset()
				if err := enc.Encode(&recs[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("writer", func(b *testing.B) {
		var buf bytes.Buffer
		w := record.NewWriter(&buf)
		b.ReportAllocs()
		for b.Loop() {
			for i := range recs {
				buf.Reset()
				if err := w.Write(&recs[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
