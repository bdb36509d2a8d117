package cli

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed/provider"
	"github.com/mdsearch/mdsearch/internal/eval"
)

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func runEval(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "eval", "--vault DIR (--queries FILE.jsonl | --generate)")
	var opts eval.Options
	fs.StringVar(&opts.Vault, "vault", "", "folder of notes to index (required)")
	queries := fs.String("queries", "", "labelled queries, one JSON object a line")
	var gen genFlags
	gen.add(fs)
	fs.IntVar(&opts.K, "k", mdsearch.DefaultN, fmt.Sprintf("results judged per query (1–%d)", mdsearch.MaxN))
	fs.IntVar(&opts.MaxPerPage, "max-per-page", 0,
		fmt.Sprintf("most results from one note (1–%d; by default search's default cap: %d, more where the other notes' passages are unlikely answers)",
			mdsearch.MaxMaxPerPage, mdsearch.DefaultMaxPerPage))
	var configs listFlag
	fs.Var(&configs, "config", "configuration to run, repeatable or comma-separated (default: all of "+
		strings.Join(eval.DefaultConfigs, ", ")+"; with --generate, "+strings.Join(genConfigs, ", ")+")")
	var offTopic listFlag
	fs.Var(&offTopic, "off-topic", "queries the vault cannot answer (one a line, or a query set's JSON lines), repeatable: their top scores are reported beside the real queries'")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	details := fs.Bool("details", false, "include every query's outcome and results in the JSON report")
	fs.BoolVar(&opts.FirstStageOnly, "first-stage", false, "leave the second stage out: rank and score by the fused first stage alone")
	asListed := fs.Bool("as-listed", false, "score each line of the query file as a query of its own, as the figures before merged repeats were: lines asking the same text are otherwise one query with their labels joined")
	fs.BoolVar(&opts.Typos, "typos", false, "also ask each labelled query with a word misspelled, and report the spelling suggestions")
	fs.StringVar(&opts.TempDir, "tmp", "", "folder for the throwaway indexes (default: the system's)")
	fs.Float64Var(&opts.Tuning.Keyword, "keyword-weight", 0, "tuning: weight of the keyword score in hybrid search, 0–1 (default 0.6)")
	fs.Float64Var(&opts.Tuning.BM25Half, "bm25-half", 0, "tuning: bm25 magnitude that scores 0.5 (default 8)")
	fs.Float64Var(&opts.Tuning.CosFloor, "cos-floor", 0, "tuning: cosine that scores 0 (default 0.2; needs --cos-ceil, with which it defaults to 0)")
	fs.Float64Var(&opts.Tuning.CosCeil, "cos-ceil", 0, "tuning: cosine that scores 1 (default 0.8); sets the floor too: --cos-floor, else 0")
	fs.StringVar(&opts.EmbedCache, "embed-cache", "", "keep computed vectors in this file between runs (for tuning)")
	fs.Float64Var(&opts.Tuning.HeadCos, "heading-cos", 0, "tuning: scale of a heading window's cosine, 0–1 (default 0.9)")
	fs.IntVar(&opts.Tuning.Passage, "passage-words", 0, "tuning: passage reading budget in words (default 300)")
	weights := fs.String("bm25-weights", "", "tuning: keyword weights text,heading,title,tags (default 1,2.5,2.5,1.5)")
	fs.Float64Var(&opts.Tuning.Overlap, "overlap", 0, "tuning: fraction of the window budget repeated between windows (default 0.1; 0 or negative for none)")
	fs.IntVar(&opts.Tuning.StubWords, "stub-words", 0, "tuning: sections under this many words merge forward (default 50; 0 or negative for none)")
	fs.IntVar(&opts.Tuning.MaxTokens, "max-tokens", 0, "tuning: window budget in model tokens (default and most: the model window)")
	cfg := provider.FromEnv(env.Getenv)
	cfg.AddFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *asListed && gen.on {
		return usagef("--as-listed asks the lines of a --queries file one by one: give it with --queries, not --generate")
	}
	if *queries != "" && gen.on {
		return usagef("give --queries FILE or --generate, not both (--generate makes the queries; --write-queries keeps them for --queries)")
	}
	if len(pos) > 0 || opts.Vault == "" || (*queries == "") == !gen.on {
		return usagef("give --vault DIR and --queries FILE (or --generate), and no other arguments")
	}
	if err := checkEvalFlags(fs, gen.on, *asJSON, &opts.Tuning); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return usagef("%v", err) // a bad setting, as search says; a missing model falls back below
	}
	// 0 means "default" to eval.Run; on the command line it is a mistake.
	if opts.K < 1 || opts.K > mdsearch.MaxN {
		return usagef("k is %d: use 1-%d (default %d)", opts.K, mdsearch.MaxN, mdsearch.DefaultN)
	}
	if err := mdsearch.CheckMaxPerPage(opts.MaxPerPage); err != nil {
		return requestError("eval", err) // the search's own rule and wording
	}
	if *weights != "" {
		if opts.Tuning.Weights, err = eval.ParseWeights(*weights); err != nil {
			return usagef("%v", err)
		}
	}
	chosen := len(configs) > 0 // else the defaults, which shrink to keyword ones without a model
	if gen.on && len(configs) == 0 {
		configs = genConfigs
	}
	if opts.Configs, err = eval.ParseConfigs(configs); err != nil {
		return requestError("eval", err)
	}
	if err := checkNoEmbedder(fs, cfg, chosen, opts.Configs); err != nil {
		return err
	}
	if gen.on {
		if err := gen.queries(ctx, env, &opts); err != nil {
			return err
		}
	} else if opts.Queries, err = eval.LoadQueries(*queries); err != nil {
		return err
	} else if *asListed {
		opts.Queries.AsListed()
	}
	for _, f := range offTopic {
		qs, err := eval.LoadOffTopic(f)
		if err != nil {
			return err
		}
		opts.OffTopic = append(opts.OffTopic, qs...)
		opts.OffTopicFiles = append(opts.OffTopicFiles, eval.SourceFile{File: f, Queries: len(qs)})
	}
	if opts.EmbedCache != "" {
		if err := eval.CheckSaveable(opts.EmbedCache); err != nil {
			return usagef("--embed-cache: %s", withoutOp("eval", err)) // before the run computes what it could not keep
		}
	}
	opts.Details = *details || gen.on // per-style rows need every outcome
	opts.Log = func(line string) { env.say("%s", line) }
	// The model sizes the chunks even for keyword configurations, so a row
	// does not change with the company it keeps; without one, keyword
	// configurations still run, on chunks sized in words.
	emb, err := provider.OpenContext(ctx, cfg)
	switch {
	case err != nil && eval.NeedsModel(opts.Configs) && chosen:
		return err
	case err != nil:
		env.say("note: no embedding model (%v); chunks are sized in words", err)
	default:
		defer provider.Close(emb)
		opts.Embedder = emb // nil for --embedder none: Run names what needs a model
	}
	if w := opts.Embedder; w != nil && w.MaxTokens() > 0 && opts.Tuning.MaxTokens > w.MaxTokens() {
		env.say("warning: --max-tokens %d is over the model's %d-token window: windows are cut at %d, as `mdsearch index` cuts them",
			opts.Tuning.MaxTokens, w.MaxTokens(), w.MaxTokens())
	}
	if opts.Embedder == nil && !chosen && eval.NeedsModel(opts.Configs) {
		if opts.Configs, err = keywordConfigs(opts.Configs); err != nil {
			return err
		}
		env.say("note: no embedding model: running the keyword configurations only (%s)", configNames(opts.Configs))
	}
	rep, err := eval.Run(ctx, opts)
	if err != nil && ctx.Err() != nil {
		return interrupted(err, gen.write, opts.EmbedCache)
	}
	if err != nil {
		return err
	}
	if gen.on {
		return gen.report(env, rep, *asJSON, *details)
	}
	if *asJSON {
		return printJSON(env, rep)
	}
	return eval.WriteTable(screen(env.Stdout), rep) // headings may hold escapes
}

