package annotations

import (
	"fmt"
	"strings"
)

// parseScopes reads the value of scopes=: OAuth scopes separated by spaces,
// each a scope-token of RFC 6749 §3.3.
func parseScopes(it Item) ([]string, error) {
	if !it.HasValue || strings.TrimSpace(it.Value) == "" {
		return nil, fmt.Errorf("scopes needs a value: the OAuth scopes a caller's token must all carry, separated by spaces, such as scopes=notes:read notes:write")
	}
	var scopes []string
	for s := range strings.SplitSeq(it.Value, " ") { // only SP separates scopes (RFC 6749 §3.3)
		if s != "" {
			scopes = append(scopes, s)
		}
	}
	if err := CheckScopes(scopes); err != nil {
		return nil, err
	}
	return scopes, nil
}

// CheckScopes reports the scopes that are not a scope-token of RFC 6749
// §3.3 (printable ASCII but for space, '"' and '\'), and the ones given
// twice, all in one error.
func CheckScopes(scopes []string) error {
	var bad []string
	seen := make(map[string]bool, len(scopes))
	for _, s := range scopes {
		switch {
		case !isScopeToken(s):
			bad = append(bad, fmt.Sprintf("%q is not an OAuth scope (RFC 6749 §3.3: printable ASCII without spaces, '\"' or '\\')", s))
		case seen[s]:
			bad = append(bad, fmt.Sprintf("scope %q is given twice", s))
		}
		seen[s] = true
	}
	if len(bad) > 0 {
		return fmt.Errorf("scopes: %s", strings.Join(bad, "; "))
	}
	return nil
}

// isScopeToken reports whether s is a scope-token: 1*( %x21 / %x23-5B /
// %x5D-7E ).
func isScopeToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
