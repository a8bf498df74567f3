package annotations_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/annotations"
)

// renderTag writes items back as an `mcp` tag that ParseTag reads as the
// same items: a value is quoted when the plain form would not survive (a
// comma, a leading quote, surrounding white space).
func renderTag(items []annotations.Item) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(it.Key)
		if !it.HasValue {
			continue
		}
		b.WriteByte('=')
		v := it.Value
		if strings.ContainsRune(v, ',') || strings.HasPrefix(v, "'") || strings.TrimSpace(v) != v {
			b.WriteByte('\'')
			for j := 0; j < len(v); j++ {
				if v[j] == '\'' || v[j] == '\\' {
					b.WriteByte('\\')
				}
				b.WriteByte(v[j])
			}
			b.WriteByte('\'')
			continue
		}
		b.WriteString(v)
	}
	return b.String()
}

type plainItem struct {
	Key, Value string
	HasValue   bool
}

func plain(items []annotations.Item) []plainItem {
	out := make([]plainItem, len(items))
	for i, it := range items {
		out[i] = plainItem{it.Key, it.Value, it.HasValue}
	}
	return out
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

func FuzzParseTag(f *testing.F) {
	for _, seed := range []string{
		"",
		"readOnly",
		"title=Search pages,readOnly,openWorld=false",
		"title='a, b',destructive=false",
		`title='it\'s \\ here'`,
		"timeout=5s, rate=10/s ,burst=5,confirm",
		"scopes=notes:read notes:write,callerConcurrency=2",
		`scopes='a,b "c\\'`,
		"title=  spaced  ,x=",
		"a,a",
		"title='unterminated",
		",",
		"a,,b",
		"=x",
		"a b",
		"title='x' y",
		"k=\xff\xfe,t='\x00'",
		"title=\u00a0nbsp\u00a0",
		"a='',b=''",
		"title=a=b=c,x='=',y=\\",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		items, err := annotations.ParseTag(tag)
		if err != nil {
			var se *annotations.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %T %v", tag, err, err)
			}
			if se.Tag != tag || se.Pos < 0 || se.Pos > len(tag) {
				t.Fatalf("%q: SyntaxError %+v", tag, se)
			}
			if items != nil {
				t.Fatalf("%q: items and an error", tag)
			}
			_ = se.Error()
			return
		}
		if strings.TrimLeft(tag, " ") == "" {
			if items != nil {
				t.Fatalf("%q: items from a blank tag", tag)
			}
			return
		}
		seen := map[string]bool{}
		last := -1
		for _, it := range items {
			if it.Key == "" || seen[it.Key] {
				t.Fatalf("%q: empty or repeated key %q", tag, it.Key)
			}
			seen[it.Key] = true
			for i := 0; i < len(it.Key); i++ {
				if !isKeyByte(it.Key[i]) {
					t.Fatalf("%q: key %q has byte %q", tag, it.Key, it.Key[i])
				}
			}
			if it.Pos <= last || !strings.HasPrefix(tag[it.Pos:], it.Key) {
				t.Fatalf("%q: item %q at %d", tag, it.Key, it.Pos)
			}
			last = it.Pos
			if !it.HasValue && it.Value != "" {
				t.Fatalf("%q: a bare key %q with a value", tag, it.Key)
			}
		}
		// Round trip: rendered and parsed again, the same items; rendering
		// is then a fixed point.
		out := renderTag(items)
		again, err := annotations.ParseTag(out)
		if err != nil {
			t.Fatalf("%q: rendered as %q, which does not parse: %v", tag, out, err)
		}
		a, b := plain(items), plain(again)
		if len(a) != len(b) {
			t.Fatalf("%q → %q: %d items, then %d", tag, out, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%q → %q: item %d was %+v, is %+v", tag, out, i, a[i], b[i])
			}
		}
		if out2 := renderTag(again); out2 != out {
			t.Fatalf("%q: rendering is not stable: %q then %q", tag, out, out2)
		}
		_ = annotations.Suggest(items[0].Key, annotations.Keys())
		// Parse takes any scannable tag without panicking, and reports an
		// error for each item it rejects.
		tl, err := annotations.Parse(tag)
		if err == nil {
			_ = tl.Effective()
			_ = tl.Resolved()
			if tl.Check() != nil {
				t.Fatalf("%q: Parse accepted what Check rejects", tag)
			}
		}
	})
}
