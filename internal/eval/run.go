package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/render"
	"github.com/mdsearch/mdsearch/rescore"
)

// Options configure Run.
type Options struct {
	Vault      string    // folder of notes
	Queries    *QuerySet // resolved against Vault by Run
	K          int       // results judged per query; default 5
	MaxPerPage int       // per-note cap of the search; 0: search's default cap (mdsearch.SearchRequest)
	Configs    []Config  // default: ParseConfigs(nil)
	// Embedder embeds chunks and queries; nil allows keyword
	// configurations only (chunks are then sized in words).
	Embedder embed.Embedder
	TempDir  string // parent of the throwaway indexes; default os.TempDir()
	Details  bool   // keep every query's outcome and results in the report
	// EmbedCache, when set, is a file that keeps computed vectors between
	// runs (tuning rebuilds the same index many times).
	EmbedCache string
	Tuning     Tuning // engine settings to try instead of the defaults
	// OffTopic are queries the vault cannot answer; their top scores are
	// reported beside those of the real queries (Spreads). OffTopicFiles
	// name where they came from, for the report.
	OffTopic      []string
	OffTopicFiles []SourceFile
	// AlsoOffTopic are other lists of off-topic queries, each measured
	// alone beside the labelled queries (ConfigReport.CalibWith), in the
	// same index: fitrescore -loso's unrelated and everyday questions.
	AlsoOffTopic map[string][]string
	// Log, when set, receives one line per index built and per
	// configuration scored.
	Log func(string)
	// Rescore replaces the engine's second-stage model; FirstStageOnly
	// leaves the second stage out (the fusion alone ranks and scores).
	Rescore        *rescore.Model
	FirstStageOnly bool
	// Typos asks each labelled query again with a word misspelled, and
	// reports the suggestions (Typos).
	Typos   bool
	observe func(string, []engine.Observed) // Collect's
}

// Report is the result of a Run.
type Report struct {
	Vault     string `json:"vault"`
	QueryFile string `json:"query_file"`
	Queries   int    `json:"queries"`
	// Merged counts the query file's lines that repeat an earlier line's
	// query, their labels joined to it (QuerySet.Merged).
	Merged     int    `json:"merged,omitempty"`
	K          int    `json:"k"`
	MaxPerPage int    `json:"max_per_page"`
	Model      string `json:"model"`
	Tuning     Tuning `json:"tuning"`
	// Style is the styles of generated queries (--style), "" for a file.
	Style string `json:"style,omitempty"`
	// OffTopicFiles are the --off-topic files, with their queries.
	OffTopicFiles []SourceFile `json:"off_topic_files,omitempty"`
	// AskTypos says each labelled query was asked misspelled too (--typos).
	AskTypos bool `json:"typos,omitempty"`
	// FirstStage says the second stage was left out (--first-stage).
	FirstStage bool           `json:"first_stage,omitempty"`
	Configs    []ConfigReport `json:"configs"`
	Embedding  CacheStats     `json:"embedding"` // over the whole run
	TookMS     float64        `json:"took_ms"`
}

// ConfigReport is one configuration's row.
type ConfigReport struct {
	Config
	Index IndexReport `json:"index"`
	Metrics
	// Scores and Calib are nil for the baseline, which scores nothing.
	Scores *Spreads     `json:"top_scores,omitempty"`
	Calib  *Calibration `json:"calibration,omitempty"`
	// CalibWith is Calib with each list of Options.AlsoOffTopic as the
	// off-topic queries, by its name.
	CalibWith map[string]Calibration `json:"calibration_with,omitempty"`
	Outcomes  []Outcome              `json:"outcomes,omitempty"`
	misses    []miss                 // for the text report
	offStrong []offScored            // the off-topic queries scoring at least Strong, best first, for the text report
	OffTopic  []float64              `json:"off_topic_top_scores,omitempty"` // in the order given, with details
	Typos     *Typos                 `json:"typos,omitempty"`                // with Options.Typos
}

// SourceFile is a file of queries and how many it gave.
type SourceFile struct {
	File    string `json:"file"`
	Queries int    `json:"queries"`
}

// IndexReport describes the index a configuration searched. Configurations
// with the same chunker share it.
type IndexReport struct {
	Chunks     int     `json:"chunks"`
	TookMS     float64 `json:"took_ms"`
	Embedded   int64   `json:"embedded"`    // chunk texts the model embedded for this index
	Reused     int64   `json:"reused"`      // chunk texts reused from an earlier index of the run
	OverWindow int64   `json:"over_window"` // chunk texts longer than the model's window (truncated)
}

