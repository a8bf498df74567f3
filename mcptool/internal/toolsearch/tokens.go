package toolsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens splits text into lower-case terms: at every character that is not
// a letter or digit, at snake_case and kebab-case separators, and at
// camelCase boundaries (SearchPages → search, pages; HTTPServer → http,
// server). Stop words and the letter after an apostrophe (what's) are dropped and every term is stemmed ([Stem]). A
// hyphenated word of letters also gives its joined form (to-do → todo,
// e-mail → email).
func Tokens(text string) []string {
	out := joined(text)
	start := -1
	word := func(w string) {
		w = strings.ToLower(w)
		if w == "" || stopWord(w) || len(w) == 1 && afterApostrophe(text, start) {
			return
		}
		out = append(out, Stem(w))
	}
	prev := rune(0)
	for i, r := range text {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum {
			if start >= 0 {
				word(text[start:i])
				start = -1
			}
			prev = r
			continue
		}
		if start < 0 {
			start = i
		} else if boundary(text, i, prev, r) {
			word(text[start:i])
			start = i
		}
		prev = r
	}
	if start >= 0 {
		word(text[start:])
	}
	return out
}

// boundary reports a camelCase boundary before r at i: lower→Upper
// (pageSize), letter↔digit is not one (v1, s3), and the last capital of a
// run of capitals followed by a lower-case letter starts a word (HTTPServer).
func boundary(text string, i int, prev, r rune) bool {
	if unicode.IsUpper(r) && unicode.IsLower(prev) {
		return true
	}
	if unicode.IsUpper(r) && unicode.IsUpper(prev) {
		next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		return unicode.IsLower(next)
	}
	return false
}

// afterApostrophe reports a word at i that follows an apostrophe: the s of
// what's or the t of don't, which say nothing of a tool.
func afterApostrophe(text string, i int) bool {
	return i > 0 && (strings.HasSuffix(text[:i], "'") || strings.HasSuffix(text[:i], "’"))
}

// Stem reduces a lower-case English word to a stem by a few deterministic
// suffix rules, light enough to keep words recognisable: plurals (policies →
// policy, buckets → bucket, addresses → address, but not status or class),
// and -ing, -ed (listing → list, created → creat, as create → creat).
func Stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	case n > 4 && strings.HasSuffix(w, "ied"):
		return w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:n-2])
	}
	// create, creating, created share "creat"; update, updated "updat".
	if n := len(w); n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble drops a doubled final consonant left by a suffix (stopped → stop).
func undouble(w string) string {
	n := len(w)
	if n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWord reports a word too common in queries and descriptions to tell
// tools apart. (A switch, not a map: nothing to build at start.)
func stopWord(w string) bool {
	switch w {
	case "a", "an", "and", "are", "as", "at", "be", "by",
		"can", "do", "for", "from", "how", "i", "if", "in",
		"into", "is", "it", "its", "me", "my", "of", "on",
		"or", "our", "so", "that", "the", "their", "them",
		"this", "to", "want", "we", "what", "which", "with",
		"you", "your", "all", "some", "use", "using", "need",
		"please", "there", "these", "those", "was", "were", "will":
		return true
	}
	return false
}

// joined returns the joined forms of text's hyphenated words (to-do →
// todo), stemmed.
func joined(text string) []string {
	if !strings.Contains(text, "-") {
		return nil
	}
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r != '-' && !unicode.IsLetter(r) }) {
		if strings.Contains(strings.Trim(f, "-"), "-") {
			out = append(out, Stem(strings.ToLower(strings.ReplaceAll(f, "-", ""))))
		}
	}
	return out
}
