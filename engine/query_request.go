package engine

import (
	"regexp"
	"strconv"
	"strings"
)

// A request frame is how a query opening asks the search for notes, not
// what is in them: "list notes about backups", "find my notes on the NAS",
// "which pages mention sourdough", "show me everything about X". Its
// words are in no answer ("list", "notes", "mention"), so, read as words
// to find, they made the answer look weak: the right note scored 7 % where
// "backups" alone scores 99 %, with a notice that the notes most likely
// do not hold it. The frame is taken off the query's start, and the
// search says so. Only a whole frame is: a verb without a noun for notes
// and a word such as "about" after it ("list comprehension", "find
// command", "release notes") is words of the query. "Files" and
// "documents" are no such nouns: "find files on linux" asks about files.
var requestFrames = func() []*regexp.Regexp {
	const (
		verb   = `(?:please\s+)?(?:list|find|show(?:\s+me)?|search(?:\s+for)?|look\s+(?:up|for)|get(?:\s+me)?|give\s+me|pull\s+up|fetch)\s+`
		det    = `(?:(?:all|every|any|my|the|some|of)\s+)*`
		noun   = `(?:notes?|pages?|docs|entries|articles?|everything|anything)`
		about  = `\s+(?:about|on|regarding|mentioning|covering|related\s+to|referring\s+to|(?:that|which)\s+(?:mentions?|covers?|discuss(?:es)?|talks?\s+about))\s+`
		which  = `(?:which|what)\s+` + noun + `\s+(?:mentions?|covers?|discuss(?:es)?|explains?|describes?|talks?\s+about|(?:is|are)\s+about|says?\s+about|refers?\s+to|contains?)\s+`
		showMe = `(?:please\s+)?show\s+me\s+`
	)
	var out []*regexp.Regexp
	for _, p := range []string{verb + det + noun + about, det + noun + about, which, showMe} {
		out = append(out, regexp.MustCompile(`(?i)^`+p))
	}
	return out
}()

// requestFrame splits a query into the frame that opens it, "" where none
// does, and the rest; a frame with nothing after it is no frame.
func requestFrame(query string) (frame, rest string) {
	for _, re := range requestFrames {
		if m := re.FindString(query); m != "" && strings.TrimSpace(query[len(m):]) != "" {
			return strings.TrimSpace(m), query[len(m):]
		}
	}
	return "", query
}

// frameNotice says the frame was read as a request, or is "".
func frameNotice(frame, rest string) string {
	if frame == "" {
		return ""
	}
	return strconv.Quote(frame) + " was read as asking for notes, not as words to find in them: searched for " + strconv.Quote(rest)
}