// Run builds one throwaway index per chunker and scores every
// configuration's answers to the queries. When the embedding cache cannot
// be saved, Run says so through opts.Log and still returns its report;
// without a Log, the failure is its error (with the report).
func Run(ctx context.Context, opts Options) (_ *Report, err error) {
	start := time.Now()
	if err := opts.fill(); err != nil {
		return nil, err
	}
	if err := opts.Queries.Resolve(ctx, opts.Vault); err != nil {
		return nil, err
	}
	if err := opts.checkQueries(ctx); err != nil {
		return nil, err
	}
	var cache *Cache
	rep := &Report{Vault: opts.Vault, QueryFile: opts.Queries.File, FirstStage: opts.FirstStageOnly, Queries: len(opts.Queries.Queries), Merged: opts.Queries.Merged(),
		K: opts.K, MaxPerPage: opts.MaxPerPage, Model: "none (keyword only)", Tuning: opts.Tuning, Configs: []ConfigReport{},
		Style: opts.Queries.Style, OffTopicFiles: opts.OffTopicFiles, AskTypos: opts.Typos}
	if opts.Embedder != nil {
		cache = NewCache(opts.Embedder)
		rep.Model = opts.Embedder.ModelID()
		if opts.EmbedCache != "" {
			if err := cache.Load(opts.EmbedCache); err != nil {
				return nil, err
			}
			if other := cache.Replaces(); other != "" {
				opts.logf("note: the embedding cache %s holds vectors of %s, not %s: this run's replace them when it ends",
					opts.EmbedCache, other, rep.Model)
			}
			defer func() {
				serr := cache.Save(opts.EmbedCache)
				switch {
				case serr == nil:
				case opts.Log != nil:
					opts.logf("embedding cache %s not saved: %v", opts.EmbedCache, serr)
				case err == nil:
					err = mdsearch.Errorf(mdsearch.KindInternal, "eval", opts.EmbedCache, "", "embedding cache not saved: %v", serr)
				}
			}()
		}
	}
	for _, group := range byChunker(opts.Configs) {
		rows, err := opts.runChunker(ctx, cache, group)
		if err != nil {
			return nil, err
		}
		rep.Configs = append(rep.Configs, rows...)
	}
	if cache != nil {
		rep.Embedding = cache.Stats()
	}
	rep.TookMS = msSince(start)
	return rep, nil
}

// fill applies defaults and checks the options.
func (o *Options) fill() error {
	if o.Queries == nil || len(o.Queries.Queries) == 0 {
		return mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "", "no queries")
	}
	if err := o.Tuning.Check(); err != nil {
		return err
	}
	if o.K == 0 {
		o.K = mdsearch.DefaultN
	}
	if o.K < 1 || o.K > mdsearch.MaxN {
		return mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "", "k must be between 1 and %d, got %d", mdsearch.MaxN, o.K)
	}
	if w := o.windowOf(); w > 0 && o.Tuning.MaxTokens > w {
		o.Tuning.MaxTokens = w // as the engine cuts: the report names the budget used
	}
	if len(o.Configs) == 0 {
		cs, err := ParseConfigs(nil)
		if err != nil {
			return err
		}
		o.Configs = cs
	}
	if need := ModelConfigs(o.Configs); o.Embedder == nil && len(need) > 0 {
		return mdsearch.Errorf(mdsearch.KindUnavailable, "eval", "", "run `mdsearch setup`, or evaluate keyword configurations only",
			"%s an embedding model, and none is loaded", NeedPhrase(need))
	}
	return nil
}

// windowOf is the embedder's model window, 0 without one.
func (o *Options) windowOf() int {
	if o.Embedder == nil {
		return 0
	}
	return o.Embedder.MaxTokens()
}

// NeedPhrase is "a needs" for one configuration name, "a and b need" for
// several.
func NeedPhrase(names []string) string {
	return plural.List(names) + " " + plural.Noun(len(names), "needs", "need")
}

// byChunker groups configurations that can share an index, keeping the
// order in which chunkers first appear.
func byChunker(cs []Config) [][]Config {
	var out [][]Config
	at := map[string]int{}
	for _, c := range cs {
		i, ok := at[c.Chunker]
		if !ok {
			i = len(out)
			at[c.Chunker] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], c)
	}
	return out
}

