package catalog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"html/template"
	"io"
	"runtime"
	"strings"
	"sync"
)

// The HTML catalogue is one file: the page's style and script are inlined,
// it loads nothing (its Content-Security-Policy forbids every fetch and any
// script but its own), and every text of the catalogue enters it through
// html/template, which escapes it for where it stands.
var (
	//go:embed html/page.tmpl
	pageTemplate string
	//go:embed html/page.css
	pageCSS string
	//go:embed html/page.js
	pageJS string

	page = template.Must(template.New("page").Parse(pageTemplate))

	// csp allows the page its own style and script (by hash) and nothing else.
	csp = template.HTML(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-` +
		sum(pageCSS) + `'; script-src 'sha256-` + sum(pageJS) + `'; img-src data:; base-uri 'none'; form-action 'none'">`)
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
// page's template around the index entries and sections of the tools
// (entries.go), which are rendered in chunks, in parallel, and written in
// order. A chunk is also a box of the page that the browser does not lay
// out while it is off screen (content-visibility), so that a search that
// hides or shows thousands of tools costs only what is in view.
func (c *Catalog) writeHTML(w io.Writer, title string) error {
	if title == "" {
		title = "Tools"
	}
	data := pageData{title, c.Tools, csp, template.CSS(pageCSS), template.JS(pageJS)}
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
	if err := page.ExecuteTemplate(bw, "head", data); err != nil {
		return err
	}
	for i := range entries {
		if _, err := bw.Write(entries[i].Bytes()); err != nil {
			return err
		}
	}
	if err := page.ExecuteTemplate(bw, "middle", data); err != nil {
		return err
	}
	for i := range sections {
		if _, err := bw.Write(sections[i].Bytes()); err != nil {
			return err
		}
	}
	if err := page.ExecuteTemplate(bw, "tail", data); err != nil {
		return err
	}
	return bw.Flush()
}

type pageData struct {
	Title  string
	Tools  []Tool
	CSP    template.HTML
	Style  template.CSS
	Script template.JS
}
