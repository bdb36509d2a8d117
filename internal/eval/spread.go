package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
)

// Strong and Weak are the score bands the README and the MCP tool describe:
// a top score at or above Strong is a strong match, under Weak the vault
// probably holds no answer. The spreads below test that reading.
const (
	Strong = 0.5
	Weak   = 0.25
)

// Spreads describes one configuration's top scores: each query's best
// result, split by whether it was right, and for off-topic queries, which
// the vault cannot answer. Scores mean the same for every query only if
// right answers score high and off-topic ones low.
type Spreads struct {
	Right    Spread `json:"right"`     // the top result is on a relevant page
	Wrong    Spread `json:"wrong"`     // it is not (or nothing came back)
	OffTopic Spread `json:"off_topic"` // queries about what the vault does not hold
}

// Spread summarises a set of top scores.
type Spread struct {
	N      int     `json:"n"`
	P10    float64 `json:"p10"`
	P50    float64 `json:"p50"`
	P90    float64 `json:"p90"`
	Strong float64 `json:"strong"` // share at or above Strong
	Weak   float64 `json:"weak"`   // share under Weak
}

func spread(xs []float64) Spread {
	s := Spread{N: len(xs)}
	if len(xs) == 0 {
		return s
	}
	xs = slices.Sorted(slices.Values(xs))
	at := func(p float64) float64 { return xs[max(0, int(math.Ceil(p*float64(len(xs))))-1)] } // nearest rank
	s.P10, s.P50, s.P90 = at(0.1), at(0.5), at(0.9)
	for _, x := range xs {
		s.Strong += b2f(x >= Strong)
		s.Weak += b2f(x < Weak)
	}
	s.Strong /= float64(len(xs))
	s.Weak /= float64(len(xs))
	return s
}

// spreads splits the outcomes' top scores by rightness and adds the
// off-topic ones.
func spreads(outs []Outcome, offTopic []float64) Spreads {
	var right, wrong []float64
	for _, o := range outs {
		if o.PageRank == 1 {
			right = append(right, o.TopScore)
		} else {
			wrong = append(wrong, o.TopScore)
		}
	}
	return Spreads{Right: spread(right), Wrong: spread(wrong), OffTopic: spread(offTopic)}
}

// askOffTopic asks each off-topic query: its top score (0 when nothing
// matched), the scores below it, whether it got a spelling suggestion,
// and the tokens of its results.
func (o *Options) askOffTopic(ctx context.Context, e searcher, c Config, qs []string) (offAnswers, error) {
	a := offAnswers{tops: make([]float64, 0, len(qs))}
	for _, q := range qs {
		resp, err := e.Search(ctx, mdsearch.SearchRequest{Query: q, N: o.K, MaxPerPage: o.MaxPerPage, Mode: c.Mode})
		if err != nil {
			return a, fmt.Errorf("off-topic query %q: %w", q, err)
		}
		top := 0.0
		for i, r := range resp.Results {
			if i == 0 {
				top = r.Score
			} else {
				a.below = append(a.below, r.Score)
			}
			a.tokens += EstimateTokens(resultText(r))
		}
		a.tops = append(a.tops, top)
		if resp.Suggestion != "" {
			a.suggested++
		}
	}
	if len(qs) > 0 {
		a.tokens = math.Round(a.tokens/float64(len(qs))*10) / 10
	}
	return a, nil
}

// offAnswers is what the off-topic queries got: each one's top score, the
// scores below the top ones, how many got a suggestion, and the tokens of
// their results' text a query, as Outcome.Tokens counts them.
type offAnswers struct {
	tops, below []float64
	suggested   int
	tokens      float64
}

// LoadOffTopic reads off-topic queries: a plain text file of one query a
// line, or a query set's JSON lines (their "query", labels ignored). Blank
// lines and lines starting with # are skipped, and so is a text read
// already: a query set's repeated lines are one query (mergeRepeats).
func LoadOffTopic(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "eval", path, "", "off-topic queries: %v", err)
	}
	defer f.Close()
	return readOffTopic(f, path)
}

