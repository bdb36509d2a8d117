package rest

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch"
)

// ReindexState reports the background reindex: the one running, or the
// last one to finish.
type ReindexState struct {
	Running    bool                    `json:"running"`
	Full       bool                    `json:"full"`
	StartedAt  time.Time               `json:"started_at"`
	FinishedAt *time.Time              `json:"finished_at,omitempty"`
	Progress   *mdsearch.IndexProgress `json:"progress,omitempty"`
	Stats      []*mdsearch.IndexStats  `json:"stats,omitempty"`
	Error      string                  `json:"error,omitempty"`
}

// reindexer runs at most one reindex at a time, in the background.
type reindexer struct {
	mu     sync.Mutex
	state  *ReindexState // nil until the first reindex
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (ri *reindexer) init() {
	ri.ctx, ri.cancel = context.WithCancel(context.Background())
}

func (ri *reindexer) stop() {
	ri.cancel()
	ri.wg.Wait()
}

// snapshot copies the state, so callers can encode it without the lock.
func (ri *reindexer) snapshot() *ReindexState {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.state == nil {
		return nil
	}
	st := *ri.state
	if st.Progress != nil {
		p := *st.Progress
		st.Progress = &p
	}
	return &st
}

// start begins a reindex unless one is running; it reports whether it did.
func (ri *reindexer) start(srv *Server, full bool) (*ReindexState, bool) {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.state != nil && ri.state.Running {
		return ri.state, false
	}
	ri.state = &ReindexState{Running: true, Full: full, StartedAt: time.Now().UTC()}
	st := *ri.state
	ri.wg.Add(1)
	go func() {
		defer ri.wg.Done()
		stats, err := srv.s.IndexAll(ri.ctx, full, ri.setProgress)
		ri.finish(stats, err)
		switch {
		case err != nil && ri.ctx.Err() != nil: // the server is stopping: what was done is kept
			msg := "reindex stopped with the server; the index keeps what was done"
			if full {
				msg += " (the windows not embedded again keep their vectors; POST /api/v1/reindex?full=1 starts it over)"
			}
			srv.log.Info(msg, "err", err)
		case err != nil:
			srv.log.Error("reindex failed", "err", err)
		}
		if srv.opts.OnReindexed != nil {
			srv.opts.OnReindexed()
		}
	}()
	return &st, true
}

func (ri *reindexer) setProgress(p mdsearch.IndexProgress) {
	ri.mu.Lock()
	ri.state.Progress = &p
	ri.mu.Unlock()
}

func (ri *reindexer) finish(stats []*mdsearch.IndexStats, err error) {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	now := time.Now().UTC()
	ri.state.Running, ri.state.FinishedAt, ri.state.Stats = false, &now, stats
	if err != nil {
		ri.state.Error = err.Error()
	}
}

// handleReindex answers POST /api/v1/reindex[?full=1]: 202 when a reindex
// starts, 409 when one is already running, the engine's error (503 for an
// index deleted meanwhile) when the index cannot be read.
func (srv *Server) handleReindex(w http.ResponseWriter, r *http.Request) {
	vals, err := onlyParams(r.URL.RawQuery, "full")
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	full, err := boolParam(vals, "full") // as the notes endpoint reads it
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	// A reindex of an index that is gone or unusable would be accepted and
	// fail in the background; the engine's error says what to do now.
	// Status costs a stat of each note, as the reindex's own walk does.
	if _, err := srv.s.Status(r.Context()); err != nil {
		srv.writeEngineError(w, r, err)
		return
	}
	st, started := srv.reindex.start(srv, full)
	if !started {
		writeJSON(w, http.StatusConflict, struct {
			errorBody
			Reindex *ReindexState `json:"reindex"`
		}{errorBody{Error: "a reindex is already running; watch GET /api/v1/status", Kind: "conflict"}, srv.reindex.snapshot()})
		return
	}
	w.Header().Set("Location", "/api/v1/status")
	writeJSON(w, http.StatusAccepted, struct {
		Status  string        `json:"status"`
		Reindex *ReindexState `json:"reindex"`
	}{"started", st})
}

// StatusResponse is the engine's status plus the background reindex.
type StatusResponse struct {
	*mdsearch.Status
	Reindex *ReindexState `json:"reindex,omitempty"`
}

func (srv *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	if _, err := onlyParams(r.URL.RawQuery); err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	st, err := srv.s.Status(r.Context())
	if err != nil {
		srv.writeEngineError(w, r, err)
		return
	}
	ri := srv.reindex.snapshot()
	if st.Indexing == nil && ri != nil && ri.Running {
		st.Indexing = ri.Progress
	}
	writeJSON(w, http.StatusOK, StatusResponse{Status: st, Reindex: ri})
}
