// Package patgen writes strings that a regular expression matches: the one
// walk over a pattern that the tool catalogue's examples (values a person
// would write) and mcptest's generator (varied ones) share, each with its
// own Chooser for where a pattern leaves a choice.
package patgen

import (
	"regexp/syntax"
	"strings"
)

// A Chooser makes the choices a pattern leaves open.
type Chooser interface {
	// Class is the rune to write for a character class, given as its
	// ranges: pairs lo, hi (syntax.Regexp.Rune), at least one.
	Class(ranges []rune) rune
	// Repeat is how many times to repeat a sub-pattern that repeats lo to
	// hi times (hi -1 for no limit).
	Repeat(lo, hi int) int
	// Alternate is the index of the alternative to follow, of n.
	Alternate(n int) int
}

// String is a string the regular expression p (Perl syntax) matches, for
// the usual shapes of patterns (literals, classes, repeats, alternations),
// with the choices c makes. ok is false when p does not parse or the walk
// cannot follow it (an empty class, a construct it does not know); the
// string is then what it wrote up to there. Anchors and word boundaries
// write nothing: a caller that must be sure of a match checks it.
func String(p string, c Chooser) (s string, ok bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	ok = write(&b, re.Simplify(), c)
	return b.String(), ok
}

func write(b *strings.Builder, re *syntax.Regexp, c Chooser) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
		return true
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
		return true
	case syntax.OpCharClass:
		if len(re.Rune) < 2 {
			return false
		}
		b.WriteRune(c.Class(re.Rune))
		return true
	case syntax.OpCapture:
		return write(b, re.Sub[0], c)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, -1
		case syntax.OpPlus:
			lo, hi = 1, -1
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		for range c.Repeat(lo, hi) {
			if !write(b, re.Sub[0], c) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !write(b, sub, c) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		return write(b, re.Sub[c.Alternate(len(re.Sub))], c)
	}
	return false
}
