package view

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
)

// A page of the user's ([Page]) gets the policy of every page mcpgen
// builds: a <meta> Content-Security-Policy first in its head that runs its
// own inline scripts and styles (by hash) and the helper's, and reaches no
// origin its view does not declare. Inline event handlers (onclick=) and
// style attributes do not run under it.

// pageHTML is p with the policy first in its head and the helper's scripts
// last; csp gives the declared origins.
func pageHTML(p []byte, csp annotations.View) []byte {
	scripts, styles := inlineCode(p)
	scripts = append(scripts, helperJS, renderJS)
	meta := fmt.Sprintf("<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", escaper.Replace(policy(scripts, styles, csp)))
	helper := "<script>" + helperJS + "</script>\n<script>" + renderJS + "</script>\n"
	lower := bytes.ToLower(p)
	start, end := headStart(lower), bytes.Index(lower, []byte("</head>"))
	if start < 0 || end < start {
		return slices.Concat([]byte(meta), []byte(helper), p)
	}
	return slices.Concat(p[:start], []byte("\n"+meta), p[start:end], []byte(helper), p[end:])
}

// headStart is where the content of the head element starts in lower (a
// page in lower case), or -1.
func headStart(lower []byte) int {
	for i := 0; ; {
		j := bytes.Index(lower[i:], []byte("<head"))
		if j < 0 {
			return -1
		}
		i += j + len("<head")
		if i < len(lower) && (lower[i] == '>' || isSpace(lower[i])) {
			if end := tagEnd(lower, i); end >= 0 {
				return end
			}
			return -1
		}
	}
}

// inlineCode returns the text of p's inline script elements (those without
// src) and style elements, as the browser hashes them: line endings made
// \n, as the HTML parser does. What it cannot read as such stays out of
// the policy and does not run: it fails closed.
func inlineCode(p []byte) (scripts, styles []string) {
	lower := bytes.ToLower(p)
	for i := 0; i < len(lower); {
		j := bytes.IndexByte(lower[i:], '<')
		if j < 0 {
			break
		}
		i += j + 1
		var name string
		switch {
		case bytes.HasPrefix(lower[i:], []byte("script")):
			name = "script"
		case bytes.HasPrefix(lower[i:], []byte("style")):
			name = "style"
		case bytes.HasPrefix(lower[i:], []byte("!--")):
			if k := bytes.Index(lower[i:], []byte("-->")); k >= 0 {
				i += k + 3
				continue
			}
			return scripts, styles
		default:
			continue
		}
		k := i + len(name)
		if k >= len(lower) || !(lower[k] == '>' || lower[k] == '/' || isSpace(lower[k])) {
			continue
		}
		open := tagEnd(lower, k)
		if open < 0 {
			break
		}
		closeAt := bytes.Index(lower[open:], []byte("</"+name))
		if closeAt < 0 {
			break
		}
		text := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(p[open : open+closeAt]))
		if name == "style" {
			styles = append(styles, text)
		} else if !hasAttr(lower[k:open], "src") {
			scripts = append(scripts, text)
		}
		i = open + closeAt
	}
	return scripts, styles
}

// tagEnd is the index after the > that ends the start tag whose attributes
// begin at i, quoted values skipped; -1 if none.
func tagEnd(lower []byte, i int) int {
	var quote byte
	for ; i < len(lower); i++ {
		c := lower[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i + 1
		}
	}
	return -1
}

// hasAttr reports whether the attributes of a start tag (from after its
// name to its >) name attr.
func hasAttr(attrs []byte, attr string) bool {
	for i := 0; i < len(attrs); {
		for i < len(attrs) && (isSpace(attrs[i]) || attrs[i] == '/') {
			i++
		}
		start := i
		for i < len(attrs) && !isSpace(attrs[i]) && attrs[i] != '=' && attrs[i] != '>' && attrs[i] != '/' {
			i++
		}
		if string(attrs[start:i]) == attr {
			return true
		}
		for i < len(attrs) && isSpace(attrs[i]) {
			i++
		}
		if i < len(attrs) && attrs[i] == '=' {
			i++
			for i < len(attrs) && isSpace(attrs[i]) {
				i++
			}
			if i < len(attrs) && (attrs[i] == '"' || attrs[i] == '\'') {
				q := attrs[i]
				i++
				for i < len(attrs) && attrs[i] != q {
					i++
				}
				i++
			} else {
				for i < len(attrs) && !isSpace(attrs[i]) && attrs[i] != '>' {
					i++
				}
			}
		}
		if i == start {
			i++
		}
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
