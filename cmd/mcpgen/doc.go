package main

import (
	"encoding/json"
	"go/ast"
	"go/doc/comment"
	"strings"
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

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
