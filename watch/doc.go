// Package watch keeps an index live: it watches every collection's folder
// with fsnotify and hands changed notes to the engine's Refresh, which
// re-indexes just those files, so a saved note is searchable within about a
// second and nothing is re-scanned.
//
// Watches are recursive: every folder of a collection gets one, and folders
// created later are added as they appear (their notes are refreshed too,
// since they may predate the watch). Hidden folders and the folders the
// indexer never walks (.obsidian, .git, .trash, node_modules) are not
// watched, and only .md and .markdown files count, hidden ones (an
// editor's lock file, ".#note.md") left out as the walk leaves them out.
// Events are debounced:
// a burst of saves becomes one Refresh per collection once the folder has
// been quiet for Debounce, or after MaxDelay at the latest. Ignore files
// (.mdsearchignore) are the engine's business; Refresh skips what they
// exclude, and an edit of one (or a change of its mode, which may make it
// readable again) makes the watcher catch up (an incremental
// index of the collection) once the edits settle, since it may add or
// remove notes anywhere below it. A folder that could not be watched (it
// could not be read) is watched once its mode changes and it can be, and
// the watcher catches up. A collection folder that is deleted or
// moved away is looked for every Recheck; when it is back (a re-clone), it
// is watched again and caught up. A Searcher that lists its collections
// cheaply (Lister) is asked every Recheck, so collections indexed or
// dropped while the watcher runs are watched (and caught up, for notes
// saved before their watch existed) or forgotten. Symlinked
// folders are indexed but not watched.
//
// Room 7 of the pipeline (docs/architecture.md): beside the adapters that
// serve (serve, mcp, watch), it keeps their index up to date.
package watch
