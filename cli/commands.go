package cli

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// indexCommand matches a command a message tells the user to run, in
// backticks, of the commands that take --index.
var indexCommand = regexp.MustCompile("`mdsearch (?:index|drop|status|search|read|watch|serve|mcp)\\b[^`]*`")

// commands is msg, a notice, hint or error this command shows, with
// --index added to each command it names (`mdsearch index DIR`) when
// this command was given --index: pasted as it is, the command would
// work on the default index instead. A command that names an index
// already is left as it is; $MDSEARCH_INDEX, set in the shell, needs
// nothing.
func (env *Env) commands(msg string) string { return withIndex(msg, env.indexArg()) }

// withIndex is msg with --index index added to each command it names
// that takes one and names none; "" adds nothing.
func withIndex(msg, index string) string {
	if index == "" || !strings.Contains(msg, "`mdsearch ") {
		return msg
	}
	return indexCommand.ReplaceAllStringFunc(msg, func(cmd string) string {
		if strings.Contains(cmd, "--index") {
			return cmd
		}
		words := strings.SplitN(cmd, " ", 3) // "`mdsearch", the command, the rest
		out := words[0] + " " + strings.TrimSuffix(words[1], "`") + " --index " + shellWord(index)
		if len(words) == 3 {
			return out + " " + words[2]
		}
		return out + "`"
	})
}

// snakeWord matches a word of lower-case parts joined by underscores, as
// the request fields REST and MCP take are named (min_score).
var snakeWord = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)

// flagNames is a search notice with each request field it names that is
// a flag of fs ("lower min_score to see them") written as that flag
// (--min-score). Quoted text (the query's own words, quoted as Go quotes
// them) and a property a filter names (max_tokens="400") are left as
// they are.
func flagNames(fs *flag.FlagSet, msg string) string {
	var b strings.Builder
	for msg != "" {
		q := strings.IndexByte(msg, '"')
		if q < 0 {
			q = len(msg)
		}
		b.WriteString(flagsIn(fs, msg[:q]))
		msg = msg[q:]
		if msg == "" {
			break
		}
		quoted, err := strconv.QuotedPrefix(msg)
		if err != nil { // a quote never closed: the rest is as written
			quoted = msg
		}
		b.WriteString(quoted)
		msg = msg[len(quoted):]
	}
	return b.String()
}

// flagsIn is flagNames for text outside quotes.
func flagsIn(fs *flag.FlagSet, s string) string {
	var b strings.Builder
	last := 0
	for _, m := range snakeWord.FindAllStringIndex(s, -1) {
		name := strings.ReplaceAll(s[m[0]:m[1]], "_", "-")
		if fs.Lookup(name) == nil || m[1] < len(s) && (s[m[1]] == '=' || s[m[1]] == ':') {
			continue // no flag, or a property a filter names
		}
		b.WriteString(s[last:m[0]] + "--" + name)
		last = m[1]
	}
	return b.String() + s[last:]
}

// indexArg is the --index this command was given, or "".
func (env *Env) indexArg() string {
	if env.flags == nil || !flagSet(env.flags, "index") {
		return ""
	}
	return env.flags.Lookup("index").Value.String()
}

// readCommand is a cut result's read hint with the command that reads the
// rest (`mdsearch read PATH --lines 10-20`) in place of the answer's
// words for every adapter ("read COLLECTION:PATH, lines 10-20"), the
// collection named only where another holds the path, as the header
// names it.
func (env *Env) readCommand(r mdsearch.Result) string {
	why, _, ok := strings.Cut(r.ReadHint, ": read ")
	if !r.Truncated || !ok || r.RestFrom <= 0 || r.RestTo < r.RestFrom {
		return r.ReadHint
	}
	path := r.Path
	if r.ReadPath != "" {
		path = r.ReadPath
	}
	word := shellWord(path)
	if strings.HasPrefix(word, "~") { // a folder named ~, not the home folder
		word = "'" + word + "'"
	}
	// After "--" a path that starts with "-" is no flag.
	return why + ": " + env.commands(fmt.Sprintf("`mdsearch read --lines %d-%d -- %s`", r.RestFrom, r.RestTo, word))
}
