package mcpreflect

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
)

// JSON Schema compares numbers as exact decimal values: 1e-400 is not an
// integer, 1e400 is a number above every float64, -0 equals 0, and
// 0.000000000001 is not a multiple of 0.01. The checks here decide on the
// literal's exact value, and stay cheap for the common case: a number and a
// bound are first compared as float64s (strconv rounds correctly, so rounding
// is monotone and a strict float inequality proves the exact one); only a tie
// between values that are not both exact floats reads the literals as
// decimals.

// decNum is a JSON number literal read exactly: its value is
// ±0.d1d2d3... × 10^exp, digits without leading or trailing zeros (none at
// all for zero).
type decNum struct {
	neg    bool
	digits []byte
	exp    int64
}

// maxExp bounds the exponents decNum keeps: every bound a schema can hold
// and every value a Go type can hold is far inside it, so a saturated
// exponent still compares correctly.
const maxExp = 1 << 40

// parseDec reads a JSON number literal (already checked by the scanner).
func parseDec(lit []byte) decNum {
	var n decNum
	i := 0
	if i < len(lit) && lit[i] == '-' {
		n.neg = true
		i++
	}
	var digits []byte
	intDigits := int64(0) // digits before the point, leading zeros dropped
	seenNonZero := false
	for ; i < len(lit) && isDigit(lit[i]); i++ {
		if lit[i] == '0' && !seenNonZero {
			continue
		}
		seenNonZero = true
		digits = append(digits, lit[i])
		intDigits++
	}
	lead := int64(0) // zeros after the point before the first significant digit
	if i < len(lit) && lit[i] == '.' {
		for i++; i < len(lit) && isDigit(lit[i]); i++ {
			if lit[i] == '0' && !seenNonZero {
				lead++
				continue
			}
			seenNonZero = true
			digits = append(digits, lit[i])
		}
	}
	var e int64
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		eneg := false
		if lit[i] == '+' || lit[i] == '-' {
			eneg = lit[i] == '-'
			i++
		}
		for ; i < len(lit); i++ {
			if e < maxExp {
				e = e*10 + int64(lit[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return decNum{neg: n.neg}
	}
	n.digits = digits
	if intDigits > 0 {
		n.exp = intDigits + e
	} else {
		n.exp = e - lead
	}
	n.exp = max(-maxExp, min(maxExp, n.exp))
	return n
}

func (n decNum) isZero() bool { return len(n.digits) == 0 }

// cmpDec compares two decimals exactly: -1, 0 or +1.
func cmpDec(a, b decNum) int {
	switch {
	case a.isZero() && b.isZero():
		return 0
	case a.isZero():
		if b.neg {
			return 1
		}
		return -1
	case b.isZero():
		if a.neg {
			return -1
		}
		return 1
	case a.neg != b.neg:
		if a.neg {
			return -1
		}
		return 1
	}
	c := 0
	switch {
	case a.exp < b.exp:
		c = -1
	case a.exp > b.exp:
		c = 1
	default:
		c = bytes.Compare(a.digits, b.digits)
	}
	if a.neg {
		c = -c
	}
	return c
}

// isInt reports whether n has no fractional part.
func (n decNum) isInt() bool { return n.isZero() || n.exp >= int64(len(n.digits)) }

// uint64Value returns |n| when n is an integer that fits a uint64.
func (n decNum) uint64Value() (uint64, bool) {
	if n.isZero() {
		return 0, true
	}
	if !n.isInt() || n.exp > 20 {
		return 0, false
	}
	var u uint64
	for i := int64(0); i < n.exp; i++ {
		d := uint64(0)
		if i < int64(len(n.digits)) {
			d = uint64(n.digits[i] - '0')
		}
		if u > (math.MaxUint64-d)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	return u, true
}

// int64Value returns n when it is an integer that fits an int64.
func (n decNum) int64Value() (int64, bool) {
	u, ok := n.uint64Value()
	if !ok {
		return 0, false
	}
	if n.neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// isMultiple reports whether n is an integer multiple of m (m > 0). With
// n = Dn×10^En and m = Dm×10^Em (Dn, Dm integers without trailing zeros),
// n/m is an integer exactly when En >= Em and Dm divides Dn×10^(En-Em); once
// En-Em reaches Dm's powers of 2 and 5, a larger power of 10 changes nothing,
// so the exponent is capped there.
func isMultiple(n, m decNum) bool {
	if n.isZero() {
		return true
	}
	en := n.exp - int64(len(n.digits))
	em := m.exp - int64(len(m.digits))
	if en < em {
		return false // Dn has no factor 10, so Dn / (Dm×10^k) is never an integer
	}
	dm := new(big.Int)
	dm.SetString(string(m.digits), 10)
	k := en - em
	if c := twosAndFives(dm); k > c {
		k = c
	}
	dn := new(big.Int)
	dn.SetString(string(n.digits), 10)
	if k > 0 {
		dn.Mul(dn, new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil))
	}
	return new(big.Int).Rem(dn, dm).Sign() == 0
}

// twosAndFives returns the larger of the powers of 2 and of 5 in d.
func twosAndFives(d *big.Int) int64 {
	twos := int64(d.TrailingZeroBits())
	fives := int64(0)
	q, r := new(big.Int).Set(d), new(big.Int)
	five := big.NewInt(5)
	for {
		q2, _ := new(big.Int).QuoRem(q, five, r)
		if r.Sign() != 0 {
			break
		}
		q = q2
		fives++
	}
	return max(twos, fives)
}

// numVal is one number argument as the checks see it.
type numVal struct {
	lit   []byte
	f     float64 // the literal rounded to a float64, ±Inf beyond its range
	exact bool    // f is exactly the literal's value
	dec   decNum
	read  bool // dec is set
}

func (v *numVal) decimal() decNum {
	if !v.read {
		v.dec, v.read = parseDec(v.lit), true
	}
	return v.dec
}

// numBound is a number of the schema (a bound, a multipleOf, an enum value).
type numBound struct {
	text  string  // as published
	f     float64 // rounded to a float64
	exact bool    // f is exactly the value
	dec   decNum
	i     int64 // the value, when isInt
	isInt bool  // the value is an integer that fits an int64
	// The value as mant×10^exp (mant > 0, no trailing zeros) when short;
	// cap is the larger of mant's powers of 2 and 5 (see isMultiple).
	short    bool
	mant     uint64
	exp, cap int64
}

func newBound(text string) (numBound, bool) {
	if !validNumber(text) {
		return numBound{}, false
	}
	b := numBound{text: text, dec: parseDec([]byte(text))}
	b.f, _ = strconv.ParseFloat(text, 64)
	b.i, b.isInt = b.dec.int64Value()
	b.exact = floatIsExact(b.f, text, b.dec)
	if m, e, ok := shortDec([]byte(text)); ok && m != 0 {
		b.short, b.mant, b.exp = true, m, e
		b.cap = twosAndFives(new(big.Int).SetUint64(m))
	}
	return b, true
}

// floatIsExact reports whether f is exactly the value of the literal text
// (whose decimal is d).
func floatIsExact(f float64, text string, d decNum) bool {
	switch {
	case math.IsInf(f, 0):
		return false
	case d.isZero():
		return f == 0
	case d.exp > 400 || d.exp < -400:
		return false
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return false
	}
	var g big.Rat
	g.SetFloat64(f)
	return r.Cmp(&g) == 0
}

// validNumber reports whether s is a JSON number.
func validNumber(s string) bool {
	var d decodeState
	d.reset([]byte(s), 1)
	ok := true
	func() {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		if s == "" || (s[0] != '-' && !isDigit(s[0])) {
			ok = false
			return
		}
		d.number()
	}()
	return ok && d.pos == len(s)
}

// cmp compares v with b exactly.
func (v *numVal) cmp(b *numBound) int {
	switch {
	case v.f < b.f:
		return -1
	case v.f > b.f:
		return 1
	case v.exact && b.exact:
		return 0
	}
	return cmpDec(v.decimal(), b.dec)
}

// multipleOf reports whether v is an integer multiple of m.
func (v *numVal) multipleOf(m *numBound, iv int64, ivOK bool) bool {
	if ivOK && m.isInt && m.i > 0 {
		return iv%m.i == 0
	}
	if m.short {
		if dn, en, ok := shortDec(v.lit); ok {
			// As isMultiple, on uint64s: Dm divides Dn×10^k.
			if dn == 0 {
				return true
			}
			if en < m.exp {
				return false
			}
			k := min(en-m.exp, m.cap)
			if k < int64(len(pow10)) {
				hi, lo := bits.Mul64(dn, pow10[k])
				return bits.Rem64(hi, lo, m.mant) == 0
			}
		}
	}
	return isMultiple(v.decimal(), m.dec)
}

var pow10 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// shortDec reads a literal of at most 19 significant digits as |value| =
// mant×10^exp, mant without trailing zeros (0 for zero), without
// allocating.
func shortDec(lit []byte) (mant uint64, exp int64, ok bool) {
	i, nd := 0, 0
	if i < len(lit) && lit[i] == '-' {
		i++
	}
	digit := func(c byte) bool {
		if c == '0' && mant == 0 {
			return true // a leading zero
		}
		if nd == 19 {
			return false
		}
		mant = mant*10 + uint64(c-'0')
		nd++
		return true
	}
	for ; i < len(lit) && isDigit(lit[i]); i++ {
		if !digit(lit[i]) {
			return 0, 0, false
		}
	}
	if i < len(lit) && lit[i] == '.' {
		for i++; i < len(lit) && isDigit(lit[i]); i++ {
			if !digit(lit[i]) {
				return 0, 0, false
			}
			exp--
		}
	}
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		neg := false
		if lit[i] == '+' || lit[i] == '-' {
			neg = lit[i] == '-'
			i++
		}
		var e int64
		for ; i < len(lit); i++ {
			e = e*10 + int64(lit[i]-'0')
			if e > 1<<30 {
				return 0, 0, false
			}
		}
		if neg {
			e = -e
		}
		exp += e
	}
	if mant == 0 {
		return 0, 0, true
	}
	for mant%10 == 0 {
		mant /= 10
		exp++
	}
	return mant, exp, true
}

// canonicalJSON returns a key equal for two JSON values exactly when JSON
// Schema deems them equal: numbers by exact value, strings by content,
// objects by members whatever their order.
func canonicalJSON(raw []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	var b []byte
	var write func(v any)
	write = func(v any) {
		switch x := v.(type) {
		case json.Number:
			n := parseDec([]byte(x))
			if n.isZero() {
				b = append(b, 'n', '0')
				return
			}
			b = append(b, 'n')
			if n.neg {
				b = append(b, '-')
			}
			b = append(b, n.digits...)
			b = append(b, 'e')
			b = strconv.AppendInt(b, n.exp, 10)
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			b = append(b, '{')
			for _, k := range keys {
				b = strconv.AppendQuote(b, k)
				b = append(b, ':')
				write(x[k])
				b = append(b, ',')
			}
			b = append(b, '}')
		case []any:
			b = append(b, '[')
			for _, e := range x {
				write(e)
				b = append(b, ',')
			}
			b = append(b, ']')
		default:
			raw, _ := json.Marshal(x)
			b = append(b, raw...)
		}
	}
	write(v)
	return string(b), true
}

// beyondExp reports whether the literal's value or its written exponent
// has a decimal exponent beyond ±limit (0e99999 counts: big.Rat reads the
// exponent before it sees the zero).
func beyondExp(lit []byte, limit int64) bool {
	n := parseDec(lit)
	if n.exp > limit || n.exp < -limit {
		return true
	}
	i := bytes.IndexAny(lit, "eE")
	if i < 0 {
		return false
	}
	written := parseDec(append([]byte("1"), lit[i:]...))
	return written.exp-1 > limit || written.exp-1 < -limit
}
