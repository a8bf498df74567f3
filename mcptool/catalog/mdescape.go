package catalog

import (
	"strings"
	"unicode"
)

// Every text of a catalogue or a report that comes from a tool's author (a
// name, title, description, scope, property name, enum value, default) is
// written into Markdown by one of the functions below, so that a CommonMark
// or GitHub renderer shows it as the text it is: no HTML (a description's
// <img onerror=...> is the text "<img onerror=...>"), no link, emphasis,
// heading, list, quote, table cell or code block of the author's making.
// TestMarkdownEscapesHostileText holds each field to it.

// mdText escapes s for running text or a table cell: one line (line breaks
// become spaces), with every character that Markdown or HTML would read as
// markup escaped.
func mdText(s string) string {
	return mdLine(strings.Join(lines(s), " "))
}

// mdQuote writes s as a blockquote, its lines escaped with mdLine and its
// blank lines kept, so that paragraphs stay paragraphs but none can leave
// the quote.
func mdQuote(b *strings.Builder, s string) {
	for _, l := range lines(s) {
		if l = mdLine(l); l == "" {
			b.WriteString(">\n")
		} else {
			b.WriteString("> " + l + "\n")
		}
	}
}

// lines splits s at every line break (\n, \r\n or \r).
func lines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
}

// mdLine escapes one line of text. Leading and trailing white space goes
// (it would make an indented code block or a hard line break); <, > and &
// become entities; the ASCII punctuation that opens inline markup
// (emphasis, code, links, strikethrough, math, table cells) and that a
// line may begin a block with (a heading, list item, setext underline,
// thematic break) is backslash-escaped, which CommonMark allows before any
// ASCII punctuation.
func mdLine(l string) string {
	l = strings.TrimFunc(l, unicode.IsSpace)
	var b strings.Builder
	b.Grow(len(l) + 8)
	for i, r := range l {
		switch r {
		case '&':
			b.WriteString("&amp;")
			continue
		case '<':
			b.WriteString("&lt;")
			continue
		case '>':
			b.WriteString("&gt;")
			continue
		case '\\', '`', '*', '_', '[', ']', '|', '~', '#', '$':
			b.WriteByte('\\')
		case '-', '+', '=':
			if i == 0 {
				b.WriteByte('\\')
			}
		case '.', ')':
			if isDigits(l[:i]) {
				b.WriteByte('\\') // "1. " or "1) " would open an ordered list
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// mdCode writes s as a code span, whose text Markdown shows as written: the
// fence is one backtick longer than the longest run of backticks in s,
// line breaks become spaces, and inTable escapes | (which GitHub's tables
// read before code spans).
func mdCode(s string, inTable bool) string {
	s = strings.Join(lines(s), " ")
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' || s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return fence + s + fence
}

// mdFence returns the fence of a code block holding s: three backticks, or
// one more than the longest run of backticks in s.
func mdFence(s string) string {
	return strings.Repeat("`", max(3, longestRun(s, '`')+1))
}

func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return longest
}

// anchor is the fragment GitHub gives a heading whose text is name: lower
// case, letters, digits, - and _ kept, spaces as -, the rest dropped. Only
// those characters reach a link's target.
func anchor(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
