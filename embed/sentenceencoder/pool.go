package sentenceencoder

import (
	"context"
	"errors"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// maxSessions bounds the sessions of one Model: each holds its own copy of
// the weights and its own buffers.
const maxSessions = 4

// sessionPool hands out ONNX Runtime sessions of one graph, each running
// on a share of the threads. Batches that arrive together run on sessions
// side by side: with batches of window-sized texts, two sessions of one
// thread embed about 1.15× what one session of two threads does, which
// splits every operator across the cores and waits for the slower half
// (docs/benchmarks.md). Sessions open on demand, so a process that embeds
// one query at a time holds one, and a query shares a busy session rather
// than wait behind an index's batches.
type sessionPool struct {
	open func() (*ort.DynamicAdvancedSession, error)
	idle chan *ort.DynamicAdvancedSession

	mu     sync.Mutex
	max    int // lowered to the sessions open when opening another fails
	all    []*ort.DynamicAdvancedSession
	shared int // turns among the sessions lent busy
	closed bool

	onClose func() error // after the sessions are destroyed: release what they read
}

// errClosed is what a closed pool answers.
var errClosed = errors.New("model is closed")

// splitThreads shares threads among sessions: as many sessions as threads,
// up to maxSessions, and the threads left over spread over them.
func splitThreads(threads int) (sessions, each int) {
	sessions = max(1, min(threads, maxSessions))
	return sessions, max(1, threads/sessions)
}

// newSessionPool makes a pool of up to n sessions from first, already
// open, and open for the others.
func newSessionPool(first *ort.DynamicAdvancedSession, n int, open func() (*ort.DynamicAdvancedSession, error)) *sessionPool {
	p := &sessionPool{open: open, max: n, idle: make(chan *ort.DynamicAdvancedSession, n)}
	p.all = append(p.all, first)
	p.idle <- first
	return p
}

// acquire returns an idle session, opening one when none is idle and the
// pool is not full, else waiting for one.
func (p *sessionPool) acquire(ctx context.Context) (*ort.DynamicAdvancedSession, error) {
	if s, err := p.take(); s != nil || err != nil {
		return s, err
	}
	select {
	case s := <-p.idle:
		return s, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// acquireOrShare is acquire that does not wait: with every session busy it
// returns one to share (ONNX Runtime runs concurrent calls on a session),
// which the caller does not release (owned is false). A query's single
// batch so never waits behind the batches of an index being built.
func (p *sessionPool) acquireOrShare() (s *ort.DynamicAdvancedSession, owned bool, err error) {
	if s, err := p.take(); s != nil || err != nil {
		return s, true, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, false, errClosed
	}
	p.shared++
	return p.all[p.shared%len(p.all)], false, nil
}

// take returns an idle session, or a new one when the pool is not full;
// nil when every session is busy.
func (p *sessionPool) take() (*ort.DynamicAdvancedSession, error) {
	select {
	case s := <-p.idle:
		return s, nil
	default:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errClosed
	}
	if len(p.all) < p.max {
		s, err := p.open()
		if err == nil {
			p.all = append(p.all, s)
			return s, nil
		}
		// The graph opened once: make do with the sessions there are.
		p.max = len(p.all)
	}
	return nil, nil
}

// release gives a session back.
func (p *sessionPool) release(s *ort.DynamicAdvancedSession) { p.idle <- s }

// size is how many sessions the pool may hold: how many batches run at once.
func (p *sessionPool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.max
}

// opened is how many sessions the pool holds.
func (p *sessionPool) opened() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.all)
}

// close destroys every session. The caller makes sure none is in use.
func (p *sessionPool) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	for len(p.idle) > 0 {
		<-p.idle
	}
	var errs []error
	for _, s := range p.all {
		errs = append(errs, s.Destroy())
	}
	p.all = nil
	if p.onClose != nil {
		errs = append(errs, p.onClose())
	}
	return errors.Join(errs...)
}
