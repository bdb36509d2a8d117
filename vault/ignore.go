package vault

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignorer holds the .mdsearchignore patterns in force for one folder: its
// own file's and every ancestor's, later (deeper) files winning.
type ignorer struct {
	patterns []gitignore.Pattern
	matcher  gitignore.Matcher
}

// load returns the ignorer for folder dir (vault-relative parts rel),
// adding the patterns of dir's own ignore file if it has one. The receiver
// is not modified, so sibling folders share their parent's patterns.
func (ig ignorer) load(dir string, rel []string) ignorer {
	data, err := os.ReadFile(filepath.Join(dir, IgnoreFile))
	if err != nil {
		return ig
	}
	ps := parseIgnore(data, rel)
	if len(ps) == 0 {
		return ig
	}
	all := make([]gitignore.Pattern, 0, len(ig.patterns)+len(ps))
	all = append(append(all, ig.patterns...), ps...)
	return ignorer{patterns: all, matcher: gitignore.NewMatcher(all)}
}

// match reports whether the vault-relative path parts are ignored.
func (ig ignorer) match(parts []string, isDir bool) bool {
	return ig.matcher != nil && ig.matcher.Match(parts, isDir)
}

// parseIgnore reads gitignore lines; domain is the folder they apply to.
func parseIgnore(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
