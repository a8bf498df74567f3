package mcpreflect

import (
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/internal/docname"
)

// typeDescription is the schema description of a struct type named name
// whose doc comment is doc: the comment, less a first sentence that only
// says what the type is for a tool,
//
//	<name> is|are the arguments|result|results of <one word>.
//
// ("SumArgs are the arguments of calculate_sum."), which the tool's own
// name and description already say. Any other comment loses its leading Go
// name (docname.Trim: "ShoppingArgs list the recipes." is "List the
// recipes.").
func typeDescription(name, doc string) string {
	name = trimArgs(name)
	if rest, ok := argumentsSentence(name, doc); ok {
		return rest
	}
	return docname.Trim(name, doc)
}

// argumentsSentence reports whether doc opens with the sentence
// typeDescription drops, and returns what follows it.
func argumentsSentence(name, doc string) (string, bool) {
	rest, ok := strings.CutPrefix(doc, name+" ")
	if !ok || name == "" {
		return "", false
	}
	verb, rest, _ := strings.Cut(rest, " ")
	if verb != "is" && verb != "are" {
		return "", false
	}
	if rest, ok = strings.CutPrefix(rest, "the "); !ok {
		return "", false
	}
	what, rest, _ := strings.Cut(rest, " ")
	if what != "arguments" && what != "result" && what != "results" {
		return "", false
	}
	if rest, ok = strings.CutPrefix(rest, "of "); !ok {
		return "", false
	}
	end := strings.IndexFunc(rest, unicode.IsSpace)
	if end < 0 {
		end = len(rest)
	}
	if end < 2 || rest[end-1] != '.' {
		return "", false // more than one word before the full stop
	}
	return strings.TrimLeftFunc(rest[end:], unicode.IsSpace), true
}
