package provider

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/remote"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
)

// Provider names.
const (
	USE    = "use"
	Ollama = "ollama"
	OpenAI = "openai"
	None   = "none"
)

// Config selects and configures an Embedder. Zero fields take each
// embedder's defaults.
type Config struct {
	Provider  string // USE (when empty), Ollama, OpenAI or None
	URL       string // remote: server base URL
	Model     string // remote: model name
	APIKey    string // remote: bearer token
	Dim       int    // remote: expected dimension, checked by Open's probe (not a search's); 0: that probe learns it
	BatchSize int
	Threads   int    // use: CPU threads for inference, in all
	Precision string // use: float32 or int8; "" is sentenceencoder.DefaultPrecision
	MaxTokens int    // remote: window for truncation and CountTokens
	Parallel  int    // remote: Embed calls the server works on at once
	LibPath   string
	ModelDir  string
	Timeout   time.Duration // remote: per request
	// QueryTimeout bounds a search's query embedding in all (remote).
	QueryTimeout time.Duration
	// IndexModel is the model ID the index records ("ollama:nomic-embed-text@768").
	// A remote embedder of that API and model takes its dimension instead
	// of probing the server. Set it only where nothing is indexed: an
	// index run must learn the dimension the server's model has now.
	IndexModel string

	// Getenv is the environment assets are looked up in (MDSEARCH_HOME,
	// MDSEARCH_ORT_LIB, ...); nil means os.Getenv.
	Getenv func(string) string

	openAIKey string // OPENAI_API_KEY, used only for the openai provider
	envErr    error  // a malformed environment variable, reported by Open
}

// FromEnv reads the MDSEARCH_* variables (see the package doc).
// Malformed numbers are kept aside and reported by Open and Validate.
func FromEnv(getenv func(string) string) Config {
	c := Config{
		Provider:  strings.ToLower(strings.TrimSpace(getenv("MDSEARCH_EMBEDDER"))),
		URL:       getenv("MDSEARCH_EMBED_URL"),
		Model:     getenv("MDSEARCH_EMBED_MODEL"),
		APIKey:    getenv("MDSEARCH_EMBED_API_KEY"),
		LibPath:   getenv(assets.EnvORTLib),
		ModelDir:  getenv(assets.EnvModelDir),
		Precision: strings.ToLower(strings.TrimSpace(getenv("MDSEARCH_PRECISION"))),
		Getenv:    getenv,
		openAIKey: getenv("OPENAI_API_KEY"),
	}
	if c.Provider == "" {
		c.Provider = USE
	}
	ints := []struct {
		name string
		dst  *int
	}{
		{"MDSEARCH_EMBED_DIM", &c.Dim},
		{"MDSEARCH_EMBED_BATCH", &c.BatchSize},
		{"MDSEARCH_THREADS", &c.Threads},
		{"MDSEARCH_EMBED_MAX_TOKENS", &c.MaxTokens},
		{"MDSEARCH_EMBED_PARALLEL", &c.Parallel},
	}
	for _, v := range ints {
		s := strings.TrimSpace(getenv(v.name))
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			c.badEnv(v.name, s, "a whole number ≥ 0")
			continue
		}
		*v.dst = n
	}
	durations := []struct {
		name string
		dst  *time.Duration
	}{
		{"MDSEARCH_EMBED_TIMEOUT", &c.Timeout},
		{"MDSEARCH_EMBED_QUERY_TIMEOUT", &c.QueryTimeout},
	}
	for _, v := range durations {
		s := strings.TrimSpace(getenv(v.name))
		if s == "" {
			continue
		}
		d, err := parseTimeout(s)
		if err != nil {
			c.badEnv(v.name, s, "a duration like 30s or 2m")
			continue
		}
		*v.dst = d
	}
	return c
}

func (c *Config) badEnv(name, value, want string) {
	if c.envErr == nil {
		c.envErr = mdsearch.Errorf(mdsearch.KindInvalid, "embed config", "", "fix or unset "+name,
			"%s=%q: want %s", name, value, want)
	}
}

// parseTimeout accepts a Go duration or a number of seconds.
func parseTimeout(s string) (time.Duration, error) {
	if n, err := strconv.ParseFloat(s, 64); err == nil && n >= 0 {
		return time.Duration(n * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = fmt.Errorf("negative")
	}
	return d, err
}

// AddFlags registers the shared embedder flags on fs, with c's current
// values (usually from FromEnv) as defaults, so flags override the
// environment. Parsing fs writes into c.
func (c *Config) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Provider, "embedder", c.Provider, "`embedder`: use (local model), ollama, openai or none (keyword only) [MDSEARCH_EMBEDDER]")
	fs.StringVar(&c.URL, "embed-url", c.URL, "ollama/openai server `URL` [MDSEARCH_EMBED_URL]")
	fs.StringVar(&c.Model, "embed-model", c.Model, "ollama/openai model `name` [MDSEARCH_EMBED_MODEL]")
	fs.StringVar(&c.LibPath, "ort-lib", c.LibPath, "`path` of libonnxruntime.so.1 (default: the cache filled by mdsearch setup) [MDSEARCH_ORT_LIB]")
	fs.StringVar(&c.ModelDir, "model-dir", c.ModelDir, "USE-lite model `dir` (default: the cache filled by mdsearch setup) [MDSEARCH_MODEL_DIR]")
	fs.IntVar(&c.Threads, "threads", c.Threads, "ONNX Runtime threads (0: one per CPU) [MDSEARCH_THREADS]")
	fs.StringVar(&c.Precision, "precision", c.Precision, "local model `precision`: int8 (default, about 1.9 times as fast) or float32, the reference arithmetic; each has its own model ID, so switching re-embeds [MDSEARCH_PRECISION]")
}

