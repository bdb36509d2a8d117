package sentenceencoder

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// envColdStep makes the test binary run one cold-start step and exit (see
// TestColdStep); BenchmarkColdStart runs it in a new process each time.
const envColdStep = "MDSEARCH_COLD_STEP"

// coldSteps are what BenchmarkColdStart times, each in a fresh process:
// "process" starts the test binary and exits (the floor); "runtime" loads
// ONNX Runtime's library and environment, and nothing else; "session-onnx"
// loads ONNX Runtime and opens a session on the cached ONNX file, and
// "session-saved" on the saved optimised graph, and nothing else (the raw
// baselines); "new" is New as a command-line search calls it (stamp
// memoised, saved graph); "new-nocache" is New with a cache root it cannot
// use (hashing the tfjs files and opening the ONNX file, as before either
// cache); "query" is New plus embedding one query.
var coldSteps = []string{"process", "runtime", "session-onnx", "session-saved", "new", "new-nocache", "query"}

// BenchmarkColdStart times loading the model from a cold process, the
// steps alternating in every iteration so that other load on the machine
// falls on all alike. Each reports the median wall time of its process
// (a stall of a busy machine would swamp a mean).
func BenchmarkColdStart(b *testing.B) {
	testAssets(b)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	// One load first builds the cached graph and the memo.
	if out, err := coldStep(self, "query"); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	spent := make([][]time.Duration, len(coldSteps))
	for b.Loop() {
		for i, step := range coldSteps {
			start := time.Now()
			if out, err := coldStep(self, step); err != nil {
				b.Fatalf("%s: %v: %s", step, err, out)
			}
			spent[i] = append(spent[i], time.Since(start))
		}
	}
	for i, step := range coldSteps {
		slices.Sort(spent[i])
		b.ReportMetric(float64(spent[i][len(spent[i])/2].Microseconds())/1000, step+"-p50-ms")
	}
}

func coldStep(self, step string) ([]byte, error) {
	cmd := exec.Command(self, "-test.run=^TestColdStep$")
	cmd.Env = append(os.Environ(), envColdStep+"="+step)
	return cmd.CombinedOutput()
}

// TestColdStep is the child process of BenchmarkColdStart; it does nothing
// unless MDSEARCH_COLD_STEP names a step.
func TestColdStep(t *testing.T) {
	step := os.Getenv(envColdStep)
	if step == "" {
		t.Skip("runs as BenchmarkColdStart's child process")
	}
	if err := runColdStep(t, step); err != nil {
		t.Fatal(err)
	}
}

func runColdStep(t *testing.T, step string) error {
	lib, dir := testAssets(t)
	switch step {
	case "process":
		return nil
	case "runtime":
		return initRuntime(lib)
	case "session-onnx", "session-saved":
		return rawSession(lib, dir, step == "session-saved")
	case "new", "new-nocache", "query":
		cache := ""
		if step == "new-nocache" {
			cache = "/dev/null/cache" // nothing can be read or written there
		}
		m, err := New(Options{LibPath: lib, ModelDir: dir, CacheDir: cache})
		if err != nil {
			return err
		}
		defer m.Close()
		if step == "query" {
			_, err = m.Embed(context.Background(), []string{"how are closures captured"})
		}
		return err
	}
	return fmt.Errorf("unknown step %q", step)
}

// rawSession loads ONNX Runtime and opens one session of the default
// precision's cached graph: the ONNX file, or the saved optimised graph
// (mapped, used in place).
func rawSession(lib, dir string, saved bool) error {
	if err := initRuntime(lib); err != nil {
		return err
	}
	cfg := sessionConfig{threads: 1}
	if !saved {
		s, err := newSession(filepath.Join(dir, DefaultPrecision.onnxName()), nil, cfg)
		if err != nil {
			return err
		}
		return s.Destroy()
	}
	stamp, err := cachedSourceStamp(dir, cacheHome(), DefaultPrecision)
	if err != nil {
		return err
	}
	p, ok := openSaved(ortCachePath(cacheHome(), stamp, DefaultPrecision, cfg), 1, cfg)
	if !ok {
		return fmt.Errorf("no saved graph")
	}
	return p.close()
}
