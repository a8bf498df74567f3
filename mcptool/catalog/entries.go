package catalog

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The index entries and the sections of the tools are most of the page (a
// catalogue of 10,000 tools is a page of some 50 MB), so they are written
// directly, in chunks. Every text is escaped with textEscaper, the table of
// html/template's HTMLEscapeString, the escaping html/template applies in
// element text and quoted attribute values, the only places a text of the
// catalogue goes; TestHTMLEscapesHostileText holds each field to it.

// textEscaper escapes text for element text or a quoted attribute value.
var textEscaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "'", "&#39;", "&", "&amp;", "<", "&lt;", ">", "&gt;")

// titleEscaper is html/template's escaping of the page's title (in
// <title> and <h1>): textEscaper's, and + too.
var titleEscaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "'", "&#39;", "&", "&amp;", "<", "&lt;", ">", "&gt;", "+", "&#43;")

// esc writes s escaped for element text or a quoted attribute value.
func esc(b *bytes.Buffer, s string) {
	if !strings.ContainsAny(s, "<>&'\"\x00") {
		b.WriteString(s)
		return
	}
	_, _ = textEscaper.WriteString(b, s)
}

// escTitle writes the page's title escaped.
func escTitle(b *bytes.Buffer, s string) { _, _ = titleEscaper.WriteString(b, s) }

// writeEntries writes the index entries of tools, a chunk of the index.
func writeEntries(b *bytes.Buffer, tools []Tool) {
	b.WriteString("\n<ul class=\"chunk\">")
	for i := range tools {
		t := &tools[i]
		b.WriteString("\n<li data-search=\"")
		esc(b, searchKey(*t))
		b.WriteString("\"><a href=\"#tool-")
		esc(b, t.Name)
		b.WriteString("\">")
		esc(b, t.Name)
		b.WriteString("</a>")
		if t.Hints.Destructive {
			b.WriteString(` <span class="dot destructive" title="destructive">destructive</span>`)
		}
		b.WriteString("</li>")
	}
	b.WriteString("\n</ul>")
}

// writeSections writes the sections of tools, a chunk of the page.
func writeSections(b *bytes.Buffer, tools []Tool) {
	var scratch bytes.Buffer
	b.WriteString("\n<div class=\"chunk\">")
	for i := range tools {
		writeSection(b, &scratch, &tools[i])
	}
	b.WriteString("\n</div>")
}

// writeSection writes the section of t; scratch is a buffer it may reuse.
func writeSection(b, scratch *bytes.Buffer, t *Tool) {
	name := textEscaper.Replace(t.Name)
	b.WriteString("\n<section class=\"tool\" id=\"tool-" + name + "\" aria-labelledby=\"h-" + name + "\">\n")
	b.WriteString("<h2 id=\"h-" + name + "\"><code>" + name + "</code>")
	if t.Title != "" {
		b.WriteString(` <span class="title">`)
		esc(b, t.Title)
		b.WriteString("</span>")
	}
	b.WriteString("</h2>\n<ul class=\"badges\" aria-label=\"Hints\">")
	for _, h := range hintBadges(*t) {
		b.WriteString(`<li class="badge ` + h.Class + `" title="`)
		esc(b, h.Title)
		b.WriteString(`">`)
		esc(b, h.Text)
		b.WriteString("</li>")
	}
	b.WriteString("</ul>")
	if t.Description != "" {
		b.WriteString("\n<p class=\"desc\">")
		esc(b, t.Description)
		b.WriteString("</p>")
	}
	b.WriteString("\n<p class=\"fp\">Fingerprint <code>")
	esc(b, t.Fingerprint)
	b.WriteString("</code></p>\n<h3>Arguments</h3>")
	if len(t.Arguments) == 0 {
		b.WriteString("\n<p>None.</p>")
	} else {
		b.WriteString("\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Arguments of " + name + "\">\n<table>\n" +
			`<thead><tr><th scope="col">Argument</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Default</th><th scope="col">Constraints</th><th scope="col">Description</th></tr></thead>` +
			"\n<tbody>")
		for _, a := range t.Arguments {
			b.WriteString("\n<tr><th scope=\"row\"><code>")
			esc(b, a.Path)
			b.WriteString("</code></th><td>")
			esc(b, a.Type)
			b.WriteString("</td><td>" + yesNo(a.Required) + "</td><td>")
			if d := defaultText(a, ""); d != "" {
				b.WriteString("<code>")
				esc(b, d)
				b.WriteString("</code>")
			}
			b.WriteString("</td><td>")
			esc(b, strings.Join(a.Constraints, "; "))
			b.WriteString("</td><td>")
			esc(b, a.Description)
			b.WriteString("</td></tr>")
		}
		b.WriteString("\n</tbody>\n</table>\n</div>")
	}
	b.WriteString("\n<h3>Result</h3>")
	if len(t.Result) == 0 {
		b.WriteString("\n<p>Content blocks (no output schema).</p>")
	} else {
		b.WriteString("\n<p>Structured content (also sent as JSON text):</p>\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Result of " + name + "\">\n<table>\n" +
			`<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Always present</th><th scope="col">Description</th></tr></thead>` +
			"\n<tbody>")
		for _, a := range t.Result {
			b.WriteString("\n<tr><th scope=\"row\"><code>")
			esc(b, a.Path)
			b.WriteString("</code></th><td>")
			esc(b, a.Type)
			b.WriteString("</td><td>" + yesNo(a.Required) + "</td><td>")
			esc(b, a.Description)
			b.WriteString("</td></tr>")
		}
		b.WriteString("\n</tbody>\n</table>\n</div>")
	}
	b.WriteString("\n<h3>Example call</h3>")
	if call := exampleCall(*t, "  "); call != "" {
		b.WriteString("\n<div class=\"code\">" + copyButton("example call of "+name) + "<pre tabindex=\"0\"><code>")
		esc(b, call)
		b.WriteString("</code></pre></div>")
	} else {
		b.WriteString("\n<p>None: no valid arguments could be derived from the schema.</p>")
	}
	schema := func(label string, raw []byte) {
		b.WriteString("\n<details><summary>" + label + " schema</summary>\n<div class=\"code\">" + copyButton(strings.ToLower(label)+" schema of "+name) +
			"<pre tabindex=\"0\"><code>")
		scratch.Reset()
		if err := json.Indent(scratch, raw, "", "  "); err != nil {
			scratch.Reset()
			scratch.Write(raw)
		}
		esc(b, scratch.String())
		b.WriteString("</code></pre></div>\n</details>")
	}
	schema("Input", t.InputSchema)
	if len(t.OutputSchema) > 0 {
		schema("Output", t.OutputSchema)
	}
	b.WriteString("\n</section>")
}

// copyButton is the button that copies the code block it precedes; what it
// copies (escaped) is said to screen readers only, after the visible label.
func copyButton(what string) string {
	return `<button type="button" class="copy"><span class="label">Copy</span><span class="vh"> the ` + what + `</span></button>`
}
