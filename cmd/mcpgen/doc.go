package main

import (
	"encoding/json"
	"go/ast"
	"go/doc/comment"
	"strings"

	"github.com/mcpgen/mcpgen/internal/docname"
)

// docText turns a doc comment into a description: the comment's text as
// go/doc renders it, paragraphs kept, lines not wrapped.
func docText(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	var p comment.Parser
	d := p.Parse(cg.Text())
	pr := comment.Printer{TextWidth: -1}
	return strings.TrimSpace(string(pr.Text(d)))
}

// toolDoc turns a function's doc comment into a tool description: Go's
// convention opens it with the function's name ("SearchPages searches the
// notes..."), which means nothing to a model, so the name goes and the verb
// is capitalized ("Searches the notes..."), as reflect does with a type's
// and a field's comment (docname.Trim).
func toolDoc(name, doc string) string { return docname.Trim(name, doc) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
