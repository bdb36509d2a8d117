package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/provider"
	"github.com/mdsearch/mdsearch/internal/plural"
)

// maxStdinText bounds a text read from stdin ("-").
const maxStdinText = 64 << 20

func runEmbed(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "embed", "TEXT... (\"-\" reads one text from stdin)")
	asJSON := fs.Bool("json", false, "print the full vectors as JSON")
	similarity := fs.Bool("similarity", false, "print the pairwise cosine similarity of the texts")
	show := fs.Int("values", 8, "leading values to print per text (without --json)")
	cfg := provider.FromEnv(env.Getenv)
	cfg.AddFlags(fs)
	texts, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(texts) == 0:
		return usagef("give at least one TEXT, or \"-\" to read one from stdin")
	case strings.EqualFold(cfg.Provider, provider.None):
		return usagef("--embedder none has no model to embed with")
	case *show < 0:
		return usagef("--values must not be negative")
	}
	if texts, err = readStdinTexts(env, texts); err != nil {
		return err
	}
	e, err := provider.OpenContext(ctx, cfg)
	if err != nil {
		return err
	}
	defer provider.Close(e)
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		return err
	}
	rep := newEmbedReport(e, texts, vecs, *similarity)
	if n := rep.TruncatedCount; n > 0 {
		env.say("%s over the %d-token window %s truncated", plural.Count(n, "text", "texts"), rep.MaxTokens, plural.Noun(n, "was", "were"))
	}
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	if *asJSON {
		enc := json.NewEncoder(w)
		return enc.Encode(rep)
	}
	rep.print(w, *show)
	return nil
}

// readStdinTexts replaces a "-" argument with the text on stdin, without
// its last line break.
func readStdinTexts(env *Env, texts []string) ([]string, error) {
	for i, t := range texts {
		if t != "-" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(env.Stdin, maxStdinText+1))
		if err != nil {
			return nil, fmt.Errorf("reading stdin: %w", err)
		}
		if len(data) > maxStdinText {
			return nil, fmt.Errorf("stdin is over %d MB; embed a smaller text", maxStdinText>>20)
		}
		// One line break at the end is the shell's (echo, a here-string),
		// not the text's: "echo x | mdsearch embed -" embeds "x".
		text := strings.TrimSuffix(string(data), "\n")
		texts[i] = strings.TrimSuffix(text, "\r")
	}
	return texts, nil
}

// embedReport is what `mdsearch embed` prints, and its --json form.
type embedReport struct {
	ModelID   string `json:"model_id"`
	Dim       int    `json:"dim"`
	MaxTokens int    `json:"max_tokens"`
	// TruncatedCount is how many texts are Truncated (it was "truncated",
	// a count beside each text's boolean of the same name).
	TruncatedCount int         `json:"truncated_count"`
	Embeddings     []embedText `json:"embeddings"`
	Similarity     [][]float64 `json:"similarity,omitempty"`
}

type embedText struct {
	Text      string    `json:"text"`
	Tokens    int       `json:"tokens"`
	Truncated bool      `json:"truncated"` // over the window: the model saw only its start
	Vector    []float32 `json:"vector"`
}

func newEmbedReport(e embed.Embedder, texts []string, vecs [][]float32, similarity bool) *embedReport {
	r := &embedReport{ModelID: e.ModelID(), Dim: e.Dim(), MaxTokens: e.MaxTokens()}
	for i, t := range texts {
		n := e.CountTokens(t)
		over := n > r.MaxTokens
		if over {
			r.TruncatedCount++
		}
		r.Embeddings = append(r.Embeddings, embedText{Text: t, Tokens: n, Truncated: over, Vector: vecs[i]})
	}
	if similarity {
		r.Similarity = make([][]float64, len(vecs))
		for i := range vecs {
			r.Similarity[i] = make([]float64, len(vecs))
			for j := range vecs {
				r.Similarity[i][j] = embed.Cosine(vecs[i], vecs[j])
			}
		}
	}
	return r
}

// print writes the human form: a header, then per text its token count
// and first values, then the similarity matrix if asked for.
func (r *embedReport) print(w io.Writer, show int) {
	fmt.Fprintf(w, "model %s: %d dimensions, %d-token window\n", r.ModelID, r.Dim, r.MaxTokens)
	for i, t := range r.Embeddings {
		note := ""
		if t.Truncated {
			note = fmt.Sprintf(" (over %d: truncated)", r.MaxTokens)
		}
		fmt.Fprintf(w, "\n[%d] %s\n    tokens %d%s\n", i+1, quoteShort(t.Text, 70), t.Tokens, note)
		if r.Similarity == nil && show > 0 {
			fmt.Fprintf(w, "    %s\n", leadingValues(t.Vector, show))
		}
	}
	if r.Similarity != nil {
		fmt.Fprintf(w, "\ncosine similarity\n%s", matrix(r.Similarity))
	}
}

// leadingValues formats the first n values of v.
func leadingValues(v []float32, n int) string {
	n = min(n, len(v))
	parts := make([]string, n)
	for i := range n {
		parts[i] = strconv.FormatFloat(float64(v[i]), 'f', 5, 32)
	}
	s := "[" + strings.Join(parts, " ")
	if n < len(v) {
		s += fmt.Sprintf(" ...] (%d of %d)", n, len(v))
	} else {
		s += "]"
	}
	return s
}

// matrix lays out a square similarity matrix with [i] labels.
func matrix(m [][]float64) string {
	var b strings.Builder
	label := func(i int) string { return "[" + strconv.Itoa(i+1) + "]" }
	width := max(len(label(len(m)-1)), 6) + 1
	fmt.Fprintf(&b, "%*s", width, "")
	for j := range m {
		fmt.Fprintf(&b, "%*s", width, label(j))
	}
	b.WriteByte('\n')
	for i, row := range m {
		fmt.Fprintf(&b, "%-*s", width, label(i))
		for _, x := range row {
			fmt.Fprintf(&b, "%*.3f", width, x)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// quoteShort quotes s, cut to n runes.
func quoteShort(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return strconv.Quote(s)
	}
	runes := []rune(s)
	return strconv.Quote(string(runes[:n])) + fmt.Sprintf("… (%d bytes)", len(s))
}
