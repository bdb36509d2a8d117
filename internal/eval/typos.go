package eval

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/mdsearch/mdsearch/store"
)

// Typos says how a configuration's spelling suggestions serve queries
// with a misspelled word (Options.Typos): each labelled query is asked
// again with one word misspelled (Misspell), and the suggestion, when one
// comes, is asked too (the misspelled query's own results may already be
// the suggestion's: Shown). The false rates are of queries spelled right.
type Typos struct {
	Queries int `json:"queries"` // labelled queries (sections or notes) with a word to misspell
	// Suggested is the share of them given a suggestion; Restored the
	// share whose suggestion is the query as first written (case aside).
	Suggested float64 `json:"suggested"`
	Restored  float64 `json:"restored"`
	// Shown is the share whose results are the suggestion's
	// (SearchResponse.Respelled): the misspelled query's hit@k counts them.
	Shown float64 `json:"shown"`
	// Hit@k (the labelled section, or the note where only notes are
	// named) of the queries as written, misspelled, and of the suggestion
	// where one came (else the misspelled query's results).
	SectionWritten    float64 `json:"section_hit_written"`
	SectionMisspelled float64 `json:"section_hit_misspelled"`
	SectionSuggested  float64 `json:"section_hit_suggested"`
	// FalseLabelled is the share of labelled queries, as written, given
	// a suggestion; FalseOffTopic the same of the off-topic queries.
	FalseLabelled float64 `json:"false_labelled"`
	FalseOffTopic float64 `json:"false_off_topic"`
	// Examples are a few misspelled queries and their suggestions.
	Examples []string `json:"examples,omitempty"`
}

// minMisspelled is the shortest word Misspell changes: suggestions leave
// shorter ones alone.
const minMisspelled = store.MinRespelled

// Misspell returns text with one word misspelled as people do: a letter
// dropped, doubled, swapped with the next or hit beside on the keyboard,
// never the first. The word is the query's longest of letters alone (at
// least minMisspelled), the change picked by a hash of the text, so a
// run misspells the same way each time. ok is false when no word
// qualifies.
func Misspell(text string) (typo string, ok bool) {
	start, end := -1, -1
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		if j-i >= minMisspelled && j-i > end-start && (j == len(text) || !isWordByte(text[j])) && (i == 0 || !isWordByte(text[i-1])) {
			start, end = i, j
		}
		i = j + 1
	}
	if start < 0 {
		return text, false
	}
	h := fnv.New64a()
	h.Write([]byte(text))
	x := h.Sum64()
	word := []byte(text[start:end])
	at := 1 + int(x%uint64(len(word)-2)) // never the first letter, nor past the last
	switch (x >> 32) % 4 {
	case 0: // dropped
		word = append(word[:at], word[at+1:]...)
	case 1: // doubled
		word = append(word[:at+1], word[at:]...)
	case 2: // swapped with the next
		if word[at] == word[at+1] {
			word = append(word[:at], word[at+1:]...)
		} else {
			word[at], word[at+1] = word[at+1], word[at]
		}
	default: // a neighbouring key
		word[at] = neighbour(word[at])
	}
	return text[:start] + string(word) + text[end:], true
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// isWordByte reports whether b continues a word: a word of letters next
// to digits or non-ASCII letters is not misspelled.
func isWordByte(b byte) bool {
	return b >= 0x80 || b >= '0' && b <= '9' || isASCIILetter(b) || b == '_'
}

// keyRows are a QWERTY keyboard's letter rows.
var keyRows = []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}

// neighbour is the key to the right of b on its row (the left one at the
// row's end), in b's case.
func neighbour(b byte) byte {
	upper := b >= 'A' && b <= 'Z'
	c := rune(b | 0x20)
	for _, row := range keyRows {
		if i := strings.IndexRune(row, c); i >= 0 {
			n := i + 1
			if n == len(row) {
				n = i - 1
			}
			if upper {
				return byte(unicode.ToUpper(rune(row[n])))
			}
			return row[n]
		}
	}
	return b
}

