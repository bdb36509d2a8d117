package eval

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
)

// WriteTable prints the report as aligned tables: one row per
// configuration, then Hit@3 per difficulty when the queries name one.
func WriteTable(w io.Writer, r *Report) error {
	writeHeader(w, r)
	if !r.Tuning.IsZero() {
		fmt.Fprintf(w, "tuning: %s\n\n", r.Tuning)
	}
	if r.FirstStage {
		fmt.Fprintln(w, "first stage only: the second stage is left out")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	labelled := anyLabelled(r)
	head := []string{"config", fmt.Sprintf("recall@%d", r.K), "MRR"}
	if labelled {
		head = append(head, fmt.Sprintf("section@%d", r.K), fmt.Sprintf("span@%d", r.K))
	}
	head = append(head, "Hit@3", "tokens/q", "p50 ms", "p95 ms", "chunks", ">window", "index s")
	pad := namePad(r)
	head[0] = pad(head[0])
	writeRow(tw, head)
	for _, c := range r.Configs {
		row := []string{pad(c.Name), f3(c.RecallAtK), f3(c.MRR)}
		if labelled {
			sect := f3(c.SectionHit)
			if !headingAware(c.Chunker) {
				sect = "–"
			}
			row = append(row, sect, f3(c.SpanHit))
		}
		row = append(row, f3(c.Hit3), fmt.Sprintf("%.0f", c.Tokens), fmt.Sprintf("%.1f", c.P50MS),
			fmt.Sprintf("%.1f", c.P95MS), fmt.Sprint(c.Index.Chunks), fmt.Sprint(c.Index.OverWindow),
			fmt.Sprintf("%.2f", c.Index.TookMS/1000))
		writeRow(tw, row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeLegend(w, r.K, labelled)
	if labelled && anyUnaware(r) {
		fmt.Fprintln(w, "\n– the chunker returns no section paths; span@k judges every chunker by line overlap.")
	}
	if err := writeDifficulties(w, r); err != nil {
		return err
	}
	writeMisses(w, r)
	writeOffStrong(w, r)
	if err := writeSpreads(w, r); err != nil {
		return err
	}
	if err := writeTypos(w, r); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nembedding: %d texts computed, %d reused; total %.1f s\n",
		r.Embedding.Computed, r.Embedding.Hits, r.TookMS/1000)
	return nil
}

// writeLegend says what the table's columns measure, in a line or two, for
// a reader who has not read docs/evaluation.md ("Metrics").
func writeLegend(w io.Writer, k int, labelled bool) {
	fmt.Fprintf(w, "\nrecall@%d: labelled notes among the first %d results; MRR: 1/rank of the first result on one; ", k, k)
	if labelled {
		fmt.Fprintf(w, "section@%d: a result on the labelled section (or under it); span@%d: one overlapping its lines; ", k, k)
	}
	fmt.Fprintln(w, "Hit@3: a labelled note in the first 3; tokens/q: what an agent reads a query; >window: texts over the model's window (docs/evaluation.md, \"Metrics\")")
}

// writeHeader names what was asked: the queries, where from, and how.
func writeHeader(w io.Writer, r *Report) {
	from := fmt.Sprintf("(%s)", filepath.Base(r.QueryFile))
	if r.Style != "" { // generated: the vault is named next
		from = fmt.Sprintf("generated from the vault (--style %s)", r.Style)
	}
	perNote := fmt.Sprintf("at most %s per note", plural.Count(r.MaxPerPage, "result", "results"))
	if r.MaxPerPage == 0 {
		perNote = fmt.Sprintf("%d results per note (more where others are unlikely)", mdsearch.DefaultMaxPerPage)
	}
	fmt.Fprintf(w, "%d queries %s over %s, k=%d, %s, model %s\n", r.Queries, from, r.Vault, r.K, perNote, r.Model)
	if r.Merged > 0 {
		fmt.Fprintf(w, "%s the query of an earlier one, merged into it with its labels: a text is one query, whatever sections it links\n",
			plural.Count(r.Merged, "line repeats", "lines repeat"))
	}
	if len(r.OffTopicFiles) > 0 {
		files := make([]string, len(r.OffTopicFiles))
		for i, f := range r.OffTopicFiles {
			files[i] = fmt.Sprintf("%s from %s", plural.Count(f.Queries, "query", "queries"), f.File)
		}
		fmt.Fprintf(w, "off-topic: %s\n", strings.Join(files, ", "))
	}
	if r.AskTypos {
		fmt.Fprintln(w, "typos: each labelled query is asked again with a word misspelled")
	}
}

// anyUnaware reports whether a row's section@k shows "–": its chunker
// returns no section paths.
func anyUnaware(r *Report) bool {
	for _, c := range r.Configs {
		if !headingAware(c.Chunker) {
			return true
		}
	}
	return false
}

// writeDifficulties prints Hit@3 per difficulty, if any query has one.
func writeDifficulties(w io.Writer, r *Report) error {
	diffs := difficulties(r)
	if len(diffs) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nHit@3 by difficulty")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	pad := namePad(r)
	writeRow(tw, append(append([]string{pad("config")}, diffs...), "all"))
	for _, c := range r.Configs {
		row := []string{pad(c.Name)}
		for _, d := range diffs {
			if v, ok := c.Hit3By[d]; ok {
				row = append(row, f3(v))
			} else {
				row = append(row, "–")
			}
		}
		writeRow(tw, append(row, f3(c.Hit3)))
	}
	return tw.Flush()
}

// difficulties lists the difficulty names in the report: the usual ones
// in their order of hardness, then any others alphabetically.
func difficulties(r *Report) []string {
	seen := map[string]bool{}
	for _, c := range r.Configs {
		for d := range c.Hit3By {
			seen[d] = true
		}
	}
	var out, rest []string
	for _, d := range []string{"easy", "medium", "hard", "fusion"} {
		if seen[d] {
			out = append(out, d)
			delete(seen, d)
		}
	}
	for d := range seen {
		rest = append(rest, d)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func anyLabelled(r *Report) bool {
	return slices.ContainsFunc(r.Configs, func(c ConfigReport) bool { return c.Labelled > 0 })
}

// headingAware reports whether a chunker gives chunks section paths.
func headingAware(chunker string) bool {
	return chunker == ChunkSections || chunker == ChunkH2H3 || chunker == ChunkBM25Sections
}

// namePad left-aligns configuration names in a right-aligned table by
// padding them to the longest.
func namePad(r *Report) func(string) string {
	width := len("config")
	for _, c := range r.Configs {
		width = max(width, len(c.Name))
	}
	return func(s string) string { return s + strings.Repeat(" ", width-len(s)) }
}

// writeRow writes tab-terminated cells, so tabwriter right-aligns each.
func writeRow(w io.Writer, cells []string) {
	fmt.Fprint(w, strings.Join(cells, "\t")+"\t\n")
}

func f3(x float64) string { return fmt.Sprintf("%.3f", x) }