// interrupted is a stopped run's error, saying what it wrote before it
// stopped: the generated queries, and the embedding cache, which Run saves
// as it ends (a failure to is said on its own line).
func interrupted(err error, queries, cache string) error {
	var wrote []string
	if queries != "" {
		wrote = append(wrote, "the queries to "+queries)
	}
	if cache != "" {
		wrote = append(wrote, "the vectors computed so far to the embedding cache "+cache)
	}
	if len(wrote) == 0 {
		return err // interruptedHint's "nothing was written"
	}
	return &leaves{err: err, hint: ": no report; it wrote " + strings.Join(wrote, ", and ")}
}

// keywordConfigs keeps the keyword configurations of cs, or, when it has
// none, the baseline and mdsearch's keyword search.
func keywordConfigs(cs []eval.Config) ([]eval.Config, error) {
	var out []eval.Config
	for _, c := range cs {
		if c.Mode == mdsearch.ModeKeyword {
			out = append(out, c)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	return eval.ParseConfigs([]string{"bm25-sections", "sections-keyword"})
}

func configNames(cs []eval.Config) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// checkEvalFlags refuses flags that would be ignored (--style and
// --write-queries without --generate, --details without --json) and tuning
// values the engine would not apply as given (checkTuning).
func checkEvalFlags(fs *flag.FlagSet, generate, asJSON bool, tu *eval.Tuning) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		switch {
		case err != nil:
		case !generate && (f.Name == "style" || f.Name == "write-queries"):
			err = usagef("--%s is for --generate", f.Name)
		case !asJSON && f.Name == "details":
			err = usagef("--details adds to the JSON report: give --json too")
		}
	})
	if err != nil {
		return err
	}
	return checkTuning(fs, tu)
}

