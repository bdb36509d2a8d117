// Package vault finds the notes of a vault (a folder of markdown) and
// resolves vault-relative paths safely.
//
// Walk lists .md and .markdown files. It skips .obsidian/, .git/, .trash/,
// node_modules/, every other hidden folder and every hidden file (a name
// starting with a dot, which Obsidian hides too: an editor's lock file
// such as Emacs's ".#note.md"), silently, honours .mdsearchignore
// files (gitignore syntax; a file in a subfolder applies below it), follows
// symlinks only while they stay inside the vault, walks each real directory
// once (so symlink loops end), lists each real note once (a symlink to a
// note listed under its own path is a duplicate), and skips files over the size limit, special
// files (FIFOs, sockets, devices) and, on reading, binary or unreadable files.
// Every skip carries a reason a person can act on. List also names what it
// could not look into (a folder it cannot list, a file it cannot stat), so
// an index keeps those notes rather than take them for deleted; a vault
// folder it cannot list is an error, and so is an ignore file it cannot
// read as UTF-8 patterns: taken for no rules, it would let in what it
// excludes.
//
// Resolve turns a user-supplied vault-relative path into a file path, and
// refuses "..", absolute paths and symlinks that lead out of the vault.
//
// ConflictOriginal names the note a sync tool's conflict copy was made
// of, so a search shows the text they share once.
//
// A LinkIndex resolves a note's links ([[Name]], [[folder/Name]], a
// relative markdown link) to vault paths as Obsidian does: the engine
// follows them for reads and the web page links them.
//
// Room 1 of the pipeline (docs/architecture.md): the first; it lists a
// vault's notes and reads them for sections.
package vault