// runChunker builds the index of one chunker and scores its configurations.
func (o *Options) runChunker(ctx context.Context, cache *Cache, group []Config) ([]ConfigReport, error) {
	dir, err := os.MkdirTemp(o.TempDir, "mdsearch-eval-*")
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "eval", o.TempDir, "", "temporary index folder: %v", err)
	}
	defer os.RemoveAll(dir)
	var e searcher
	var idx IndexReport
	if group[0].Chunker == ChunkBM25Sections {
		b, bi, err := newBM25Sections(ctx, o.Vault)
		if err != nil {
			return nil, err
		}
		defer b.Close()
		e, idx = b, bi
	} else {
		en, ei, err := o.build(ctx, cache, group[0].Chunker, filepath.Join(dir, "index.db"), NeedsModel(group))
		if err != nil {
			return nil, err
		}
		defer en.Close()
		e, idx = unlisted{en}, ei
	}
	var rows []ConfigReport
	for _, c := range group {
		outs, err := o.ask(ctx, e, cache, c)
		if err != nil {
			return nil, err
		}
		ans, err := o.askOffTopic(ctx, e, c, o.OffTopic)
		if err != nil {
			return nil, err
		}
		off, offSuggested := ans.tops, ans.suggested
		row := ConfigReport{Config: c, Index: idx, Metrics: Summarize(outs)}
		if c.Chunker != ChunkBM25Sections {
			sp, k := spreads(outs, off), calibrate(outs, off, ans.below)
			k.OffTokens = ans.tokens
			row.Scores, row.Calib = &sp, &k
			if row.CalibWith, err = o.calibrateWith(ctx, e, c, outs); err != nil {
				return nil, err
			}
		}
		if o.Typos && c.Chunker != ChunkBM25Sections && c.Mode != mdsearch.ModeSemantic {
			if row.Typos, err = o.askTypos(ctx, e, c, outs, offSuggested); err != nil {
				return nil, err
			}
		}
		row.misses, row.offStrong = missesOf(o.Queries.Queries, outs), strongOff(o.OffTopic, off)
		if o.Details {
			row.Outcomes, row.OffTopic = outs, off
		}
		o.logf("%s: recall@%d %.3f, MRR %.3f, Hit@3 %.3f, %.0f tokens/query, p50 %.1f ms",
			c.Name, o.K, row.RecallAtK, row.MRR, row.Hit3, row.Tokens, row.P50MS)
		rows = append(rows, row)
	}
	return rows, nil
}

// calibrateWith measures the calibration of outs with each list of
// AlsoOffTopic as the off-topic queries.
func (o *Options) calibrateWith(ctx context.Context, e searcher, c Config, outs []Outcome) (map[string]Calibration, error) {
	if len(o.AlsoOffTopic) == 0 {
		return nil, nil
	}
	out := make(map[string]Calibration, len(o.AlsoOffTopic))
	for name, qs := range o.AlsoOffTopic {
		ans, err := o.askOffTopic(ctx, e, c, qs)
		if err != nil {
			return nil, err
		}
		k := calibrate(outs, ans.tops, ans.below)
		k.OffTokens = ans.tokens
		out[name] = k
	}
	return out, nil
}

// searcher is what a configuration is asked through: the engine, or the
// plain baseline.
type searcher interface {
	Search(ctx context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error)
}

// unlisted refuses a query that lists notes (operators alone, as
// tag:meeting): nothing is ranked for it to score.
type unlisted struct{ searcher }

func (u unlisted) Search(ctx context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error) {
	resp, err := u.searcher.Search(ctx, req)
	if err == nil && resp.Listing {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "", "", "",
			"query holds only %s, which names notes to list, not words to look for: add the words", req.Query)
	}
	return resp, err
}

// NeedsModel reports whether any of the configurations searches vectors.
func NeedsModel(cs []Config) bool { return len(ModelConfigs(cs)) > 0 }

// ModelConfigs names the configurations of cs that need vectors.
func ModelConfigs(cs []Config) []string {
	var out []string
	for _, c := range cs {
		if c.Mode != mdsearch.ModeKeyword {
			out = append(out, c.Name)
		}
	}
	return out
}