// checkTuning refuses tuning values out of their range, not a number, or
// 0 where the engine reads 0 as its default, which eval would otherwise
// clamp or reset while the report names them as given. --overlap 0 and
// --stub-words 0 mean none, and are applied so.
func checkTuning(fs *flag.FlagSet, tu *eval.Tuning) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"keyword-weight", tu.Keyword}, {"bm25-half", tu.BM25Half}, {"cos-floor", tu.CosFloor},
		{"cos-ceil", tu.CosCeil}, {"heading-cos", tu.HeadCos}, {"overlap", tu.Overlap}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return usagef("--%s %v: use a number", f.name, f.v)
		}
	}
	if err := checkZeros(fs, tu); err != nil {
		return err
	}
	switch {
	case tu.Keyword < 0 || tu.Keyword > 1:
		return usagef("--keyword-weight %v: use 0–1", tu.Keyword)
	case tu.HeadCos < 0 || tu.HeadCos > 1:
		return usagef("--heading-cos %v: use 0–1", tu.HeadCos)
	case tu.Overlap > 0.5:
		return usagef("--overlap %v: use at most 0.5 (0 or negative for none)", tu.Overlap)
	case tu.BM25Half < 0:
		return usagef("--bm25-half %v: use a positive number", tu.BM25Half)
	case tu.Passage < 0:
		return usagef("--passage-words %v: use a positive number of words", tu.Passage)
	case tu.MaxTokens < 0:
		return usagef("--max-tokens %v: use a positive number of tokens (at most the model's window)", tu.MaxTokens)
	case tu.CosFloor < 0 || tu.CosFloor > 1 || tu.CosCeil < 0 || tu.CosCeil > 1:
		return usagef("--cos-floor %v, --cos-ceil %v: cosines are 0–1", tu.CosFloor, tu.CosCeil)
	case flagSet(fs, "cos-floor") && !flagSet(fs, "cos-ceil"):
		return usagef("--cos-floor %v applies only with a cosine ceiling: give --cos-ceil too", tu.CosFloor)
	}
	return requestError("eval", tu.Check())
}

// zeroMeans says, for each tuning flag the engine reads 0 of as its
// default, what to give instead.
var zeroMeans = map[string]string{
	"keyword-weight": "use a weight above 0, at most 1 (meaning alone is --config sections-semantic)",
	"heading-cos":    "use a scale above 0, at most 1 (0.01 all but ignores heading windows)",
	"bm25-half":      "use a positive number (default 8)",
	"cos-ceil":       "use a cosine above the floor, at most 1 (default 0.8)",
	"passage-words":  "use a positive number of words (default 300)",
	"max-tokens":     "use a positive number of tokens, at most the model's window (the default)",
}

// checkZeros refuses a 0 given to a flag whose 0 the engine reads as its
// default, and applies --overlap 0 and --stub-words 0 as none.
func checkZeros(fs *flag.FlagSet, tu *eval.Tuning) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil || f.Value.String() != "0" && f.Value.String() != "-0" {
			return
		}
		switch f.Name {
		case "overlap":
			tu.Overlap = -1 // the engine's none
		case "stub-words":
			tu.StubWords = -1
		default:
			if hint, ok := zeroMeans[f.Name]; ok {
				err = usagef("--%s 0: %s", f.Name, hint)
			}
		}
	})
	return err
}

// checkNoEmbedder refuses configurations chosen by name that need vectors
// when the embedder was set to none: no model failed to load, the command
// line (or MDSEARCH_EMBEDDER) asked for two things at odds.
func checkNoEmbedder(fs *flag.FlagSet, cfg provider.Config, chosen bool, cs []eval.Config) error {
	need := eval.ModelConfigs(cs)
	if !chosen || len(need) == 0 || !strings.EqualFold(cfg.Provider, provider.None) {
		return nil
	}
	given := "--embedder none was given"
	if !flagSet(fs, "embedder") {
		given = "MDSEARCH_EMBEDDER is none"
	}
	return usagef("%s an embedding model (semantic and hybrid configurations do), and %s: "+
		"choose an embedder, or keyword configurations only (bm25-sections, sections-keyword)", eval.NeedPhrase(need), given)
}