// askTypos asks the labelled queries misspelled, and their suggestions.
// written are the configuration's outcomes of the queries as written, and
// offSuggested how many off-topic queries got a suggestion (askOffTopic):
// suggestions that should not have come.
func (o *Options) askTypos(ctx context.Context, e searcher, c Config, written []Outcome, offSuggested int) (*Typos, error) {
	t := &Typos{}
	var labelled int
	for i := range o.Queries.Queries {
		q := &o.Queries.Queries[i]
		if !q.Labelled() && q.PathContains == "" {
			continue
		}
		labelled++
		out := written[i]
		if out.Suggested {
			t.FalseLabelled++
		}
		typo, ok := Misspell(q.Text)
		if !ok {
			continue
		}
		t.Queries++
		t.SectionWritten += b2f(found(q, out, o.K))
		resp, err := e.Search(ctx, o.request(q, typo, c.Mode))
		if err != nil {
			return nil, fmt.Errorf("%s:%d (misspelled): %w", o.Queries.File, q.Line, err)
		}
		miss := found(q, Score(q, dropExcluded(resp.Results, q.Exclude), o.K), o.K)
		t.SectionMisspelled += b2f(miss)
		if resp.Suggestion == "" {
			t.SectionSuggested += b2f(miss)
			continue
		}
		t.Suggested++
		t.Shown += b2f(resp.Respelled)
		t.Restored += b2f(strings.EqualFold(resp.Suggestion, q.Text))
		if len(t.Examples) < 5 {
			t.Examples = append(t.Examples, fmt.Sprintf("%q → %q", typo, resp.Suggestion))
		}
		sresp, err := e.Search(ctx, o.request(q, resp.Suggestion, c.Mode))
		if err != nil {
			return nil, fmt.Errorf("%s:%d (suggested): %w", o.Queries.File, q.Line, err)
		}
		t.SectionSuggested += b2f(found(q, Score(q, dropExcluded(sresp.Results, q.Exclude), o.K), o.K))
	}
	t.FalseOffTopic = float64(offSuggested)
	if t.Queries > 0 {
		for _, x := range []*float64{&t.Suggested, &t.Shown, &t.Restored, &t.SectionWritten, &t.SectionMisspelled, &t.SectionSuggested} {
			*x /= float64(t.Queries)
		}
	}
	if labelled > 0 {
		t.FalseLabelled /= float64(labelled)
	}
	if len(o.OffTopic) > 0 {
		t.FalseOffTopic /= float64(len(o.OffTopic))
	}
	return t, nil
}

// found reports whether the outcome's first k results answer q: its
// labelled section, or, where only notes are named, its note.
func found(q *Query, out Outcome, k int) bool {
	if q.Labelled() {
		return out.SectionRank > 0
	}
	return out.PageRank > 0 && out.PageRank <= k
}

// writeTypos prints each configuration's Typos, when asked for.
func writeTypos(w io.Writer, r *Report) error {
	var any bool
	for _, c := range r.Configs {
		any = any || c.Typos != nil
	}
	if !any {
		return nil
	}
	fmt.Fprintf(w, "\nmisspelled queries (one word each; hit@%d, of the section or else the note, as written / misspelled / suggestion):\n", r.K)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	pad := namePad(r)
	writeRow(tw, []string{pad("config"), "queries", "suggested", "shown", "restored", "written", "misspelled", "suggestion", "false: labelled", "off-topic"})
	for _, c := range r.Configs {
		if t := c.Typos; t != nil {
			writeRow(tw, []string{pad(c.Name), fmt.Sprint(t.Queries), pct(t.Suggested), pct(t.Shown), pct(t.Restored), f3(t.SectionWritten),
				f3(t.SectionMisspelled), f3(t.SectionSuggested), pct(t.FalseLabelled), pct(t.FalseOffTopic)})
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range r.Configs {
		if c.Typos != nil && len(c.Typos.Examples) > 0 {
			fmt.Fprintf(w, "%s: %s\n", c.Name, strings.Join(c.Typos.Examples, "; "))
		}
	}
	return nil
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
