package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

func runRead(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "read", "PATH")
	section := fs.String("section", "", "print only this part: a section by its heading text, Parent/Child, Parent > Child or #anchor (/ the text before the first heading), or a block by its ^blockid")
	outline := fs.Bool("outline", false, "print the note's headings with their section paths and word counts")
	comments := fs.Bool("comments", false, "keep comments (%%…%%, <!--…-->) in the text (left out by default, their lines kept blank)")
	full := fs.Bool("full", false, fmt.Sprintf("print the whole note or section even when it is over %d words or %d KB (else its outline, or its start)", mdsearch.LongNoteWords, mdsearch.LongNoteBytes>>10))
	lines := fs.String("lines", "", "print only these lines: 40-80, 40- (to the end) or 40, as results' \"lines a–b\" name them")
	asJSON := fs.Bool("json", false, "print JSON")
	ef := addIndexFlags(fs)
	ef.readOnly = true
	fs.Lookup("max-file-size").Usage = "read a note up to this `size` (e.g. 20MB; none or 0 for no limit; " +
		"default: the limit its collection was indexed with, else 10MB)"
	pos, err := parseArgs(fs, args, -1, "one PATH, a note's path in its vault")
	if err != nil {
		return err
	}
	if len(pos) > 1 { // "read Backups.md Restore Drill": a section named without its flag
		return usagef("unexpected argument %q: give one PATH, a note's path in its vault, and a section with --section (read %s --section %s)",
			pos[1], shellWord(pos[0]), shellWord(strings.Join(pos[1:], " ")))
	}
	switch {
	case flagSet(fs, "section") && strings.TrimSpace(*section) == "":
		return usagef("--section is empty: name a section (its heading, Parent/Child, #anchor, or / for the text before the first heading), or leave --section out for the whole note")
	case flagSet(fs, "lines") && strings.TrimSpace(*lines) == "":
		return usagef("--lines is empty: name lines (40-80, 40- or 40), or leave --lines out for the whole note")
	case *outline && (*section != "" || *full || *lines != "" || *comments):
		return usagef("--outline prints the whole note's headings (its sizes as a read without comments returns it): leave out --section, --full, --lines and --comments")
	case *lines != "" && *section != "":
		return usagef("--lines and --section each name part of the note: pass one")
	case *lines != "":
		if _, _, err := mdsearch.ParseLines(*lines); err != nil {
			return usagef("--%v", err)
		}
	}
	e, closeAll, err := ef.open(ctx, env, false)
	if err != nil {
		return err
	}
	defer closeAll()
	var out any
	if *outline {
		o, err := e.Outline(ctx, pos[0])
		if err != nil {
			return requestError("read", err)
		}
		if !*asJSON {
			return render.Outline(screen(env.Stdout), o)
		}
		out = o
	} else {
		req := mdsearch.ReadRequest{Path: pos[0], Section: *section, Full: *full, Lines: *lines, Comments: *comments}
		r, err := e.Read(ctx, req)
		if err != nil {
			return requestError("read", err)
		}
		r.Notice = env.commands(r.Notice)
		if !*asJSON {
			printRead(env, r, r.Unit(req))
			return nil
		}
		r.Notice = mdsearch.JoinNotices(r.Notice, r.CommentsNotice(keepComments)) // as REST's and MCP's JSON say it
		out = r
	}
	return printJSON(env, out)
}

// keepComments is how read keeps the comments it leaves out.
const keepComments = "--comments"

// printRead prints a read's text, or the outline a long note is answered
// with; a notice goes to stderr so the text stays clean for pipes.
func printRead(env *Env, r *mdsearch.ReadResponse, whole string) {
	out := screen(env.Stdout)
	comments := r.CommentsNotice(keepComments)
	if r.Outline != nil { // a long note or section: say how, in this command's terms
		how := "--section PATH or #ANCHOR from the outline"
		if r.More {
			how += "; --lines " + r.Rest + " for the rest"
		}
		printNotice(env, mdsearch.JoinNotices(r.Notice+" ("+how+"; --full for the whole "+whole+")", comments))
		if r.Content != "" { // a section's own text comes first
			fmt.Fprintln(out, strings.TrimRight(r.Content, "\r\n")+"\n")
		}
		_ = render.Outline(out, r.AsOutline())
		return
	}
	if r.More { // the start of a long note or section: say how to read on
		printNotice(env, mdsearch.JoinNotices(r.Notice+fmt.Sprintf(" (--lines %s for the rest; --full for the whole %s)", r.Rest, whole), comments))
	} else {
		printNotice(env, mdsearch.JoinNotices(r.Notice, comments))
	}
	fmt.Fprint(out, r.Content)
	if !strings.HasSuffix(r.Content, "\n") {
		eol := "\n"
		if strings.Contains(r.Content, "\r\n") { // a CRLF note's last line ends as the others do
			eol = "\r\n"
		}
		fmt.Fprint(out, eol)
	}
}
