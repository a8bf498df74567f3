package mcpreflect

import (
	"strings"
	"unicode"
)

// typeDescription is the schema description of a struct type named name
// whose doc comment is doc: the comment, less a first sentence that only
// says what the type is for a tool,
//
//	<name> is|are the arguments|result|results of <one word>.
//
// ("SumArgs are the arguments of calculate_sum."), which the tool's own
// name and description already say. Any other sentence stays.
func typeDescription(name, doc string) string {
	rest, ok := strings.CutPrefix(doc, name+" ")
	if !ok || name == "" {
		return doc
	}
	verb, rest, _ := strings.Cut(rest, " ")
	if verb != "is" && verb != "are" {
		return doc
	}
	rest, ok = strings.CutPrefix(rest, "the ")
	if !ok {
		return doc
	}
	what, rest, _ := strings.Cut(rest, " ")
	if what != "arguments" && what != "result" && what != "results" {
		return doc
	}
	rest, ok = strings.CutPrefix(rest, "of ")
	if !ok {
		return doc
	}
	end := strings.IndexFunc(rest, unicode.IsSpace)
	if end < 0 {
		end = len(rest)
	}
	if end < 2 || rest[end-1] != '.' {
		return doc // more than one word before the full stop
	}
	return strings.TrimLeftFunc(rest[end:], unicode.IsSpace)
}
