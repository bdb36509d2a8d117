package eval

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// StyleRow is one configuration's quality on the queries of one style
// (generated queries carry their style in Difficulty).
type StyleRow struct {
	Config     string  `json:"config"`
	Style      string  `json:"style"`
	Queries    int     `json:"queries"`
	SectionHit float64 `json:"section_hit_at_k"`
	SectionMRR float64 `json:"section_mrr"`
	PageHit    float64 `json:"page_hit_at_k"`
	PageMRR    float64 `json:"page_mrr"`
	// unaware: the chunker returns no section paths, so the section
	// columns show "–", as the main table's section@k does.
	unaware bool
}

// ByStyle splits each configuration's outcomes by style. It needs the
// outcomes: run with Options.Details.
func ByStyle(r *Report) []StyleRow {
	var rows []StyleRow
	for _, c := range r.Configs {
		by := map[string]*StyleRow{}
		for _, o := range c.Outcomes {
			row := by[o.Difficulty]
			if row == nil {
				row = &StyleRow{Config: c.Name, Style: o.Difficulty, unaware: !headingAware(c.Chunker)}
				by[o.Difficulty] = row
			}
			row.Queries++
			if o.SectionRank > 0 {
				row.SectionHit++
				row.SectionMRR += 1 / float64(o.SectionRank)
			}
			if o.PageRank > 0 {
				row.PageHit++
				row.PageMRR += 1 / float64(o.PageRank)
			}
		}
		styles := make([]string, 0, len(by))
		for s := range by {
			styles = append(styles, s)
		}
		sort.Strings(styles)
		for _, s := range styles {
			row := by[s]
			n := float64(row.Queries)
			row.SectionHit, row.SectionMRR, row.PageHit, row.PageMRR = row.SectionHit/n, row.SectionMRR/n, row.PageHit/n, row.PageMRR/n
			rows = append(rows, *row)
		}
	}
	return rows
}

// fewQueries is how many queries a style needs before its figures are
// worth comparing: under it one query moves them by more than 0.03, as
// much as a change of ranking is asked to gain.
const fewQueries = 30

// WriteStyles prints ByStyle's rows as a table, and names the styles of
// fewer than fewQueries queries, whose figures one query moves far.
func WriteStyles(w io.Writer, k int, rows []StyleRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "config\tstyle\tqueries\tsection hit@%d\tsection MRR\tpage hit@%d\tpage MRR\t\n", k, k)
	for _, r := range rows {
		hit, mrr := f3(r.SectionHit), f3(r.SectionMRR)
		if r.unaware {
			hit, mrr = "–", "–"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", r.Config, r.Style, r.Queries,
			hit, mrr, f3(r.PageHit), f3(r.PageMRR))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeFew(w, rows)
}

// writeFew names the styles of fewer than fewQueries queries, each with
// what one query is worth.
func writeFew(w io.Writer, rows []StyleRow) error {
	var few []string
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Queries < fewQueries && !seen[r.Style] {
			seen[r.Style] = true
			few = append(few, fmt.Sprintf("%s (%d: one query is %.3f)", r.Style, r.Queries, 1/float64(r.Queries)))
		}
	}
	if len(few) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "few queries: %s; compare configurations on styles of %d or more\n", strings.Join(few, ", "), fewQueries)
	return err
}