// readOffTopic reads off-topic queries as LoadOffTopic does, from r,
// naming path in its errors.
func readOffTopic(r io.Reader, path string) ([]string, error) {
	var qs []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(string(withoutBOM(n, sc.Bytes())))
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "{"):
			var q struct {
				Query string `json:"query"`
			}
			at := fmt.Sprintf("%s:%d", path, n)
			if err := json.Unmarshal([]byte(line), &q); err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) && te.Field == "query" {
					return nil, mdsearch.Errorf(mdsearch.KindInvalid, "eval", at, "", "an off-topic JSON line needs a \"query\" string, not a JSON %s", te.Value)
				}
				return nil, mdsearch.Errorf(mdsearch.KindInvalid, "eval", at, "", "not valid JSON: %v", err)
			}
			if strings.TrimSpace(q.Query) == "" {
				return nil, mdsearch.Errorf(mdsearch.KindInvalid, "eval", at, "", "an off-topic JSON line needs a \"query\" string")
			}
			line = q.Query
		}
		if err := checkRequest(line); err != nil {
			return nil, mdsearch.Errorf(mdsearch.KindInvalid, "eval", fmt.Sprintf("%s:%d", path, n), "", "%v", err)
		}
		if !seen[line] {
			seen[line] = true
			qs = append(qs, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, scanError("eval", path, n+1, err)
	}
	if len(qs) == 0 {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "eval", path, "one query a line", "no off-topic queries in the file")
	}
	return qs, nil
}

// writeSpreads prints each scored configuration's top scores: right,
// wrong and off-topic, as p10/p50/p90 and the shares in the strong and
// weak bands. The baseline has no scores of its own and is left out, and so
// is a report made without top scores.
func writeSpreads(w io.Writer, r *Report) error {
	var rows []ConfigReport
	for _, c := range r.Configs {
		if sp := c.Scores; sp != nil && sp.Right.N+sp.Wrong.N+sp.OffTopic.N > 0 {
			rows = append(rows, c)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\ntop scores: p10/p50/p90, share strong (≥ %.2f), share weak (< %.2f), (queries); a top hit is right when it is on a labelled note\n", Strong, Weak)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	pad := namePad(r)
	writeRow(tw, []string{pad("config"), "top hit right", "top hit wrong", "off-topic queries"})
	for _, c := range rows {
		writeRow(tw, []string{pad(c.Name), c.Scores.Right.String(), c.Scores.Wrong.String(), c.Scores.OffTopic.String()})
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeCalibration(w, r, rows)
}

// writeCalibration prints how far the scored configurations' scores are
// from the share of results right, for the first result and for those
// after it (off-topic queries' included), and how often a search would
// say no result is likely to answer.
func writeCalibration(w io.Writer, r *Report, rows []ConfigReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	pad := namePad(r)
	fmt.Fprintf(w, "\ncalibration: expected calibration error of the top score (off-topic queries included; on-topic alone) and of the scores of results 2–%d; right top hits and off-topic queries whose top score is under %.2f, where a search says no result is likely to answer; the tokens of an off-topic query's results\n", r.K, engine.Unlikely)
	writeRow(tw, []string{pad("config"), "ECE top", "on-topic", "ECE below", fmt.Sprintf("right < %.2f", engine.Unlikely), fmt.Sprintf("off-topic < %.2f", engine.Unlikely), "off-topic tokens/q"})
	for _, c := range rows {
		k := c.Calib
		writeRow(tw, []string{pad(c.Name), fmt.Sprintf("%.3f", k.ECE), fmt.Sprintf("%.3f", k.ECEOnTopic), fmt.Sprintf("%.3f", k.ECEBelow),
			fmt.Sprintf("%.1f%%", 100*k.RightUnlikely), fmt.Sprintf("%.1f%%", 100*k.OffUnlikely), fmt.Sprintf("%.0f", k.OffTokens)})
	}
	return tw.Flush()
}

func (s Spread) String() string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f/%.2f/%.2f %3.0f%% %3.0f%% (%d)", s.P10, s.P50, s.P90, 100*s.Strong, 100*s.Weak, s.N)
}