// build indexes the vault with one chunker into a new index file. Without
// vectors (keyword configurations only), the model still sizes the
// chunks, as its tokenizer, so a row does not change with the company it
// keeps, but nothing is embedded.
func (o *Options) build(ctx context.Context, cache *Cache, chunkerName, path string, vectors bool) (*engine.Engine, IndexReport, error) {
	var idx IndexReport
	so, err := engineOptions(chunkerName)
	if err != nil {
		return nil, idx, err
	}
	o.Tuning.apply(&so)
	so.IndexPath = path
	so.Rescore, so.FirstStageOnly, so.Observe = o.Rescore, o.FirstStageOnly, o.observe
	switch {
	case cache != nil && vectors:
		so.Embedder = cache
	case cache != nil:
		so.KeywordOnly = true
		so.Chunking = engine.SizeFor(so.Chunking, cache) // as the engine cuts for its embedder
	default:
		so.KeywordOnly = true
	}
	e, err := engine.Open(ctx, so)
	if err != nil {
		return nil, idx, err
	}
	var before CacheStats
	if cache != nil {
		before = cache.Stats()
	}
	start := time.Now()
	st, err := e.Index(ctx, mdsearch.IndexRequest{Dir: o.Vault, Name: "eval"}, nil)
	if err != nil {
		e.Close()
		return nil, idx, err
	}
	idx.TookMS = msSince(start)
	idx.Chunks = st.Chunks
	if cache != nil {
		d := cache.Stats().Sub(before)
		idx.Embedded, idx.Reused, idx.OverWindow = d.Computed, d.Hits, d.OverWindow
	}
	o.logf("%s: indexed %d chunks in %.2f s (embedded %d, reused %d, %d over the model's window)",
		chunkerName, idx.Chunks, idx.TookMS/1000, idx.Embedded, idx.Reused, idx.OverWindow)
	return e, idx, nil
}

// ask runs every query of the set with one configuration and scores it.
func (o *Options) ask(ctx context.Context, e searcher, cache *Cache, c Config) ([]Outcome, error) {
	if cache != nil {
		cache.SetBypass(true) // query latency includes embedding the query
		defer cache.SetBypass(false)
	}
	qs := o.Queries.Queries
	req := func(q *Query) mdsearch.SearchRequest { return o.request(q, q.Text, c.Mode) }
	// Warm up: the first search loads the vectors into memory.
	if _, err := e.Search(ctx, req(&qs[0])); err != nil {
		return nil, o.wrapLine(&qs[0], err)
	}
	outs := make([]Outcome, 0, len(qs))
	for i := range qs {
		q := &qs[i]
		start := time.Now()
		resp, err := e.Search(ctx, req(q))
		lat := msSince(start)
		if err != nil {
			return nil, o.wrapLine(q, err)
		}
		// A query the model cannot read is ranked by keywords in every
		// mode: that is the configuration's answer to it. Any other
		// fallback means the configuration did not run as named.
		if resp.Mode != c.Mode && !(resp.Mode == mdsearch.ModeKeyword && cache != nil && engine.Unreadable(cache, q.Text)) {
			return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "eval", c.Name, "", "searched %s instead of %s: %s", resp.Mode, c.Mode, resp.Notice)
		}
		kept := dropExcluded(resp.Results, q.Exclude)
		out := Score(q, kept, o.K)
		out.LatencyMS, out.Suggested = lat, resp.Suggestion != ""
		if o.Details {
			out.Results = describe(kept[:min(o.K, len(kept))])
		}
		if len(kept) > 0 {
			out.first = describe(kept[:1])[0]
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// request is the search eval makes of text, query q's (nil for an
// off-topic one), in mode. q's excluded page is left out of the search, as
// if the vault did not hold it: it holds the query's own words, and beside
// it every other candidate would look weak to the second stage. Twice k
// are asked for, as a caller that filters its own page would (the
// bm25-sections baseline still drops it afterwards).
func (o *Options) request(q *Query, text string, mode mdsearch.Mode) mdsearch.SearchRequest {
	req := mdsearch.SearchRequest{Query: text, N: min(mdsearch.MaxN, 2*max(o.K, 3)), MaxPerPage: o.MaxPerPage, Mode: mode}
	if q != nil && q.Exclude != "" {
		req.Exclude = []string{q.Exclude}
	}
	return req
}

// dropExcluded removes the results on the excluded page, if any (a
// baseline that searches without the engine keeps them).
func dropExcluded(rs []mdsearch.Result, exclude string) []mdsearch.Result {
	if exclude == "" {
		return rs
	}
	out := make([]mdsearch.Result, 0, len(rs))
	for _, r := range rs {
		if r.Path != exclude {
			out = append(out, r)
		}
	}
	return out
}

// describe names results as search's headers do, with their lines:
// "path > A > B + C (lines 3-9)".
func describe(rs []mdsearch.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmt.Sprintf("%s (lines %d-%d)", render.Place(r), r.StartLine, r.EndLine)
	}
	return out
}

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log(fmt.Sprintf(format, args...))
	}
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
