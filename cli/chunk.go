package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/vault"
)

// chunkCounter picks what `mdsearch chunk` counts tokens with and the
// budget it uses when --max-tokens is not given: the configured embedder's
// own tokenizer and window, as `mdsearch index` uses them. Without a model
// it falls back to counting words, and says so.
func chunkCounter(env *Env, ef *embedderFlags) (counter embed.TokenCounter, maxTokens int, release func(), err error) {
	emb, closer, _, err := ef.open(env, openNow)
	switch {
	case err != nil && mdsearch.KindOf(err) != mdsearch.KindUnavailable:
		return nil, 0, nil, err
	case err != nil:
		env.say("note: counting words, not model tokens: %v", err)
	case emb != nil:
		return emb, emb.MaxTokens(), closer, nil
	}
	return embed.Words{}, chunks.DefaultMaxTokens, func() {}, nil
}

// warnOverWindow says when a budget exceeds the model's window: the model
// would read only the start of each chunk, and `index` never cuts so.
func warnOverWindow(env *Env, maxTokens, window int) {
	if maxTokens > window {
		env.say("warning: --max-tokens %d is over the model's %d-token window; "+
			"the model would read only the first %d tokens of a longer window, and `mdsearch index` cuts at %d",
			maxTokens, window, window, window)
	}
}

// smallBudget is a budget under which heading paths rarely fit whole.
const smallBudget = 32

// warnSmallBudget says when a budget leaves heading paths little room: a
// path takes at most half of it, cut from the top, else it is left out.
func warnSmallBudget(env *Env, maxTokens int) {
	if maxTokens < smallBudget {
		env.say("warning: --max-tokens %d is small: a heading path may take at most %d tokens of it, "+
			"so longer ones are shortened or left out", maxTokens, maxTokens/2)
	}
}

func runChunk(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "chunk", "FILE|DIR...")
	asJSON := fs.Bool("json", false, "print a JSON array of chunks")
	maxTokens := fs.Int("max-tokens", 0, "token budget per window, heading prefix included (default: the model's window)")
	profile := fs.String("profile", string(chunks.ProfileSections), "where to cut: sections (every heading), h2h3 or fixed, as index cuts")
	ef := addEmbedderFlags(fs)
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	prof, ok := chunks.ParseProfile(*profile)
	custom := indexProfiles[*profile] // fixed: cut by the function index cuts with
	switch {
	case !ok && custom == nil:
		return usagef("unknown --profile %q (want sections, h2h3 or fixed)", *profile)
	case *maxTokens < 0 || flagSet(fs, "max-tokens") && *maxTokens == 0: // 0 is only the default's stand-in
		return usagef("--max-tokens must be positive")
	case len(files) == 0:
		return usagef("give at least one FILE or DIR")
	}
	if files, err = notesOf(ctx, env, files); err != nil {
		return err
	}
	counter, budget, closeCounter, err := chunkCounter(env, ef)
	if err != nil {
		return err
	}
	defer closeCounter()
	if *maxTokens > 0 {
		warnOverWindow(env, *maxTokens, budget)
		warnSmallBudget(env, *maxTokens)
		budget = *maxTokens
	}
	opts := chunks.Options{MaxTokens: budget, Counter: counter, Profile: prof}
	split := chunks.Split
	if custom != nil {
		split = custom
	}

	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	out := newChunkPrinter(screenFor(env.Stdout, w), *asJSON)
	// Each file's error is said as the next file comes; when no file
	// could be chunked the last one is the command's error instead, so
	// --json prints it as a JSON error, not an empty list.
	var pending error
	failed, printed := false, false
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		cs, err := chunkFile(env, f, opts, split)
		if pending != nil {
			env.say("%v", pending)
			pending = nil
		}
		if err != nil {
			pending, failed = err, true
			continue
		}
		if err := out.print(f, cs); err != nil {
			return err
		}
		printed = true
	}
	if !printed && pending != nil {
		return pending
	}
	if pending != nil {
		env.say("%v", pending)
	}
	if err := out.close(); err != nil {
		return err
	}
	if failed {
		return errFailed
	}
	return nil
}

