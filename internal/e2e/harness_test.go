package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// bin is the mdsearch binary built once for the whole package.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mdsearch-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "mdsearch")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mdsearch")
	build.Dir = filepath.Join("..", "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mdsearch:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// extraNotes join the sample vault in every fixture.
var extraNotes = map[string]string{
	"web/Escaping.md": "# Escaping\n\n" + strings.Repeat("This note checks that markup in notes is shown as text. ", 8) + "\n\n" +
		"## Beware <script>window.pwned=1</script> tags\n\n" +
		"The quokka canary heading must show as text, never run. <img src=x onerror=\"window.pwned=2\">\n" +
		strings.Repeat("A page that renders headings must escape them. ", 8) + "\n",
}

// fixture is a fresh copy of the sample vault, indexed by the binary.
type fixture struct {
	vault string // the collection's folder
	db    string // the index
	name  string // the collection's name
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	return newFixtureWith(t, nil)
}

// newFixtureWith is newFixture with more notes, by vault-relative path.
func newFixtureWith(t *testing.T, notes map[string]string) fixture {
	t.Helper()
	dir := t.TempDir()
	f := fixture{vault: filepath.Join(dir, "vault"), db: filepath.Join(dir, "index.db"), name: "vault"}
	copyDir(t, filepath.Join("..", "..", "sample-vault"), f.vault)
	for _, m := range []map[string]string{extraNotes, notes} {
		for rel, text := range m {
			writeNote(t, filepath.Join(f.vault, rel), text)
		}
	}
	out, err := exec.Command(bin, "index", f.vault, "--index", f.db).CombinedOutput()
	if err != nil {
		t.Fatalf("mdsearch index: %v\n%s", err, out)
	}
	return f
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeNote(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// proc is a running mdsearch child whose stderr is kept for failures.
type proc struct {
	cmd       *exec.Cmd
	stderr    *testenv.SyncBuffer
	done      chan struct{}
	readyLine string // the stderr line startCmd waited for
	group     bool   // signal the process group (cmd started with Setpgid)
}

var urlRE = regexp.MustCompile(`http://127\.0\.0\.1:\d+[^\s]*`)

// startServer runs the binary (serve, mcp --http or watch) and waits for
// the first stderr line matching ready; it returns the process and the
// first http:// URL on that line, if any. The process is stopped with
// SIGINT at cleanup, and must exit cleanly.
func startServer(t *testing.T, ready string, args ...string) (*proc, string) {
	t.Helper()
	p := startCmd(t, ready, exec.Command(bin, args...))
	return p, urlRE.FindString(p.readyLine)
}

// startCmd starts cmd and waits for the first stderr line containing
// ready, kept in readyLine. The process is stopped at cleanup.
func startCmd(t testing.TB, ready string, cmd *exec.Cmd) *proc {
	t.Helper()
	pr, pw := io.Pipe()
	p := &proc{cmd: cmd, stderr: &testenv.SyncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = io.MultiWriter(p.stderr, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		pw.Close()
		close(p.done)
	}()
	t.Cleanup(func() { p.stop(t) })

	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), ready) {
				found <- sc.Text()
				break
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case p.readyLine = <-found:
		return p
	case <-p.done:
		t.Fatalf("%v exited before %q:\n%s", cmd.Args, ready, p.stderr)
	case <-time.After(20 * time.Second):
		t.Fatalf("%v: no %q within 20 s:\n%s", cmd.Args, ready, p.stderr)
	}
	return nil
}

func (p *proc) stop(t testing.TB) {
	select {
	case <-p.done:
		if t.Failed() {
			t.Logf("stderr of %v:\n%s", p.cmd.Args, p.stderr)
		}
		return
	default:
	}
	p.signal(syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.signal(syscall.SIGKILL)
		<-p.done
		t.Errorf("%v did not exit within 10 s of SIGINT", p.cmd.Args)
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("%v exited with %d:\n%s", p.cmd.Args, code, p.stderr)
	} else if t.Failed() {
		t.Logf("stderr of %v:\n%s", p.cmd.Args, p.stderr)
	}
}

func (p *proc) signal(sig syscall.Signal) {
	if p.group {
		_ = syscall.Kill(-p.cmd.Process.Pid, sig)
		return
	}
	_ = p.cmd.Process.Signal(sig)
}

// eventually polls check every 50 ms until it passes or within elapses.
func eventually(t *testing.T, within time.Duration, what string, check func() (bool, string)) time.Duration {
	t.Helper()
	start := time.Now()
	last := ""
	for time.Since(start) < within {
		ok, detail := check()
		if ok {
			return time.Since(start)
		}
		last = detail
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: not within %v; last: %s", what, within, last)
	return 0
}

func timeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReader(r) }
