package notehtml

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// link resolves "Other" (and "Other.md") and nothing else.
func link(target, heading string, wiki bool) (string, bool) {
	if strings.TrimSuffix(target, ".md") != "Other" {
		return "", false
	}
	href := "#/note?path=Other.md"
	if heading != "" {
		href += "&heading=" + heading
	}
	return href, true
}

// attach resolves the attachments assets/diagram.png (by its name too)
// and draw.svg.
func attach(target string) (string, bool) {
	switch target {
	case "diagram.png", "assets/diagram.png", "../assets/diagram.png":
		return "/files/assets/diagram.png?c=v", true
	case "draw.svg":
		return "/files/draw.svg?c=v", true
	}
	return "", false
}

// tagHref is the page's address of a search by tag.
func tagHref(name string) string { return "#/search?tag=" + url.QueryEscape(name) }

func TestHTML(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the HTML
		not       []string // must not appear
	}{
		{"emphasis and strikethrough", "Some **bold**, *it* and ~~gone~~.", []string{"<strong>bold</strong>", "<em>it</em>", "<del>gone</del>"}, nil},
		// Obsidian strikes through with two tildes only; a heading's "1~3"
		// keeps its tilde in the index too.
		{"single tildes", "## Days 1~3\n\nFrom 10時~12時, ~one~ and ~~~three~~~ but ~~two~~.",
			[]string{"Days 1~3</h2>", "From 10時~12時, ~one~ and ~~~three~~~ but <del>two</del>."}, []string{"<del>one</del>", "<del>3", "<del>12"}},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n", []string{`<table data-line="1">`, "<th>a</th>", "<td>2</td>"}, nil},
		{"table alignment as classes", "| l | c | r | n |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n", []string{`<th class="align-left">l</th>`, `<th class="align-center">c</th>`, `<td class="align-right">3</td>`, "<td>4</td>"}, []string{"style=", "align="}},
		{"math kept as written", "Inline $a_1 \\\\ b_*x*$ and $\\$$ here.\n\n$$ \\begin{cases} x & y \\\\ z & w \\end{cases} $$\n\n$$\na_1 \\\\\nb_2 <c>\n$$\n\nCosts $5 and $10; $ x $ stays.",
			[]string{`Inline <code class="math">a_1 \\ b_*x*</code> and <code class="math">\$</code> here.`,
				`<code class="math display"> \begin{cases} x &amp; y \\ z &amp; w \end{cases} </code>`,
				"<code class=\"math display\">\na_1 \\\\\nb_2 &lt;c&gt;\n</code>", "Costs $5 and $10; $ x $ stays."}, []string{"<em>", "<c>"}},
		{"task list", "- [ ] todo\n- [x] done\n", []string{`<input disabled="" type="checkbox"> todo`, `<input checked="" disabled="" type="checkbox"> done`}, nil},
		{"heading ids", "# One\n\n## Two {#custom-id}\n\n## One\n\n## Über uns\n", []string{`<h1 id="one" data-line="1">One</h1>`, `<h2 id="custom-id" data-line="3">Two</h2>`, `<h2 id="one-1"`, `id="über-uns"`}, []string{"{#"}},
		{"heading attributes other than id dropped", `## A {onclick="alert(1)" .c style="x"}`, []string{`<h2 id="a" data-line="1">A</h2>`}, []string{"onclick", "style", "class"}},
		{"raw HTML omitted", "<script>alert(1)</script>\n\nText <img src=x onerror=\"alert(2)\"> more\n", []string{"Text", "more"}, []string{"<script", "<img", "onerror"}},
		{"dangerous link schemes dropped", "[a](javascript:alert(1)) [b](vbscript:x) <javascript:alert(3)>", []string{`<span class="removed-link" title="unsafe link removed">a</span>`, `<span class="removed-link" title="unsafe link removed">javascript:alert(3)</span>`}, []string{`href=`}},
		{"links keep titles and escape", `[t](https://example.org/?a=1&b="2" "Ti<t>le") <https://example.org/x?y=1&z=2> <me@example.org>`, []string{`<a href="https://example.org/?a=1&amp;b=%222%22" title="Ti&lt;t&gt;le">t</a>`, `<a href="https://example.org/x?y=1&amp;z=2">`, `<a href="mailto:me@example.org">me@example.org</a>`}, nil},
		{"external link kept", "[site](https://example.org/x)", []string{`<a href="https://example.org/x">site</a>`}, nil},
		{"images as text", "![a cat](https://example.org/cat.png)", []string{`<span class="embed" title="image not shown">a cat</span>`}, []string{"<img"}},
		{"code fence escaped", "```go\nfmt.Println(\"<b>\")\n```\n", []string{`<pre data-line="1"><code class="language-go">fmt.Println(&#34;&lt;b&gt;&#34;)`}, []string{"<b>"}},
		{"wikilink", "See [[Other]].", []string{`<a class="wikilink" href="#/note?path=Other.md">Other</a>`}, nil},
		{"wikilink heading and alias", "[[Other#Setup]] [[Other#Setup|the setup]]", []string{`href="#/note?path=Other.md&amp;heading=Setup">Other &gt; Setup</a>`, `>the setup</a>`}, nil},
		{"wikilink nested heading and block ref", "[[Other#A#B]] [[Other#^abc123]]", []string{`heading=B">`, `href="#/note?path=Other.md&amp;heading=^abc123">Other &gt; ^abc123</a>`}, nil},
		{"emoji tags", "Launch #🚀rocket and #👍🏽, not #tip!", []string{`<a class="tag" href="#/search?tag=%F0%9F%9A%80rocket">#🚀rocket</a>`,
			`<a class="tag" href="#/search?tag=%F0%9F%91%8D%F0%9F%8F%BD">#👍🏽</a>`, `<a class="tag" href="#/search?tag=tip">#tip</a>!`}, nil},
		{"tags", "A #tag, #nested/tag/ and **#bold**; #über_Größe. Not a#b, #123, C# or `#code`. [#in-link](Other)\n\n#first and\n#second",
			[]string{`A <a class="tag" href="#/search?tag=tag">#tag</a>, <a class="tag" href="#/search?tag=nested%2Ftag">#nested/tag/</a> and <strong><a class="tag" href="#/search?tag=bold">#bold</a></strong>`,
				`<a class="tag" href="#/search?tag=%C3%BCber_Gr%C3%B6%C3%9Fe">#über_Größe</a>.`, "Not a#b, #123, C# or <code>#code</code>.", `<a href="#/note?path=Other.md"><span class="tag">#in-link</span></a>`,
				`<p data-line="3"><a class="tag" href="#/search?tag=first">#first</a> and`, `<a class="tag" href="#/search?tag=second">#second</a></p>`}, nil},
		{"block ids", "Para **b** ^blk1\n\n- one\n- two ^item-2\n\n| a |\n|---|\n| 1 |\n\n^tbl\n\nText\n^own\n\nNot x^id, nor ^a_b.\n",
			[]string{`<p id="^blk1" data-line="1">Para <strong>b</strong></p>`, `<li id="^item-2">two</li>`, `<table id="^tbl" data-line="6">`, `<p id="^own" data-line="12">Text</p>`, "Not x^id, nor ^a_b."},
			[]string{"^blk1</p>", "^item-2</li>", "^tbl</p>", "^own</p>", `id="^id"`}},
		{"pdf and canvas links", "![[manual.pdf]], [[Board.canvas|the board]] and [[Release 1.2]]", []string{
			`<span class="wikilink embed unresolved" title="a .pdf file: the page shows notes and images only">manual.pdf</span>`,
			`<span class="wikilink unresolved" title="a .canvas file: the page shows notes and images only">the board</span>`,
			`<span class="wikilink unresolved" title="no note by this name">Release 1.2</span>`}, nil},
		{"unresolved wikilink", "[[Missing <b>]]", []string{`<span class="wikilink unresolved" title="no note by this name">Missing &lt;b&gt;</span>`}, []string{"<b>"}},
		{"embed", "![[Other]] ![[photo.png]]", []string{`<a class="wikilink embed" href="#/note?path=Other.md">Other</a>`,
			`<span class="wikilink embed unresolved" title="no image by this name in the vault">photo.png</span>`}, nil},
		{"link to an image", "[[diagram.png]] [[draw.svg|the drawing]] [[gone.png]]",
			[]string{`<a class="wikilink attachment" href="/files/assets/diagram.png?c=v">diagram.png</a>`,
				`<a class="wikilink attachment" href="/files/draw.svg?c=v">the drawing</a>`,
				`<span class="wikilink unresolved" title="no image by this name in the vault">gone.png</span>`}, []string{"no note by this name", "<img"}},
		{"image embeds", "![[diagram.png]] ![[assets/diagram.png|300]] ![[draw.svg|120x80]] ![[diagram.png|A <b>chart</b>]]",
			[]string{`<img class="attachment" src="/files/assets/diagram.png?c=v" alt="diagram.png" loading="lazy">`,
				`<img class="attachment" src="/files/assets/diagram.png?c=v" alt="diagram.png" width="300" loading="lazy">`,
				`<img class="attachment" src="/files/draw.svg?c=v" alt="draw.svg" width="120" height="80" loading="lazy">`,
				`alt="A &lt;b&gt;chart&lt;/b&gt;"`}, []string{"<b>", "unresolved"}},
		{"markdown images from the vault", "![a chart|200](../assets/diagram.png) ![gone](missing.png) ![x](https://example.org/x.png)",
			[]string{`<img class="attachment" src="/files/assets/diagram.png?c=v" alt="a chart" width="200" loading="lazy">`,
				`<span class="embed" title="image not shown">gone</span>`, `<span class="embed" title="image not shown">x</span>`}, nil},
		{"HTML images", "A chart <img src=\"assets/diagram.png\" alt=\"the chart\" width=\"300\" onerror=\"alert(1)\"> inline, " +
			"<img src='https://example.org/x.png' alt='remote'> and <IMG SRC=missing.png>.\n\n<img src=\"../assets/diagram.png\" height=\"80\">\n<img src=\"diagram.png\"/>\n\n" +
			"<div><img src=\"diagram.png\"></div>\n",
			[]string{`<img class="attachment" src="/files/assets/diagram.png?c=v" alt="the chart" width="300" loading="lazy">`,
				`<span class="embed" title="image not shown">remote</span>`, `<span class="embed" title="image not shown">missing.png</span>`,
				`<p data-line="3"><img class="attachment" src="/files/assets/diagram.png?c=v" alt="diagram.png" height="80" loading="lazy"> ` +
					`<img class="attachment" src="/files/assets/diagram.png?c=v" alt="diagram.png" loading="lazy"></p>`,
				`<p data-line="6"><img class="attachment" src="/files/assets/diagram.png?c=v" alt="diagram.png" loading="lazy"></p>`}, // the div holds an image alone
			[]string{"onerror", "alert", "<div", "raw HTML omitted"}},
		{"HTML images in layout tags", "<p style=\"text-align: center\">\n  <img alt=\"state flow\" src=\"diagram.png\" width=\"252\" style=\"margin: 4px\">\n</p>\n\n" +
			"<a href=\"javascript:alert(1)\">\n<picture><source srcset=\"x.webp\"><img src=\"diagram.png\"></picture>\n</a>\n\n" +
			"<div align=\"center\"><img src=\"diagram.png\"><br>A caption</div>\n\n<div><script>alert(2)</script><img src=\"diagram.png\"></div>\n\n" +
			"<p>\n<iframe src=\"https://e.org\"></iframe>\n</p>\n",
			[]string{`<p data-line="1"><img class="attachment" src="/files/assets/diagram.png?c=v" alt="state flow" width="252" loading="lazy"></p>`,
				`<p data-line="5"><img class="attachment" src="/files/assets/diagram.png?c=v" alt="diagram.png" loading="lazy"></p>`,
				"<!-- raw HTML omitted -->"}, // the caption's block, the script's and the iframe's
			[]string{"margin", "javascript", "alert", "srcset", "x.webp", "A caption", "iframe", "<script"}},
		{"HTML images read as browsers read them", `<img src="https://e.org/a.png" title="x src=diagram.png"> <img src="diagram.png" src="https://e.org/b.png" alt="">` +
			` <img src="data:image/png;base64,iVBORw0KGgo=">`,
			[]string{`<span class="embed" title="image not shown">a.png</span>`, // the first src; a value of another attribute is no src
				`<img class="attachment" src="/files/assets/diagram.png?c=v" alt="" loading="lazy">`, // alt="": decorative, kept empty
				`<span class="embed" title="image not shown">image</span>`},                          // a data: URI's text is no name
			[]string{"iVBOR", "e.org/b.png"}},
		{"a link's file name is no markup", `![[x."onclick=f]] [[y.<b>]]`, []string{`title="a .&#34;onclick=f file: the page shows notes and images only"`},
			[]string{`." onclick`, `."onclick`, "<b>"}},
		{"wikilink in a table", "| a |\n|---|\n| [[Other\\|alias]] |\n", []string{`<td><a class="wikilink" href="#/note?path=Other.md">alias</a></td>`}, nil},
		{"wikilink in code stays code", "`[[Other]]`", []string{"<code>[[Other]]</code>"}, []string{"wikilink"}},
		{"relative markdown link to a note", "[o](Other.md#Setup) [x](Nope.md) [y](sub/Gone%20Too) [f](files/a.pdf) [i](assets/diagram.png)", []string{`<a href="#/note?path=Other.md&amp;heading=Setup">o</a>`,
			`<span class="unresolved" title="no note has the path Nope.md">x</span>`, `<span class="unresolved" title="no note has the path sub/Gone Too">y</span>`,
			`<span class="unresolved" title="no note or image of the vault is files/a.pdf">f</span>`, // followed, it would leave the page for "not found"
			`<a href="/files/assets/diagram.png?c=v">i</a>`}, []string{`href="Nope.md"`, `href="files/a.pdf"`}},
		{"callout", "> [!warning] Mind **this**\n> Body text.\n", []string{`<div class="callout" data-callout="warning" data-line="1">`, `<div class="callout-title">Mind <strong>this</strong></div>`, "<p>Body text.</p>"}, []string{"[!warning]", "<blockquote"}},
		{"callout without title", "> [!TIP]\n> Body.\n", []string{`data-callout="tip"`, `<div class="callout-title">Tip</div>`, "<p>Body.</p>"}, nil},
		{"foldable callout", "> [!note]- Closed\n> Hidden.\n\n> [!note]+ Open\n> Shown.\n", []string{`<details class="callout" data-callout="note" data-line="1">`, `<summary class="callout-title">Closed</summary>`, `data-line="4" open>`}, nil},
		{"plain quote stays a quote", "> just [a] quote\n", []string{"<blockquote data-line=\"1\">"}, []string{"callout"}},
		{"frontmatter", "---\ntags: [x]\ntitle: <b>\n---\n# Head\n", []string{`<details class="frontmatter" data-line="1"><summary>Properties</summary><pre>tags: [x]`, "title: &lt;b&gt;", `<h1 id="head" data-line="5">`}, []string{"<hr"}},
		{"frontmatter after a byte-order mark", "\ufeff---\ntitle: x\n---\n# Head\n", []string{`<details class="frontmatter" data-line="1"><summary>Properties</summary><pre>title: x`, `<h1 id="head" data-line="4">`}, []string{"<h2", "<hr", "\ufeff"}},
		{"highlight", "A ==marked **bold**== word, a == b, ===x=== and =y=.", []string{`<mark class="highlight">marked <strong>bold</strong></mark>`, "a == b, ===x=== and =y=."}, nil},
		{"footnotes", "A claim[^1].\n\n[^1]: The [[Other]] note.\n", []string{`<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`, `<li id="fn:1">`, `<a class="wikilink" href="#/note?path=Other.md">Other</a>`}, []string{"[^1]", `doc-endnotes" data-line`}},
		{"frontmatter fence with trailing blanks", "--- \ntitle: x\n--- \t\n# Head\n", []string{`<details class="frontmatter" data-line="1"><summary>Properties</summary><pre>title: x`, `<h1 id="head" data-line="4">`}, []string{"<h2", "<hr"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HTML([]byte(tt.src), Options{Link: link, Tag: tagHref, Attachment: attach}).HTML
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("has %q in\n%s", n, got)
				}
			}
		})
	}
}

