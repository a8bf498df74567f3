// Package docname takes the leading Go name off a doc comment, for every
// place a doc comment becomes text a model reads: the generator's tool
// descriptions (a function's or method's comment) and reflect's schema
// descriptions (a type's or field's comment).
package docname

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Trim returns doc without the Go name Go's convention opens it with, which
// means nothing to a model: "AdjustStock adds to the stock." becomes "Adds
// to the stock.", "ShoppingArgs list the recipes." becomes "List the
// recipes.", and "Page is the result of get_page." becomes "The result of
// get_page." (an "is" or "are" after the name goes too, when a word of
// prose follows it). The first word left is capitalized, unless it is a
// name such as a tool's (web_search). A name used as a noun ("ID of the page.") stays,
// and so does a comment that does not open with name.
func Trim(name, doc string) string {
	rest, ok := strings.CutPrefix(doc, name+" ")
	if !ok || name == "" {
		return doc
	}
	word, after, _ := strings.Cut(rest, " ")
	if next, _, _ := strings.Cut(after, " "); (word == "is" || word == "are") && lower(next) {
		rest = after
	} else if nounFollows[word] || strings.HasSuffix(word, ",") {
		return doc
	}
	if rest == "" {
		return doc
	}
	if first, _, _ := strings.Cut(rest, " "); strings.Contains(first, "_") {
		return rest // a name of the wire, such as a tool's, keeps its case
	}
	r, size := utf8.DecodeRuneInString(rest)
	return string(unicode.ToUpper(r)) + rest[size:]
}

// nounFollows are the words that follow a name used as a noun rather than
// as the subject of a verb: dropping the name would leave a fragment.
var nounFollows = map[string]bool{
	"of": true, "for": true, "to": true, "in": true, "on": true, "at": true, "by": true, "with": true,
	"from": true, "as": true, "and": true, "or": true, "the": true, "a": true, "an": true,
	"-": true, "—": true, "=": true,
}

// lower reports whether w is a word without capitals (not a Go name such
// as askConfirm).
func lower(w string) bool {
	return w != "" && !strings.ContainsFunc(w, unicode.IsUpper)
}
