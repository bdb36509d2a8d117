package provider

import (
	"context"
	"os"
	"strings"

	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// OpenDeferred is Open for a process that embeds a query or two: the local
// model, found and checked at once, loads in the background, so the caller
// opens the index and reads its vectors meanwhile (on two cores, a command
// line search then costs the longer of the two, not their sum). ModelID,
// Dim and MaxTokens answer at once; the other methods wait for the load,
// and Embed returns its error, if any. A server's model is probed, if at
// all, on a search's budget; other providers open as with Open.
func OpenDeferred(cfg Config) (embed.Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch strings.ToLower(cfg.Provider) {
	case "", USE:
	case Ollama, OpenAI:
		return openRemote(context.Background(), cfg, true)
	default:
		return Open(cfg)
	}
	opts, err := useOptions(cfg)
	if err != nil {
		return nil, err
	}
	prec, _ := sentenceencoder.ParsePrecision(string(opts.Precision)) // checked by Validate
	d := &deferred{id: prec.ModelID(), done: make(chan struct{})}
	go func() {
		defer close(d.done)
		d.m, d.err = sentenceencoder.New(opts)
	}()
	return d, nil
}

// deferred is the local model while it loads.
type deferred struct {
	id   string
	done chan struct{}
	m    *sentenceencoder.Model // set with err before done closes
	err  error
}

var (
	_ embed.Embedder   = (*deferred)(nil)
	_ embed.Vocabulary = (*deferred)(nil)
)

func (d *deferred) wait() (*sentenceencoder.Model, error) {
	<-d.done
	return d.m, d.err
}

// Embed implements embed.Embedder.
func (d *deferred) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m, err := d.wait()
	if err != nil {
		return nil, err
	}
	return m.Embed(ctx, texts)
}

// Dim implements embed.Embedder.
func (d *deferred) Dim() int { return sentenceencoder.Dimension }

// MaxTokens implements embed.Embedder.
func (d *deferred) MaxTokens() int { return sentenceencoder.Window }

// ModelID implements embed.Embedder: the model's, known before it loads.
func (d *deferred) ModelID() string { return d.id }

// CountTokens implements embed.Embedder; without a model, it counts words.
func (d *deferred) CountTokens(text string) int {
	if m, err := d.wait(); err == nil {
		return m.CountTokens(text)
	}
	return wordcount.Count(text)
}

// Unread implements embed.Vocabulary; without a model, nothing is unread
// (Embed then fails, which says why).
func (d *deferred) Unread(text string) float64 {
	if m, err := d.wait(); err == nil {
		return m.Unread(text)
	}
	return 0
}

// Knows implements embed.Lexicon; without a model, no word is known.
func (d *deferred) Knows(word string) bool {
	if m, err := d.wait(); err == nil {
		return m.Knows(word)
	}
	return false
}

// Close waits for the load and closes the model.
func (d *deferred) Close() error {
	if m, err := d.wait(); err == nil {
		return m.Close()
	}
	return nil
}

// useOptions finds the local model's assets (flag, env, cache).
func useOptions(cfg Config) (sentenceencoder.Options, error) {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	p, err := assets.Locate(assets.Paths{LibPath: cfg.LibPath, ModelDir: cfg.ModelDir}, getenv)
	if err != nil {
		return sentenceencoder.Options{}, err
	}
	home, _ := assets.Home(getenv) // found, or Locate failed above unless both paths were given
	return sentenceencoder.Options{LibPath: p.LibPath, ModelDir: p.ModelDir, Threads: cfg.Threads,
		BatchSize: cfg.BatchSize, Precision: sentenceencoder.Precision(cfg.Precision), CacheDir: home,
		LibHint:   assets.RepairHint(home, p.LibPath, assets.ORT, "--ort-lib or "+assets.EnvORTLib),
		ModelHint: assets.RepairHint(home, p.ModelDir, assets.Model, "--model-dir or "+assets.EnvModelDir)}, nil
}
