package sentenceencoder

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// hugeArgvEnv marks the child process of TestHugeCommandLine.
const hugeArgvEnv = "MDSEARCH_TEST_HUGE_ARGV"

// TestHugeCommandLine loads the model in a child process whose command line
// is about 1.5 MB. ONNX Runtime's telemetry used to parse /proc/self/cmdline
// with a recursive regex when the environment was created, and overflowed
// the stack (SIGSEGV) from about 29 KB of arguments.
func TestHugeCommandLine(t *testing.T) {
	if os.Getenv(hugeArgvEnv) == "1" {
		loadAndEmbed(t)
		return
	}
	testAssets(t)
	arg := strings.Repeat("word ", 20_000) // 100 KB, under the kernel's per-argument limit
	args := []string{"-test.run=^TestHugeCommandLine$", "--"}
	for range 15 {
		args = append(args, arg)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), hugeArgvEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("loading the model with a 1.5 MB command line: %v\n%s", err, tail(out, 2000))
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("child did not pass:\n%s", tail(out, 2000))
	}
}

func loadAndEmbed(t *testing.T) {
	testAssets(t)
	m, err := New(Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, err := m.Embed(context.Background(), []string{"a long command line"}); err != nil {
		t.Fatal(err)
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
