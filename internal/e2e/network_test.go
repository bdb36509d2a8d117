package e2e

import (
	"bufio"
	"net/http"
	"net/url"
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

// telemetryDelay is how long a server must run for ONNX Runtime's
// telemetry to have tried to resolve its host (about 9 s after start).
const telemetryDelay = 12 * time.Second

// TestNoNetworkAtRunTime traces every socket and file the binary opens
// while it loads the model, serves and answers searches, and fails on any
// contact beyond the loopback listener: no DNS, no outbound connection, no
// read of the machine ID or of the command line (which holds the query).
func TestNoNetworkAtRunTime(t *testing.T) {
	strace := requireStrace(t)
	requireModel(t)
	f := newFixture(t)
	dir := t.TempDir()

	cases := []struct {
		name  string
		args  []string
		serve bool
	}{
		{"search", []string{"search", "--index", f.db, "restore drill for backups"}, false},
		{"serve", []string{"serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trace := filepath.Join(dir, c.name+".strace")
			args := append([]string{"-f", "-qq", "-e", "trace=network,openat,open", "-o", trace, bin}, c.args...)
			if c.serve {
				runTracedServer(t, strace, args)
			} else if out, err := exec.Command(strace, args...).CombinedOutput(); err != nil {
				t.Fatalf("strace mdsearch %s: %v\n%s", c.name, err, out)
			}
			if bad := forbiddenContacts(t, trace); len(bad) > 0 {
				t.Errorf("mdsearch %s reached beyond the machine or read private data:\n%s", c.name, strings.Join(bad, "\n"))
			}
		})
	}
}

// forbidden matches trace lines of contact mdsearch never makes: UDP
// sockets (DNS), the name-service cache, a connect to a non-loopback inet
// address, and reads of the machine ID or the command line.
var forbidden = []*regexp.Regexp{
	regexp.MustCompile(`socket\(AF_INET6?, SOCK_DGRAM`),
	regexp.MustCompile(`nscd`),
	regexp.MustCompile(`connect\(\d+, \{sa_family=AF_INET6?, [^}]*(inet_addr|inet_pton)\((AF_INET6, )?"([^"]+)"`),
	regexp.MustCompile(`/etc/machine-id|/proc/self/cmdline`),
}

var loopbackAddr = regexp.MustCompile(`"(127\.[0-9.]+|::1|::ffff:127\.[0-9.]+)"`)

func forbiddenContacts(t *testing.T, trace string) []string {
	t.Helper()
	fh, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var bad []string
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		for _, re := range forbidden {
			if re.MatchString(line) && !(strings.Contains(line, "connect(") && loopbackAddr.MatchString(line)) {
				bad = append(bad, line)
				break
			}
		}
	}
	return bad
}

// runTracedServer runs serve under strace past the telemetry delay,
// searching it over HTTP meanwhile, then stops it.
func runTracedServer(t *testing.T, strace string, args []string) {
	t.Helper()
	start := time.Now()
	cmd := exec.Command(strace, args...)
	// strace blocks fatal signals while it runs a program: SIGINT goes to
	// the whole group, so the traced server gets it too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := startCmd(t, "http://", cmd)
	p.group = true
	base := strings.TrimSuffix(urlRE.FindString(p.readyLine), "/")
	u := base + "/api/v1/semantic-search?q=" + url.QueryEscape("restore drill for backups")
	code, _, body := apiDo(t, http.DefaultClient, "GET", u)
	if code != http.StatusOK {
		t.Fatalf("search: %d %s", code, body)
	}
	time.Sleep(telemetryDelay - time.Since(start))
}

func requireStrace(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("strace")
	if err != nil {
		testenv.Absent(t, "strace is missing; install Debian's strace package to run this test")
	}
	if out, err := exec.Command(path, "-qq", "-o", "/dev/null", "true").CombinedOutput(); err != nil {
		testenv.Absent(t, "strace cannot trace here (%v): %s", err, out)
	}
	return path
}

// requireModel ends the test when the binary cannot load the local model.
func requireModel(t *testing.T) {
	t.Helper()
	if out, err := exec.Command(bin, "embed", "probe").CombinedOutput(); err != nil {
		testenv.Absent(t, "the local model does not load (run `mdsearch setup`): %v\n%s", err, out)
	}
}
