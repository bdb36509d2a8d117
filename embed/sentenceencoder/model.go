package sentenceencoder

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

// ModelID names the model at float32; the index stores it, so a change
// re-embeds. Model.ModelID adds the precision when it is not float32.
const ModelID = "use-lite-0.2.0"

const (
	// Dimension is the length of every vector.
	Dimension = 512
	// Window is the number of tokens the model reads; later tokens are
	// dropped.
	Window = 128
	// DefaultBatchSize is the number of texts per inference call.
	DefaultBatchSize = 8
)

// The fixes New names by default: for a missing model directory, and for
// files that are there but cannot be loaded (Options.LibHint, ModelHint).
const (
	hintNoModel = setupHint + ", or set " + EnvModelDir + " to the model directory"
	hintLib     = verifyHint + ", or set " + EnvORTLib + " to a working libonnxruntime.so.1"
	hintModel   = verifyHint + ", or set " + EnvModelDir + " to a good model directory"
)

// Options configure New. Zero values pick the defaults.
type Options struct {
	LibPath   string    // ONNX Runtime library; default $MDSEARCH_ORT_LIB, then the asset cache
	ModelDir  string    // model.json, weight shards and vocab.json; default $MDSEARCH_MODEL_DIR, then the asset cache
	Threads   int       // CPU threads for inference, in all; default the number of CPUs (see sessionPool)
	BatchSize int       // texts per inference call; default DefaultBatchSize
	Precision Precision // projection arithmetic; default DefaultPrecision
	CacheDir  string    // mdsearch's cache root, for what New remembers between runs; default $MDSEARCH_HOME, then ~/.cache/mdsearch
	// LibHint and ModelHint fix a library or model file that is there but
	// cannot be loaded; the caller knows where it found them (the cache,
	// which `mdsearch setup --verify` repairs, or a path the user gave).
	// Default: hintLib and hintModel.
	LibHint, ModelHint string
}

// Model is the Universal Sentence Encoder lite running in ONNX Runtime. It
// implements embed.Embedder and is safe for concurrent use.
type Model struct {
	tok       *Tokenizer
	batchSize int
	precision Precision
	truncated atomic.Int64

	mu   sync.RWMutex // Close waits for running Embed calls
	pool *sessionPool // nil once closed
}

var (
	_ embed.Embedder     = (*Model)(nil)
	_ embed.RangeCounter = (*Model)(nil)
	_ embed.Concurrent   = (*Model)(nil)
	_ embed.RangeCounter = (*Tokenizer)(nil)
)

// New loads ONNX Runtime and the model, building and caching model.onnx in
// the model directory on first use. Missing or damaged assets give an
// *mdsearch.Error of kind KindUnavailable whose hint names the fix.
func New(opts Options) (*Model, error) {
	lib, dir := resolvePaths(opts.LibPath, opts.ModelDir)
	threads := opts.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	prec, err := ParsePrecision(string(opts.Precision))
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "load embedding model", "", "use float32 or int8", "%v", err)
	}
	// The vocabulary loads while ONNX Runtime starts the session: on two
	// cores that hides it from a command that loads the model for one query.
	vocab := make(chan vocabResult, 1)
	go func() {
		tok, err := loadVocab(dir)
		vocab <- vocabResult{tok, err}
	}()
	libHint, modelHint := cmp.Or(opts.LibHint, hintLib), cmp.Or(opts.ModelHint, hintModel)
	if err := initRuntime(lib); err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "load ONNX Runtime", lib, libHint, "%v", trimPath(err, lib))
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "load embedding model", dir, hintNoModel, "no such directory")
	}
	v := sync.OnceValue(func() vocabResult { return <-vocab })
	cache := opts.CacheDir
	if cache == "" {
		cache = cacheHome()
	}
	pool, err := openModel(dir, cache, threads, func() (int, error) {
		if v().err != nil {
			return 0, v().err
		}
		return v().tok.VocabSize(), nil
	}, prec)
	if v().err != nil { // the vocabulary's error first, as when it loaded first
		if pool != nil {
			pool.close()
		}
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "load embedding model", dir, modelHint, "%v", v().err)
	}
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "load embedding model", dir, modelHint, "%v", err)
	}
	return &Model{tok: v().tok, batchSize: batch, precision: prec, pool: pool}, nil
}

// vocabResult is what loadVocab returned.
type vocabResult struct {
	tok *Tokenizer
	err error
}

// loadVocab reads the tokenizer from dir/vocab.json.
func loadVocab(dir string) (*Tokenizer, error) {
	data, err := readModelFile(dir, "vocab.json")
	if err != nil {
		return nil, err
	}
	tok, err := parseVocab(data)
	if err != nil {
		return nil, fmt.Errorf("vocab.json: %w", err)
	}
	return tok, nil
}

// trimPath drops a leading "path: " from err's message, since the
// mdsearch.Error already names the path.
func trimPath(err error, path string) error {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Err
	}
	return err
}

// Dim implements embed.Embedder.
func (m *Model) Dim() int { return Dimension }

// MaxTokens implements embed.Embedder.
func (m *Model) MaxTokens() int { return Window }

// ModelID implements embed.Embedder: ModelID, plus "-int8-row" at Int8.
func (m *Model) ModelID() string { return m.precision.ModelID() }

// Precision is the arithmetic the model runs at.
func (m *Model) Precision() Precision { return m.precision }

// CountTokens implements embed.Embedder: the number of tokens of text
// before truncation to the window.
func (m *Model) CountTokens(text string) int { return m.tok.Count(text) }

// Unread implements embed.Vocabulary.
func (m *Model) Unread(text string) float64 { return m.tok.Unread(text) }

// Knows implements embed.Lexicon.
func (m *Model) Knows(word string) bool { return m.tok.Knows(word) }