// notesOf replaces each folder among args with the notes index would
// read in it (hidden folders, .mdsearchignore and the size limit
// respected), named under the folder as given; it says what the walk
// skipped. Files stay as they are, so a note index skips can still be cut.
func notesOf(ctx context.Context, env *Env, args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if fi, err := os.Stat(a); err != nil || !fi.IsDir() {
			out = append(out, a) // chunkFile names the problem
			continue
		}
		v, err := vault.Open(a, vault.Options{})
		if err != nil {
			return nil, err
		}
		notes, skipped, err := v.Walk(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range skipped {
			env.say("skipped %s: %s", filepath.Join(a, filepath.FromSlash(s.Path)), s.Reason)
		}
		if len(notes) == 0 {
			return nil, mdsearch.Errorf(mdsearch.KindNotFound, "chunk", a, "", "no markdown notes (.md or .markdown) in this folder")
		}
		for _, n := range notes {
			out = append(out, filepath.Join(a, filepath.FromSlash(n.Path)))
		}
	}
	return out, nil
}

// chunkFile reads, parses and cuts one file with split, printing its
// warnings.
func chunkFile(env *Env, name string, opts chunks.Options, split func(*sections.Document, chunks.Options) []mdsearch.Chunk) ([]mdsearch.Chunk, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		kind := mdsearch.KindInvalid
		if errors.Is(err, os.ErrNotExist) {
			kind = mdsearch.KindNotFound
		}
		return nil, mdsearch.Errorf(kind, "read", name, "", "%v", unwrapPathError(err))
	}
	if err := sections.CheckSource(src); err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "read", name, "", "%v, skipped", err)
	}
	if !vault.IsMarkdown(filepath.Base(name)) {
		env.say("%s: warning: not a markdown note (.md or .markdown), which index skips: cut as if it were one", name)
	}
	doc := sections.Parse(filepath.ToSlash(name), src)
	for _, w := range doc.Warnings {
		env.say("%s: warning: %s", name, w)
	}
	return split(doc, opts), nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// chunkPrinter writes chunks as one JSON array across all files, or as a
// readable listing.
type chunkPrinter struct {
	w     io.Writer
	json  bool
	first bool
}

func newChunkPrinter(w io.Writer, asJSON bool) *chunkPrinter {
	return &chunkPrinter{w: w, json: asJSON, first: true}
}

func (p *chunkPrinter) print(file string, cs []mdsearch.Chunk) error {
	if !p.json {
		return printChunkList(p.w, file, cs)
	}
	for i := range cs {
		b, err := marshalChunk(&cs[i])
		if err != nil {
			return fmt.Errorf("encode %s: %w", file, err)
		}
		sep := ",\n"
		if p.first {
			sep, p.first = "[\n", false
		}
		if _, err := io.WriteString(p.w, sep); err != nil {
			return err
		}
		if _, err := p.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func (p *chunkPrinter) close() error {
	if !p.json {
		return nil
	}
	end := "\n]\n"
	if p.first {
		end = "[]\n"
	}
	_, err := io.WriteString(p.w, end)
	return err
}

// marshalChunk encodes one chunk on one line, without escaping <, > and &
// (markdown is full of them).
func marshalChunk(c *mdsearch.Chunk) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

// printChunkList prints one line per passage (index, lines, section path,
// words, windows with their token counts, the first line of text) and the
// other sections it covers.
func printChunkList(w io.Writer, file string, cs []mdsearch.Chunk) error {
	if _, err := fmt.Fprintf(w, "%s: %d %s\n", file, len(cs), plural.Noun(len(cs), "passage", "passages")); err != nil {
		return err
	}
	for _, c := range cs {
		section := strings.Join(c.SectionPath, " > ")
		if section == "" {
			section = sections.Intro
		}
		if c.Parts > 1 {
			section += fmt.Sprintf(" (%d/%d)", c.Part, c.Parts)
		}
		toks := make([]string, len(c.Windows))
		last := 0 // the count the noun follows
		for i, win := range c.Windows {
			toks[i], last = strconv.Itoa(win.TokenCount), win.TokenCount
		}
		if len(toks) > 1 {
			last = len(toks) // a list of counts: the plural
		}
		if _, err := fmt.Fprintf(w, "  #%-3d L%d-%d  %s  %s, %s [%s %s]  %s\n", c.ChunkIndex, c.StartLine, c.EndLine,
			section, plural.Count(c.WordCount, "word", "words"), plural.Count(len(c.Windows), "window", "windows"),
			strings.Join(toks, " "), plural.Noun(last, "token", "tokens"), firstLine(c.Text, 60)); err != nil {
			return err
		}
		for _, p := range c.Sections[min(1, len(c.Sections)):] {
			if _, err := fmt.Fprintf(w, "        also covers %s\n", strings.Join(p, " > ")); err != nil {
				return err
			}
		}
	}
	return nil
}

// firstLine is the first non-blank line of text, cut to at most n runes.
func firstLine(text string, n int) string {
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if utf8.RuneCountInString(l) > n {
				l = string([]rune(l)[:n-1]) + "…"
			}
			return l
		}
	}
	return ""
}
