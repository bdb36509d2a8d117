package vault

import (
	"path"
	"regexp"
	"strings"
)

// ConflictOriginal is the path of the note that path is a sync tool's
// conflict copy of, and true; or "", false for a path no tool names so.
// Syncthing keeps the losing side of an edit made on two devices as
// "note.sync-conflict-20240102-150405-ABCDEF1.md"; Dropbox and Nextcloud
// as "note (conflicted copy 2024-01-02).md" ("note (Ann's conflicted copy
// 2024-01-02).md"), ownCloud as "note_conflict-20240102-150405.md". Both
// copies are notes: a search shows the text they share once, and what
// the copy alone holds from it.
func ConflictOriginal(p string) (string, bool) {
	dir, name := path.Split(p)
	if !strings.Contains(strings.ToLower(name), "conflict") { // every name below holds it; a search asks often
		return "", false
	}
	for _, re := range conflictNames {
		if m := re.FindStringSubmatch(name); m != nil && m[1] != "" {
			return dir + m[1] + m[2], true
		}
	}
	return "", false
}

// conflictNames match a conflict copy's file name: the original's name
// without its extension, then its extension. Syncthing's device part is
// absent in its older copies; ownCloud and older Nextcloud write
// "_conflict-"; a Dropbox computer's name may hold parentheses ("MacBook
// Pro (2)"); a copy of a copy ends in " (1)".
var conflictNames = []*regexp.Regexp{
	regexp.MustCompile(`^(.+)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{0,7})?(?: \(\d+\))?(\.[^.]+)$`),
	regexp.MustCompile(`^(.+?) \((?:[^()]|\([^()]*\))*(?i:conflicted copy)(?:[^()]|\([^()]*\))*\)(?: \(\d+\))?(\.[^.]+)$`),
	regexp.MustCompile(`^(.+)_conflict-\d{8}-\d{6}(\.[^.]+)$`),
}
