package eval

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func goldenReport(labelled bool) *Report {
	r := &Report{Vault: "corpora/v", QueryFile: "dir/q.jsonl", Queries: 3, K: 5, MaxPerPage: 2, Model: "use-lite-0.2.0",
		Embedding: CacheStats{Computed: 120, Hits: 80}, TookMS: 12345}
	lab := 0
	if labelled {
		lab = 3
	}
	r.Configs = []ConfigReport{
		{Config: Config{Name: "whole-doc", Chunker: ChunkWholeDoc, Mode: "semantic"},
			Index:   IndexReport{Chunks: 10, TookMS: 250, Embedded: 10, OverWindow: 10},
			Metrics: Metrics{Queries: 3, RecallAtK: 1, MRR: 0.8333, Hit3: 1, SpanHit: 1, Labelled: lab, Tokens: 15949.4, P50MS: 2.46, P95MS: 7.81}},
		{Config: Config{Name: "sections-hybrid", Chunker: ChunkSections, Mode: "hybrid"},
			Index:   IndexReport{Chunks: 469, TookMS: 16590, Embedded: 469},
			Metrics: Metrics{Queries: 3, RecallAtK: 1, MRR: 1, Hit3: 1, SectionHit: 2.0 / 3, SpanHit: 2.0 / 3, Labelled: lab, Tokens: 437, P50MS: 9.9, P95MS: 16.1}},
	}
	if !labelled {
		r.Configs[0].Hit3By = map[string]float64{"easy": 1, "hard": 0.5, "weird": 1}
		r.Configs[1].Hit3By = map[string]float64{"easy": 1, "hard": 1}
	}
	return r
}

func TestWriteTable(t *testing.T) {
	for _, c := range []struct {
		name     string
		labelled bool
	}{{"labelled", true}, {"difficulties", false}} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteTable(&buf, goldenReport(c.labelled)); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "table-"+c.name+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("table differs from %s (go test -update rewrites it):\n%s", golden, buf.String())
			}
		})
	}
	// The footnote explains a "–" and comes only with one.
	r := goldenReport(true)
	r.Configs = r.Configs[1:]
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("no section paths")) {
		t.Errorf("footnote without a row it explains:\n%s", buf.String())
	}
}
