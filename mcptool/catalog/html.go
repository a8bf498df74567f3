package catalog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// The HTML catalogue is one file: the page's style and script are inlined,
// it loads nothing (its Content-Security-Policy forbids every fetch and any
// script but its own), and every text of the catalogue enters it escaped
// for element text or a quoted attribute value (esc), the only places a
// text goes. The page is written without html/template, which a server
// importing mcptool would otherwise compile (mcptool's Registry.Catalog
// returns a Catalog).
var (
	//go:embed html/page.css
	pageCSS string
	//go:embed html/page.js
	pageJS string

	// csp allows the page its own style and script (by hash) and nothing
	// else; computed at the first page, not at start.
	csp = sync.OnceValue(func() string {
		return `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-` +
			sum(pageCSS) + `'; script-src 'sha256-` + sum(pageJS) + `'; img-src data:; base-uri 'none'; form-action 'none'">`
	})
)

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return base64.StdEncoding.EncodeToString(h[:])
}

// badge is one hint of a tool as the page shows it.
type badge struct {
	Class, Text, Title string
}

func hintBadges(t Tool) []badge {
	h := t.Hints
	var out []badge
	switch {
	case h.ReadOnly:
		out = append(out, badge{"readonly", "read-only", "Does not change its environment"})
	case h.Destructive:
		out = append(out, badge{"destructive", "destructive", "May delete or overwrite data"})
	default:
		out = append(out, badge{"additive", "additive", "Changes its environment, but only by adding"})
	}
	if h.Idempotent && !h.ReadOnly {
		out = append(out, badge{"plain", "idempotent", "Calling it again with the same arguments has no further effect"})
	}
	if h.OpenWorld {
		out = append(out, badge{"open", "open world", "Reaches systems outside the server (the web, other services)"})
	} else {
		out = append(out, badge{"plain", "closed world", "Works only on the server's own data"})
	}
	if h.Confirm {
		out = append(out, badge{"confirm", "confirm", "Asks the user before it runs"})
	}
	if h.Task != "" {
		out = append(out, badge{"task", "task: " + h.Task, "Runs as a task (MCP Tasks extension)"})
	}
	if len(t.Scopes) > 0 {
		out = append(out, badge{"scopes", "scopes: " + strings.Join(t.Scopes, " "), "OAuth scopes the caller's token needs"})
	}
	if t.View != nil {
		out = append(out, badge{"plain", viewText(*t.View), "Shown as an interactive view in hosts that support MCP Apps (docs/views.md)"})
	}
	return append(out, listingBadges(t)...)
}

// searchKey is what the search box matches a tool against, lower case.
func searchKey(t Tool) string {
	var b strings.Builder
	b.WriteString(t.Name)
	for _, s := range []string{t.Title, t.Description, strings.Join(hintList(t), " ")} {
		b.WriteByte(' ')
		b.WriteString(s)
	}
	for _, a := range t.Arguments {
		b.WriteByte(' ')
		b.WriteString(a.Path)
	}
	return strings.ToLower(b.String())
}

// writeHTML renders the catalogue as one self-contained HTML page: the
// page's head, middle and tail around the index entries and sections of the tools
// (entries.go), which are rendered in chunks, in parallel, and written in
// order. A chunk is also a box of the page that the browser does not lay
// out while it is off screen (content-visibility), so that a search that
// hides or shows thousands of tools costs only what is in view.
func (c *Catalog) writeHTML(w io.Writer, title string) error {
	if title == "" {
		title = "Tools"
	}
	const chunk = 100
	n := (len(c.Tools) + chunk - 1) / chunk
	entries, sections := make([]bytes.Buffer, n), make([]bytes.Buffer, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range n {
		tools := c.Tools[i*chunk : min((i+1)*chunk, len(c.Tools))]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			size := 0
			for _, t := range tools {
				size += 2*(len(t.InputSchema)+len(t.OutputSchema)+len(t.Example)) + len(t.Description) + 2048
			}
			entries[i].Grow(len(tools) * 256)
			sections[i].Grow(size)
			writeEntries(&entries[i], tools)
			writeSections(&sections[i], tools)
		}()
	}
	wg.Wait()
	bw := bufio.NewWriterSize(w, 64<<10)
	var head bytes.Buffer
	writeHead(&head, title, len(c.Tools))
	if _, err := bw.Write(head.Bytes()); err != nil {
		return err
	}
	for i := range entries {
		if _, err := bw.Write(entries[i].Bytes()); err != nil {
			return err
		}
	}
	if _, err := bw.WriteString(pageMiddle); err != nil {
		return err
	}
	for i := range sections {
		if _, err := bw.Write(sections[i].Bytes()); err != nil {
			return err
		}
	}
	if _, err := bw.WriteString(pageTail); err != nil {
		return err
	}
	return bw.Flush()
}

// writeHead writes the page up to the index entries: the policy, the style,
// the title and the search box over n tools.
func writeHead(b *bytes.Buffer, title string, n int) {
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" + csp() + "\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
		"<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"mcpgen\">\n<title>")
	escTitle(b, title)
	b.WriteString("</title>\n<style>" + pageCSS + "</style>\n</head>\n<body>\n" +
		"<a class=\"skip\" href=\"#tools\">Skip to the tools</a>\n<header class=\"top\">\n<h1>")
	escTitle(b, title)
	count := strconv.Itoa(n)
	b.WriteString("</h1>\n<div class=\"search\" role=\"search\">\n<label for=\"q\">Search tools</label>\n" +
		`<input id="q" type="search" autocomplete="off" spellcheck="false" placeholder="name, title, description, hint or argument" aria-describedby="count">` + "\n" +
		`<p id="count" role="status" aria-live="polite" data-total="` + count + `">` + count + " tool")
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString("</p>\n</div>\n</header>\n<div class=\"layout\">\n<nav aria-label=\"Tool index\">\n<div id=\"index\">")
}

// The page between the index entries and the sections, and after them.
const pageMiddle = "</div>\n</nav>\n<main id=\"tools\" tabindex=\"-1\">\n"

var pageTail = "\n<p id=\"none\" hidden>No tool matches the search.</p>\n</main>\n</div>\n" +
	"<footer>Generated by mcpgen. Fingerprints are the SHA-256 of each tool's canonical definition (name, title, description, schemas, hints, scopes).</footer>\n" +
	"<script>" + pageJS + "</script>\n</body>\n</html>\n"