// Remote reports whether the embedder is a server's (Ollama, OpenAI).
func (c Config) Remote() bool {
	p := strings.ToLower(c.Provider)
	return p == Ollama || p == OpenAI
}

// RemoteModel is the server model asked for as a model ID without its
// dimension ("ollama:nomic-embed-text", the API's default model where none
// is named), or "" for the local model and none.
func (c Config) RemoteModel() string {
	if !c.Remote() {
		return ""
	}
	api := strings.ToLower(c.Provider)
	model := c.Model
	if model == "" {
		model = remote.DefaultOllamaModel
		if api == OpenAI {
			model = remote.DefaultOpenAIModel
		}
	}
	return api + ":" + model
}

// Validate reports a bad environment value, an unknown provider or a
// negative number, as a KindInvalid *mdsearch.Error.
func (c Config) Validate() error {
	if c.envErr != nil {
		return c.envErr
	}
	switch strings.ToLower(c.Provider) {
	case "", USE, Ollama, OpenAI, None:
	default:
		return mdsearch.Errorf(mdsearch.KindInvalid, "embed config", "", "use one of: use, ollama, openai, none",
			"unknown embedder %q", c.Provider)
	}
	if _, err := sentenceencoder.ParsePrecision(c.Precision); err != nil {
		return mdsearch.Errorf(mdsearch.KindInvalid, "embed config", "", "use --precision float32 or int8", "%v", err)
	}
	if c.Dim < 0 || c.BatchSize < 0 || c.Threads < 0 || c.MaxTokens < 0 || c.Timeout < 0 || c.QueryTimeout < 0 || c.Parallel < 0 {
		return mdsearch.Errorf(mdsearch.KindInvalid, "embed config", "", "",
			"dimension, batch size, threads, max tokens, timeout and parallel requests must not be negative")
	}
	if c.Threads > MaxThreads {
		return mdsearch.Errorf(mdsearch.KindInvalid, "embed config", "", fmt.Sprintf("use 1-%d, or 0 for one per CPU", MaxThreads),
			"threads is %d", c.Threads)
	}
	return nil
}

// MaxThreads bounds --threads: each is an inference session's thread,
// and tens of thousands (a slip of the keyboard) would exhaust memory.
const MaxThreads = 256

// Open returns the configured Embedder. For None it returns nil and no
// error: the caller runs keyword-only. A missing model or unreachable
// server is a KindUnavailable *mdsearch.Error whose hint names the fix.
// Close the result with Close when done.
func Open(cfg Config) (embed.Embedder, error) { return OpenContext(context.Background(), cfg) }

// OpenContext is Open with a context for the remote dimension probe.
func OpenContext(ctx context.Context, cfg Config) (embed.Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch strings.ToLower(cfg.Provider) {
	case None:
		return nil, nil
	case Ollama, OpenAI:
		return openRemote(ctx, cfg, false)
	}
	return openUSE(cfg)
}

// openUSE finds the assets (flag, env, cache) and loads the local model.
func openUSE(cfg Config) (embed.Embedder, error) {
	opts, err := useOptions(cfg)
	if err != nil {
		return nil, err
	}
	m, err := sentenceencoder.New(opts)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// openRemote builds a remote embedder and, unless the dimension is the
// index's (IndexModel), probes the server once so ModelID and Dim are
// right before anything is stored: a configured dimension the server
// contradicts is refused here, before an index is touched. quick is a
// search's: it probes on a search's budget, and only for an unknown
// dimension (the query's answer checks a configured one).
func openRemote(ctx context.Context, cfg Config, quick bool) (embed.Embedder, error) {
	e, err := newRemote(cfg)
	if err != nil {
		return nil, err
	}
	if e.TakeDim(cfg.IndexModel) {
		return e, nil
	}
	switch {
	case quick && e.Dim() == 0:
		err = e.QuickProbe(ctx)
	case !quick:
		err = e.Confirm(ctx)
	}
	if err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// newRemote builds the server's embedder cfg names, without contacting it.
func newRemote(cfg Config) (*remote.Embedder, error) {
	api := remote.API(strings.ToLower(cfg.Provider))
	key := cfg.APIKey
	if key == "" && api == remote.OpenAI {
		key = cfg.openAIKey
	}
	return remote.New(remote.Options{
		API: api, URL: cfg.URL, Model: cfg.Model, APIKey: key, Dim: cfg.Dim,
		BatchSize: cfg.BatchSize, MaxTokens: cfg.MaxTokens, Timeout: cfg.Timeout, QueryTimeout: cfg.QueryTimeout,
		Parallel: cfg.Parallel,
	})
}

// Close closes e if it holds resources (the local model does); nil is fine.
func Close(e embed.Embedder) error {
	if c, ok := e.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
