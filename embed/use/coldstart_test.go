package use

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// envColdStep makes the test binary run one cold-start step and exit (see
// TestColdStep); BenchmarkColdStart runs it in a new process each time.
const envColdStep = "MDSEARCH_COLD_STEP"

// coldSteps are what BenchmarkColdStart times, each in a fresh process:
// "process" starts the test binary and exits (the floor), "session" loads
// ONNX Runtime and opens a session on the cached graph and nothing else
// (the raw baseline), "new" is New as a command-line search calls it (with
// the stamp memo), "new-nomemo" is New hashing the tfjs files as it did
// before the memo, and "query" is New plus embedding one query.
var coldSteps = []string{"process", "session", "new", "new-nomemo", "query"}

// BenchmarkColdStart times loading the model from a cold process, the
// steps alternating in every iteration so that other load on the machine
// falls on all alike. Each reports ms/op of wall time for its process.
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
	spent := make([]time.Duration, len(coldSteps))
	for b.Loop() {
		for i, step := range coldSteps {
			start := time.Now()
			if out, err := coldStep(self, step); err != nil {
				b.Fatalf("%s: %v: %s", step, err, out)
			}
			spent[i] += time.Since(start)
		}
	}
	for i, step := range coldSteps {
		b.ReportMetric(float64(spent[i].Microseconds())/1000/float64(b.N), step+"-ms/op")
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
	case "session":
		if err := initRuntime(lib); err != nil {
			return err
		}
		s, err := newSession(filepath.Join(dir, DefaultPrecision.onnxName()), nil, sessionConfig{threads: 1})
		if err != nil {
			return err
		}
		return s.Destroy()
	case "new", "new-nomemo", "query":
		cache := ""
		if step == "new-nomemo" {
			cache = t.TempDir() // an empty cache root: no memo, so New hashes
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
