package eval

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	if labelled {
		r.Configs[1].misses = []miss{{line: 2, query: "how long did the last restore take?", wanted: "homelab/Backups.md > Backups > Restore Drill",
			first: "homelab/Network.md > Network + VLANs (lines 1-13)"}}
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

// The text report names the off-topic queries that scored at least
// Strong, best first; none under it.
func TestWriteOffStrong(t *testing.T) {
	r := goldenReport(true)
	r.Configs[1].offStrong = strongOff([]string{"how do I bake bread", "file my taxes", "start running", "tv remote"},
		[]float64{0.2, 0.556, 0.58, 0.5})
	var buf bytes.Buffer
	writeOffStrong(&buf, r)
	want := "\noff-topic at 50% or more in sections-hybrid: 3 (the vault cannot answer them; its words mislead the score)\n" +
		"- \"start running\": 58.0%\n- \"file my taxes\": 55.6%\n- \"tv remote\": 50.0%\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// The text report lists the misses of each configuration, at most
// mostMisses of them, with a count of the rest.
func TestWriteMisses(t *testing.T) {
	r := goldenReport(true)
	r.Configs[1].Queries = 30
	r.Configs[1].misses = nil
	for i := range 25 {
		r.Configs[1].misses = append(r.Configs[1].misses, miss{line: i + 1, query: fmt.Sprintf("q%d", i+1), wanted: "a.md"})
	}
	var buf bytes.Buffer
	writeMisses(&buf, r)
	out := buf.String()
	for _, want := range []string{"missed by sections-hybrid: 25 of 30 queries found none of their notes in the first 5\n",
		"- line 1 \"q1\": wanted a.md; no results\n", "- line 20 \"q20\"", "- … and 5 more (--json --details gives every query's outcome)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("misses lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "q21") || strings.Contains(out, "whole-doc") {
		t.Errorf("misses past the cap, or of a configuration without any:\n%s", out)
	}
}

// The header names where the queries came from however the vault was
// spelled, the off-topic files and --typos.
func TestWriteHeader(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Report)
		want []string
	}{
		{"file", func(r *Report) {}, []string{"3 queries (q.jsonl) over corpora/v, k=5, at most 2 results per note, model use-lite-0.2.0\n"}},
		{"one per note", func(r *Report) { r.MaxPerPage = 1 }, []string{"at most 1 result per note"}},
		{"generated from .", func(r *Report) { r.QueryFile, r.Vault, r.Style = "generated from .", ".", "all" },
			[]string{"3 queries generated from the vault (--style all) over ., k=5"}},
		{"generated from one/", func(r *Report) { r.QueryFile, r.Vault, r.Style = "generated from one/", "one/", "links,terms" },
			[]string{"3 queries generated from the vault (--style links,terms) over one/, k=5"}},
		{"merged", func(r *Report) { r.Merged = 2 },
			[]string{"3 queries (q.jsonl)", "\n2 lines repeat the query of an earlier one, merged into it with its labels"}},
		{"off-topic and typos", func(r *Report) {
			r.OffTopicFiles, r.AskTypos = []SourceFile{{"off.txt", 40}, {"b/more.jsonl", 1}}, true
		}, []string{"off-topic: 40 queries from off.txt, 1 query from b/more.jsonl\n", "typos: each labelled query is asked again with a word misspelled\n"}},
	} {
		r := goldenReport(true)
		c.edit(r)
		var buf bytes.Buffer
		writeHeader(&buf, r)
		for _, w := range c.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s: header lacks %q:\n%s", c.name, w, buf.String())
			}
		}
	}
}
