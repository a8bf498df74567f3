package annotations

import (
	"fmt"
	"strings"
)

// Item is one key or key=value of an `mcp` tag.
type Item struct {
	Key      string
	Value    string
	HasValue bool // written as key=value (a bare key has HasValue false)
	Pos      int  // byte offset of the key in the tag
}

// SyntaxError reports a tag that cannot be scanned.
type SyntaxError struct {
	Tag string // the whole tag value
	Pos int    // byte offset of the problem
	Msg string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("at offset %d: %s", e.Pos, e.Msg)
}

// ParseTag scans an `mcp` tag into its items, in order. Keys must be unique.
func ParseTag(tag string) ([]Item, error) {
	var items []Item
	seen := map[string]bool{}
	i := 0
	n := len(tag)
	for {
		for i < n && tag[i] == ' ' {
			i++
		}
		if i >= n {
			if len(items) > 0 || strings.TrimSpace(tag) != "" {
				return nil, &SyntaxError{tag, i, "expected a key after ','"}
			}
			return nil, nil
		}
		start := i
		for i < n && isKeyByte(tag[i]) {
			i++
		}
		if i == start {
			return nil, &SyntaxError{tag, i, fmt.Sprintf("unexpected %q, expected a key", tag[i])}
		}
		it := Item{Key: tag[start:i], Pos: start}
		for i < n && tag[i] == ' ' {
			i++
		}
		if i < n && tag[i] == '=' {
			i++
			it.HasValue = true
			for i < n && tag[i] == ' ' {
				i++
			}
			if i < n && tag[i] == '\'' {
				var b strings.Builder
				i++
				closed := false
				for i < n {
					c := tag[i]
					if c == '\\' && i+1 < n && (tag[i+1] == '\'' || tag[i+1] == '\\') {
						b.WriteByte(tag[i+1])
						i += 2
						continue
					}
					if c == '\'' {
						closed = true
						i++
						break
					}
					b.WriteByte(c)
					i++
				}
				if !closed {
					return nil, &SyntaxError{tag, start, fmt.Sprintf("unterminated quote in value of %q", it.Key)}
				}
				it.Value = b.String()
				for i < n && tag[i] == ' ' {
					i++
				}
			} else {
				vs := i
				for i < n && tag[i] != ',' {
					i++
				}
				it.Value = strings.TrimSpace(tag[vs:i])
			}
		}
		if seen[it.Key] {
			return nil, &SyntaxError{tag, start, fmt.Sprintf("key %q given twice", it.Key)}
		}
		seen[it.Key] = true
		items = append(items, it)
		if i >= n {
			return items, nil
		}
		if tag[i] != ',' {
			return nil, &SyntaxError{tag, i, fmt.Sprintf("unexpected %q after %q, expected ','", tag[i], it.Key)}
		}
		i++
	}
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// Suggest returns the known key closest to key (same letters ignoring case, or
// at most two edits away), or "" when none is close.
func Suggest(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return k
		}
		if d := editDistance(strings.ToLower(k), strings.ToLower(key)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
