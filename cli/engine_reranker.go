package cli

import (
	"flag"
	"strconv"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch/rerank"
)

// rerankerFlags choose the cross-encoder server of the commands that
// search (search, serve, mcp): --reranker and friends. A flag that was
// given wins over its MDSEARCH_RERANKER* variable.
type rerankerFlags struct {
	fs                      *flag.FlagSet
	url, model, api, scores string
	timeout                 time.Duration
}

func addRerankerFlags(fs *flag.FlagSet) *rerankerFlags {
	f := &rerankerFlags{fs: fs}
	fs.StringVar(&f.url, "reranker", "", "rerank server `URL` that reorders the first results "+
		"(Cohere-style or TEI, e.g. http://127.0.0.1:8012/v1/rerank) [MDSEARCH_RERANKER; key: MDSEARCH_RERANKER_KEY]")
	fs.StringVar(&f.model, "reranker-model", "", "model `name` sent to the reranker, where it wants one [MDSEARCH_RERANKER_MODEL]")
	fs.StringVar(&f.api, "reranker-api", "", "reranker `protocol`: auto (default), cohere or tei [MDSEARCH_RERANKER_API]")
	fs.StringVar(&f.scores, "reranker-scores", "", "the `scale` of the reranker's scores: auto (default: known from the server), "+
		"logits (llama.cpp with bge-reranker and the like) or probabilities (0–1) [MDSEARCH_RERANKER_SCORES]")
	fs.DurationVar(&f.timeout, "reranker-timeout", rerank.DefaultTimeout, "longest wait for the reranker; past it the local ranking is shown [MDSEARCH_RERANKER_TIMEOUT]")
	return f
}

// open returns the configured reranker, or nil when none is (no URL, or
// an empty --reranker to override the environment). A bad setting is a
// usage error.
func (f *rerankerFlags) open(env *Env) (rerank.Reranker, error) {
	url, model, api := f.settings(env)
	if strings.TrimSpace(url) == "" {
		// A setting given on the command line would do nothing: most
		// often the URL was meant to come from a variable not set here.
		for _, name := range []string{"reranker-model", "reranker-api", "reranker-scores", "reranker-timeout"} {
			if flagSet(f.fs, name) {
				return nil, usagef("--%s does nothing without a reranker: give --reranker URL (or MDSEARCH_RERANKER)", name)
			}
		}
		return nil, nil
	}
	timeout, err := f.wait(env)
	if err != nil {
		return nil, err
	}
	rr, err := rerank.New(url, rerank.Options{
		Model:   model,
		API:     api,
		Scores:  f.setting(env, "reranker-scores", f.scores, "MDSEARCH_RERANKER_SCORES"),
		APIKey:  env.Getenv("MDSEARCH_RERANKER_KEY"),
		Timeout: timeout,
	})
	if err != nil {
		return nil, usagef("%v", err)
	}
	return rr, nil
}

// wait is the longest wait for the reranker: the flag's when it was
// given, else the variable's, else the default.
func (f *rerankerFlags) wait(env *Env) (time.Duration, error) {
	timeout := f.timeout
	if s := strings.TrimSpace(env.Getenv("MDSEARCH_RERANKER_TIMEOUT")); s != "" && !flagSet(f.fs, "reranker-timeout") {
		d, err := parseSeconds(s)
		if err != nil || d <= 0 {
			return 0, usagef("MDSEARCH_RERANKER_TIMEOUT=%q: want a duration like 10s or 1m", s)
		}
		timeout = d
	}
	if timeout <= 0 {
		return 0, usagef("--reranker-timeout %v: use a positive duration, e.g. 10s", timeout)
	}
	return timeout, nil
}

// settings are the reranker's URL, model and protocol, each the flag's
// value when it was given, else its variable's.
func (f *rerankerFlags) settings(env *Env) (url, model, api string) {
	return f.setting(env, "reranker", f.url, "MDSEARCH_RERANKER"),
		f.setting(env, "reranker-model", f.model, "MDSEARCH_RERANKER_MODEL"),
		f.setting(env, "reranker-api", f.api, "MDSEARCH_RERANKER_API")
}

// key is every setting that decides a reranked answer, for settingsKey:
// the scale changes the scores shown, and the wait whether there are any
// (a search must not take an answer reranked under another timeout). The
// key itself is left out: it decides nothing a served answer would hide.
func (f *rerankerFlags) key(env *Env) []any {
	url, model, api := f.settings(env)
	if strings.TrimSpace(url) == "" {
		return []any{url} // no reranker: its other settings do nothing
	}
	scores := strings.ToLower(strings.TrimSpace(f.setting(env, "reranker-scores", f.scores, "MDSEARCH_RERANKER_SCORES")))
	if scores == "" {
		scores = rerank.Auto
	}
	wait := env.Getenv("MDSEARCH_RERANKER_TIMEOUT") // as typed where it is bad: open says so
	if d, err := f.wait(env); err == nil {
		wait = d.String()
	}
	return []any{url, model, api, scores, wait}
}

// setting is the flag's value when it was given, else the variable's.
func (f *rerankerFlags) setting(env *Env, flagName, value, variable string) string {
	if flagSet(f.fs, flagName) {
		return value
	}
	return env.Getenv(variable)
}

// parseSeconds reads a Go duration or a number of seconds.
func parseSeconds(s string) (time.Duration, error) {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(n * float64(time.Second)), nil
	}
	return time.ParseDuration(s)
}