// Ranges implements embed.RangeCounter with the same counts as
// CountTokens.
func (m *Model) Ranges(text string, skip [][2]int) embed.Ranges { return m.tok.Ranges(text, skip) }

// Truncated is the number of inputs so far that were longer than the window
// and were cut to it.
func (m *Model) Truncated() int64 { return m.truncated.Load() }

// Close releases the ONNX Runtime sessions. It waits for running Embed
// calls.
func (m *Model) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pool == nil {
		return nil
	}
	err := m.pool.close()
	m.pool = nil
	return err
}

// Concurrency implements embed.Concurrent: Embed calls run side by side on
// as many sessions.
func (m *Model) Concurrency() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.pool == nil {
		return 1
	}
	return m.pool.size()
}

// Embed implements embed.Embedder. Texts are tokenized, sorted by length
// and run in batches of similar lengths, so little time goes to padding;
// the batches run side by side on the pool's sessions. Cancelling ctx stops
// before the next batch. An empty text gets the model's vector for zero
// tokens.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	seqs := make([][]int32, len(texts))
	for i, text := range texts {
		ids, n := m.tok.EncodeLimit(text, Window)
		if n > Window {
			m.truncated.Add(1)
		}
		seqs[i] = ids
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.pool == nil {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "embed", "", "", "model is closed")
	}
	order := lengthOrder(seqs)
	var batches [][]int
	for start := 0; start < len(order); start += m.batchSize {
		batches = append(batches, order[start:min(start+m.batchSize, len(order))])
	}
	flat := make([]float32, len(texts)*Dimension)
	err := m.runBatches(ctx, batches, func(b *batch, rows []int) {
		for r, i := range rows {
			v := flat[i*Dimension : (i+1)*Dimension : (i+1)*Dimension]
			copy(v, b.out[r*Dimension:])
			embed.Normalize(v)
			out[i] = v
		}
	}, seqs)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// runBatches runs the batches of rows of seqs on up to the pool's size of
// sessions at once, handing each result to done (rows apart, so done
// writes apart). It stops at the first error or when ctx ends. A single
// batch (a query) never waits for a session: it shares a busy one, as
// waiting could mean waiting for a whole index call.
func (m *Model) runBatches(ctx context.Context, batches [][]int, done func(*batch, []int), seqs [][]int32) error {
	if len(batches) == 1 {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, owned, err := m.pool.acquireOrShare()
		if err != nil {
			return err
		}
		if owned {
			defer m.pool.release(s)
		}
		return runBatch(s, new(batch), seqs, batches[0], done)
	}
	next := make(chan []int, len(batches))
	for _, rows := range batches {
		next <- rows
	}
	close(next)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		errMu sync.Mutex
		first error
	)
	fail := func(err error) {
		errMu.Lock()
		if first == nil {
			first = err
		}
		errMu.Unlock()
		cancel()
	}
	for range min(len(batches), m.pool.size()) {
		wg.Go(func() {
			s, err := m.pool.acquire(ctx)
			if err != nil {
				fail(err)
				return
			}
			defer m.pool.release(s)
			var b batch
			for rows := range next {
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				if err := runBatch(s, &b, seqs, rows, done); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// runBatch runs the rows of seqs as batch b on session s and hands the
// result to done.
func runBatch(s *ort.DynamicAdvancedSession, b *batch, seqs [][]int32, rows []int, done func(*batch, []int)) error {
	b.fill(seqs, rows)
	if _, err := b.run(s); err != nil {
		return mdsearch.Errorf(mdsearch.KindInternal, "embed", "", "", "%v", err)
	}
	done(b, rows)
	return nil
}

// lengthOrder returns the indices of seqs sorted by length, so each batch
// holds sequences of similar length.
func lengthOrder(seqs [][]int32) []int {
	order := make([]int, len(seqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(seqs[a]) - len(seqs[b]) })
	return order
}

// batch holds the padded model inputs for one inference call.
type batch struct {
	rows, seq int
	ids       []int64
	mask      []float32
	out       []float32
}

// fill pads the sequences seqs[rows...] to the longest of them (at least
// one position, so a batch of empty texts is still a valid input).
func (b *batch) fill(seqs [][]int32, rows []int) {
	b.rows, b.seq = len(rows), 1
	for _, i := range rows {
		b.seq = max(b.seq, len(seqs[i]))
	}
	n := b.rows * b.seq
	b.ids = slices.Grow(b.ids[:0], n)[:n]
	b.mask = slices.Grow(b.mask[:0], n)[:n]
	clear(b.ids)
	clear(b.mask)
	for r, i := range rows {
		for j, id := range seqs[i] {
			b.ids[r*b.seq+j] = int64(id)
			b.mask[r*b.seq+j] = 1
		}
	}
	b.out = slices.Grow(b.out[:0], b.rows*Dimension)[:b.rows*Dimension]
}

// run executes the session on the batch and returns rows×Dimension floats.
func (b *batch) run(s *ort.DynamicAdvancedSession) ([]float32, error) {
	shape := ort.NewShape(int64(b.rows), int64(b.seq))
	ids, err := ort.NewTensor(shape, b.ids)
	if err != nil {
		return nil, err
	}
	defer ids.Destroy()
	mask, err := ort.NewTensor(shape, b.mask)
	if err != nil {
		return nil, err
	}
	defer mask.Destroy()
	out, err := ort.NewTensor(ort.NewShape(int64(b.rows), Dimension), b.out)
	if err != nil {
		return nil, err
	}
	defer out.Destroy()
	if err := s.Run([]ort.Value{ids, mask}, []ort.Value{out}); err != nil {
		return nil, err
	}
	return b.out, nil
}
