package patgen

import "testing"

// fixed makes the same choice everywhere: the last rune of a class's last
// range, n repeats (within the bounds), the last alternative.
type fixed struct{ n int }

func (fixed) Class(ranges []rune) rune { return ranges[len(ranges)-1] }

func (f fixed) Repeat(lo, hi int) int {
	if hi >= 0 {
		return min(max(lo, f.n), hi)
	}
	return max(lo, f.n)
}

func (fixed) Alternate(n int) int { return n - 1 }

func TestString(t *testing.T) {
	for _, tc := range []struct {
		p    string
		n    int
		want string
		ok   bool
	}{
		{`^[a-c]{2}-[0-9]+$`, 0, "cc-9", true},
		{`^[a-c]{2}-[0-9]+$`, 3, "cc-999", true},
		{`(foo|bar)\.txt`, 1, "bar.txt", true},
		{`x?y*z{2,4}`, 0, "zz", true},
		{`x?y*z{2,4}`, 1, "xyzzzz", true}, // Simplify spells z{2,4} zz(?:z(?:z)?)?
		{`x?y*z{2,4}`, 9, "xyyyyyyyyyzzzz", true},
		{`.\b`, 1, "a", true},
		{`^$`, 1, "", true},
		{`ab[^\x00-\x{10FFFF}]c`, 1, "ab", false}, // an empty class: no rune matches
		{`(`, 1, "", false},
	} {
		got, ok := String(tc.p, fixed{tc.n})
		if got != tc.want || ok != tc.ok {
			t.Errorf("String(%#q) with %d repeats = %q, %v; want %q, %v", tc.p, tc.n, got, ok, tc.want, tc.ok)
		}
	}
}