func TestHTMLHeadings(t *testing.T) {
	src := "Intro\n\n# Title\n\nText\n\n## Setup `code` {#setup}\n\nSetext\n------\n\n> ### Aside\n\n- ### Step\n"
	got := HTML([]byte(src), Options{FirstLine: 10}).Headings
	want := []Heading{
		{ID: "title", Level: 1, Text: "Title", Line: 12},
		{ID: "setup", Level: 2, Text: "Setup code", Line: 16},
		{ID: "setext", Level: 2, Text: "Setext", Line: 18},
		{ID: "aside", Level: 3, Text: "Aside", Line: 21, Nested: true},
		{ID: "step", Level: 3, Text: "Step", Line: 23, Nested: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headings\n got %+v\nwant %+v", got, want)
	}
	if h := HTML(nil, Options{}); h.Headings == nil || h.HTML != "" {
		t.Errorf("empty note: %+v", h)
	}
	// The ids read takes: a custom id later in the note is reserved, and
	// a repeated heading gets the next number (sections.IDs).
	var ids []string
	for _, h := range HTML([]byte("## Setup\n\n## Setup\n\n## Custom {#setup-2}\n\n## Setup\n"), Options{}).Headings {
		ids = append(ids, h.ID)
	}
	if got := strings.Join(ids, " "); got != "setup setup-1 setup-2 setup-3" {
		t.Errorf("ids %s", got)
	}
	// An empty heading still has its line.
	if hs := HTML([]byte("a\n\n## \n\nb\n"), Options{}).Headings; len(hs) != 1 || hs[0].Line != 3 || hs[0].ID != "heading" {
		t.Errorf("empty heading: %+v", hs)
	}
	// A section rendered alone keeps the ids the whole note gives it.
	note := "# Edge\n\n## Setup\n\na\n\n## Setup\n\nb\n\n### Setup\n\nc\n"
	section := "## Setup\n\nb\n\n### Setup\n\nc\n" // from line 7
	ids = ids[:0]
	for _, h := range HTML([]byte(section), Options{FirstLine: 7, IDs: SectionIDs([]byte(note), 7)}).Headings {
		ids = append(ids, h.ID)
	}
	if got := strings.Join(ids, " "); got != "setup-1 setup-2" {
		t.Errorf("section ids %s", got)
	}
}

func TestHTMLHeadingText(t *testing.T) {
	tests := []struct{ src, want string }{
		{`## Fish \& Chips &amp; more`, "Fish & Chips & more"},
		{"## A *b* `c*d` <span>e</span>", "A b c*d e"},
		{"## See [[Other#Setup|the setup]] &copy;", "See the setup ©"},
		{"## Mail <me@example.org>", "Mail me@example.org"},
		{"## Topic #tag", "Topic #tag"},
	}
	for _, tt := range tests {
		h := HTML([]byte(tt.src), Options{Link: link}).Headings
		if len(h) != 1 || h[0].Text != tt.want {
			t.Errorf("HTML(%q) headings = %+v, want text %q", tt.src, h, tt.want)
		}
	}
}
