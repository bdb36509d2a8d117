package provider

import (
	"context"
	"sync"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/remote"
)

// OpenBackground is Open for a long-running process (serve, mcp, watch):
// a server's dimension that is neither configured nor the index's is
// asked for in the background, not before the process listens, where a
// hung server held its start for minutes on indexing's patience. Until
// the server answers, Ready says why semantic search waits, and an index
// run's Confirm waits for the answer. report hears a failed probe, once
// for each distinct error; it may be nil.
func OpenBackground(cfg Config, report func(error)) (embed.Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Remote() {
		return Open(cfg)
	}
	e, err := newRemote(cfg)
	if err != nil {
		return nil, err
	}
	if e.Dim() != 0 || e.TakeDim(cfg.IndexModel) {
		return e, nil
	}
	b := &background{Embedder: e, report: report}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	b.mu.Lock()
	b.ask()
	b.mu.Unlock()
	return b, nil
}

// background is a server's embedder whose dimension a probe in the
// background learns. It asks again when a search or an index run comes
// after a failed probe: a server started later is then found without a
// restart.
type background struct {
	*remote.Embedder
	report func(error)
	ctx    context.Context // ends at Close, and with it a probe still waiting
	cancel context.CancelFunc
	probes sync.WaitGroup

	mu     sync.Mutex
	asking chan struct{} // closed when the running probe ends; nil while none runs
	err    error         // the last probe's failure, until one succeeds
	said   string        // the failure last reported
}

var (
	_ embed.Readier   = (*background)(nil)
	_ embed.Confirmer = (*background)(nil)
)

// ask starts a probe and returns what closes when it ends; b.mu is held.
// Once closed, b asks nothing more.
func (b *background) ask() chan struct{} {
	done := make(chan struct{})
	if err := b.ctx.Err(); err != nil {
		b.err = err
		close(done)
		return done
	}
	b.asking = done
	b.probes.Add(1)
	go func() {
		defer b.probes.Done()
		err := b.Embedder.Confirm(b.ctx)
		b.mu.Lock()
		b.asking, b.err = nil, err
		say := err != nil && b.ctx.Err() == nil && err.Error() != b.said
		if say {
			b.said = err.Error()
		}
		b.mu.Unlock()
		close(done)
		if say && b.report != nil {
			b.report(err)
		}
	}()
	return done
}

// Ready implements embed.Readier: nil once the dimension is known, else
// the last probe's failure, or that none has been answered yet. After a
// failure it asks again, in the background.
func (b *background) Ready() error {
	if b.Dim() != 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	err := b.err
	if b.asking == nil {
		b.ask()
	}
	if err == nil {
		err = b.Unanswered()
	}
	return err
}

// Confirm implements embed.Confirmer: it waits for the probe running, or
// asks again after a failed one, until ctx ends.
func (b *background) Confirm(ctx context.Context) error {
	if b.Dim() != 0 {
		return nil
	}
	b.mu.Lock()
	done := b.asking
	if done == nil {
		done = b.ask()
	}
	b.mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if b.Dim() != 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Close ends a probe still waiting, then closes the embedder.
func (b *background) Close() error {
	b.cancel()
	b.probes.Wait()
	return b.Embedder.Close()
}
