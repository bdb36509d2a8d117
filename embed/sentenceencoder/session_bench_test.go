package sentenceencoder

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"
)

// sessionVariants are the session options BenchmarkSessionOptions
// compares; "default" is what openModel uses, the baseline. "fresh" is the
// default session with tensors created for every run, as Embed does, so
// its gap to "default" bounds what reusing bound tensors could gain.
var sessionVariants = []struct {
	name  string
	cfg   sessionConfig
	fresh bool
}{
	{name: "default"},
	{name: "extended", cfg: sessionConfig{optLevel: ort.GraphOptimizationLevelEnableExtended}},
	{name: "basic", cfg: sessionConfig{optLevel: ort.GraphOptimizationLevelEnableBasic}},
	{name: "threads1", cfg: sessionConfig{threads: 1}},
	{name: "noarena", cfg: sessionConfig{noArena: true}},
	{name: "nopattern", cfg: sessionConfig{noPattern: true}},
	{name: "fresh", fresh: true},
}

// BenchmarkSessionOptions runs the same window-sized batches through one
// session per variant, interleaved in every iteration so that load from
// other processes falls on all variants alike, and reports each variant's
// embeddings/s.
func BenchmarkSessionOptions(b *testing.B) {
	for _, prec := range precisions {
		b.Run(string(prec), func(b *testing.B) { benchSessionOptions(b, prec) })
	}
}

func benchSessionOptions(b *testing.B, prec Precision) {
	_, dir := testAssets(b)
	m := testModel(b, Options{Precision: prec, ModelDir: dir}) // builds the cached graph
	path := filepath.Join(dir, prec.onnxName())
	batches, prepared := prepareBatches(b, m.tok)
	sessions := make([]*ort.DynamicAdvancedSession, len(sessionVariants))
	for i, v := range sessionVariants {
		cfg := v.cfg
		if cfg.threads == 0 {
			cfg.threads = runtime.NumCPU()
		}
		s, err := newSession(path, nil, cfg)
		if err != nil {
			b.Fatalf("%s: %v", v.name, err)
		}
		b.Cleanup(func() { s.Destroy() })
		sessions[i] = s
	}
	spent := make([]time.Duration, len(sessionVariants))
	for b.Loop() {
		for i, v := range sessionVariants {
			start := time.Now()
			for k, p := range prepared {
				var err error
				if v.fresh {
					_, err = batches[k].run(sessions[i])
				} else {
					err = sessions[i].Run(p[:2], p[2:])
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			spent[i] += time.Since(start)
		}
	}
	for i, v := range sessionVariants {
		b.ReportMetric(float64(b.N*benchTexts)/spent[i].Seconds(), v.name+"-emb/s")
	}
}

// prepareBatches cuts benchTexts window-sized texts into padded batches
// and their input and output tensors (ids, mask, out), as Embed would.
func prepareBatches(b *testing.B, tok *Tokenizer) ([]*batch, [][]ort.Value) {
	return prepareN(b, tok, benchTexts)
}

// prepareRuns is prepareBatches of n texts, the tensors alone.
func prepareRuns(b testing.TB, tok *Tokenizer, n int) [][]ort.Value {
	_, runs := prepareN(b, tok, n)
	return runs
}

func prepareN(b testing.TB, tok *Tokenizer, n int) ([]*batch, [][]ort.Value) {
	chunks := benchChunks(b, tok, n)
	seqs := make([][]int32, len(chunks))
	for i, c := range chunks {
		seqs[i], _ = tok.EncodeLimit(c, Window)
	}
	order := lengthOrder(seqs)
	var batches []*batch
	var prepared [][]ort.Value
	for start := 0; start < len(order); start += DefaultBatchSize {
		bt := &batch{}
		bt.fill(seqs, order[start:min(start+DefaultBatchSize, len(order))])
		shape := ort.NewShape(int64(bt.rows), int64(bt.seq))
		ids, err1 := ort.NewTensor(shape, bt.ids)
		mask, err2 := ort.NewTensor(shape, bt.mask)
		out, err3 := ort.NewTensor(ort.NewShape(int64(bt.rows), Dimension), bt.out)
		if err1 != nil || err2 != nil || err3 != nil {
			b.Fatal(err1, err2, err3)
		}
		b.Cleanup(func() { ids.Destroy(); mask.Destroy(); out.Destroy() })
		batches = append(batches, bt)
		prepared = append(prepared, []ort.Value{ids, mask, out})
	}
	return batches, prepared
}

// BenchmarkPrecisionInterleaved runs the same batches at every precision
// in turn within every iteration, so all see the same load from other
// processes, and reports each one's embeddings/s and its speed-up over
// float32.
func BenchmarkPrecisionInterleaved(b *testing.B) {
	models := make([]*Model, len(precisions))
	for i, prec := range precisions {
		models[i] = testModel(b, Options{Precision: prec})
	}
	_, prepared := prepareBatches(b, models[0].tok)
	spent := make([]time.Duration, len(models))
	for b.Loop() {
		for i, m := range models {
			start := time.Now()
			runSideBySide(b, m, prepared)
			spent[i] += time.Since(start)
		}
	}
	for i, prec := range precisions {
		b.ReportMetric(float64(b.N*benchTexts)/spent[i].Seconds(), string(prec)+"-emb/s")
	}
	for i, prec := range precisions[1:] {
		b.ReportMetric(spent[0].Seconds()/spent[i+1].Seconds(), string(prec)+"/"+string(precisions[0]))
	}
}

// sideTexts is how many window-sized texts BenchmarkSessionsSideBySide
// embeds per round: many batches, as a cold index has.
const sideTexts = 1024

// BenchmarkSessionsSideBySide compares the ways to spend the CPUs on many
// batches of window-sized int8 texts, interleaved in every round: one
// session on every thread running the batches in turn (one-session), and
// as many single-thread sessions as threads, each taking every n-th batch
// (side-by-side, what the session pool does). It reports embeddings/s of
// each and their ratio.
func BenchmarkSessionsSideBySide(b *testing.B) {
	_, dir := testAssets(b)
	m := testModel(b, Options{Precision: Int8, ModelDir: dir})
	path := filepath.Join(dir, Int8.onnxName())
	runs := prepareRuns(b, m.tok, sideTexts)
	threads := runtime.NumCPU()
	open := func(threads int) *ort.DynamicAdvancedSession {
		s, err := newSession(path, nil, sessionConfig{threads: threads})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Destroy() })
		return s
	}
	one := open(threads)
	var side []*ort.DynamicAdvancedSession
	for range threads {
		side = append(side, open(1))
	}
	var tOne, tSide time.Duration
	for b.Loop() {
		start := time.Now()
		for _, r := range runs {
			if err := one.Run(r[:2], r[2:]); err != nil {
				b.Fatal(err)
			}
		}
		tOne += time.Since(start)
		start = time.Now()
		runStrided(b, side, runs)
		tSide += time.Since(start)
	}
	b.ReportMetric(float64(b.N*sideTexts)/tOne.Seconds(), "one-session-emb/s")
	b.ReportMetric(float64(b.N*sideTexts)/tSide.Seconds(), "side-by-side-emb/s")
	b.ReportMetric(tOne.Seconds()/tSide.Seconds(), "side/one")
}
