// Package wordcount counts words the one way every stage counts them: runs
// of non-space characters, with each character of a script written without
// spaces (Chinese, Japanese, Thai, …) a word of its own.
//
// Under the pipeline (docs/architecture.md), the floor of its rooms:
// sections counts the words of blocks and sections with it, chunks sizes
// passages by it, store spaces keyword text with its script classes, and
// the engine budgets reads by it.
// It imports nothing of mdsearch but internal/swar, so no stage has to reach
// through another (embed, say) for it.
package wordcount
