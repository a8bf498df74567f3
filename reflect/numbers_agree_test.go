package mcpreflect

import (
	"encoding/json"
	"math/big"
	"strings"
)

// The number and format sweeps of the agreement test (agree_test.go): every
// numeric property of the zoo meets the values where float64 arithmetic and
// JSON Schema's exact decimals part ways, every format property the strings
// where format checkers part ways.

// numberEdges are tried on every number and integer property. Whatever the
// schema says of each, Decode must say the same.
var numberEdges = []string{
	"0", "-0", "0.0", "-0.0", "0e5", "-0e-5", "0.5", "-0.5", "1.5", "2.5", "-1",
	"1e-400", "-1e-400", "1e400", "-1e400", "1E400", "1e-7",
	"5e-324", "4.9e-324", "2.2250738585072014e-308", "1.401298464324817e-45",
	"9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993", "9007199254740993.0",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "9.223372036854775807e18",
	"18446744073709551615", "18446744073709551616", "-18446744073709551616", "1e19", "1e20",
	"123456789012345678901234567890", "-123456789012345678901234567890",
	"3.4028234663852886e38", "3.4028235e38", "3.40282350000000000001e38", "3.4028236e38", "-3.4028236e38",
	"1.7976931348623157e308", "1.79769313486231570001e308", "1.7976931348623158e308", "1.7976931348623159e308", "-1.7976931348623159e308",
	"0.1", "0.01", "0.000000000001", "999999.999999999999", "1.0000000000000000001", "0.99999999999999999999",
	"100.0", "1e2", "1.00e2", "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769",
	"65535", "65536", "2147483647", "2147483648", "4294967295", "4294967296",
}

// rat reads a number of a schema or document decoded with UseNumber.
func rat(v any) (*big.Rat, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case float64:
		s = big.NewFloat(x).Text('g', -1)
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// ratJSON writes r as an exact decimal JSON number (r has one: its
// denominator has no prime factor but 2 and 5).
func ratJSON(r *big.Rat) json.Number {
	if r.IsInt() {
		return json.Number(r.Num().String())
	}
	d := new(big.Int).Set(r.Denom())
	k := int(d.TrailingZeroBits())
	fives, five, m := 0, big.NewInt(5), new(big.Int)
	for {
		q, _ := new(big.Int).QuoRem(d, five, m)
		if m.Sign() != 0 {
			break
		}
		d = q
		fives++
	}
	return json.Number(r.FloatString(max(k, fives)))
}

func ratOp(a *big.Rat, op byte, b *big.Rat) *big.Rat {
	switch op {
	case '+':
		return new(big.Rat).Add(a, b)
	case '-':
		return new(big.Rat).Sub(a, b)
	}
	return new(big.Rat).Mul(a, b)
}

// walkNumber emits the mutations of a number or integer property: each
// bound broken, met and missed by a hair, multiples and near-multiples,
// enum values written differently, and numberEdges.
func (g *mutator) walkNumber(s map[string]any, typ string, loc []any) {
	step := big.NewRat(1, 2)
	if typ == "integer" {
		step = big.NewRat(1, 1)
		g.emit("fraction", loc, json.Number("1.5"), "type")
		g.emit("integral float", loc, json.Number("2.0"), "")
		g.emit("exponent", loc, json.Number("1e1"), "")
	}
	hair, _ := new(big.Rat).SetString("1e-30")
	near := func(what string, r *big.Rat) {
		g.emit(what+" minus a hair", loc, ratJSON(ratOp(r, '-', hair)), "")
		g.emit(what+" plus a hair", loc, ratJSON(ratOp(r, '+', hair)), "")
	}
	if r, ok := rat(s["minimum"]); ok {
		g.emit("below minimum", loc, ratJSON(ratOp(r, '-', step)), "minimum")
		g.emit("at minimum", loc, ratJSON(r), "")
		near("minimum", r)
	}
	if r, ok := rat(s["maximum"]); ok {
		g.emit("above maximum", loc, ratJSON(ratOp(r, '+', step)), "maximum")
		g.emit("at maximum", loc, ratJSON(r), "")
		near("maximum", r)
	}
	if r, ok := rat(s["exclusiveMinimum"]); ok {
		g.emit("at exclusiveMinimum", loc, ratJSON(r), "exclusiveMinimum")
		near("exclusiveMinimum", r)
	}
	if r, ok := rat(s["exclusiveMaximum"]); ok {
		g.emit("at exclusiveMaximum", loc, ratJSON(r), "exclusiveMaximum")
		near("exclusiveMaximum", r)
	}
	if m, ok := rat(s["multipleOf"]); ok {
		if typ == "integer" {
			if m.Cmp(big.NewRat(1, 1)) != 0 {
				g.emit("not a multiple", loc, ratJSON(ratOp(m, '+', big.NewRat(1, 1))), "multipleOf")
			}
		} else {
			g.emit("not a multiple", loc, ratJSON(ratOp(m, '*', big.NewRat(3, 2))), "multipleOf")
		}
		g.emit("a multiple", loc, ratJSON(ratOp(m, '*', big.NewRat(3, 1))), "")
		far := ratOp(m, '*', big.NewRat(100000000000001, 1))
		g.emit("a far multiple", loc, ratJSON(far), "")
		near("a far multiple", far)
		g.emit("a negative multiple", loc, ratJSON(ratOp(m, '*', big.NewRat(-7, 1))), "")
		g.emit("a tenth of the step", loc, ratJSON(ratOp(m, '*', big.NewRat(1, 10))), "")
		g.emit("the step in exponent form", loc, json.Number(ratJSON(m)+"e0"), "")
	}
	var vals []any
	if e, ok := s["enum"].([]any); ok {
		vals = e
	}
	if c, ok := s["const"]; ok {
		vals = append(vals, c)
	}
	for _, v := range vals {
		if r, ok := rat(v); ok {
			near("an enum value", r)
			g.emit("an enum value with an exponent", loc, json.Number(strings.TrimSuffix(string(ratJSON(r)), ".0")+"0e-1"), "")
		}
	}
	for _, x := range numberEdges {
		g.emit("edge "+x, loc, json.Number(x), "")
	}
}

// formatEdges emits the strings of formatCases for format f, except those
// knownFormatDiffs pins as known differences.
func (g *mutator) formatEdges(f string, loc []any) {
	for _, x := range formatCases[f] {
		if _, known := knownFormatDiffs[f+" "+x]; known {
			continue
		}
		g.emit("format edge "+x, loc, x, "")
		if rule, ok := knownSweepDiffs[f+" "+x]; ok {
			g.out[len(g.out)-1].known = rule
		}
	}
}

// knownSweepDiffs are the documented differences the sweep meets: a
// time.Time cannot hold a leap second, so a time.Time field refuses one
// that a string with format date-time takes (docs/tags.md, Numbers and
// formats).
var knownSweepDiffs = map[string]string{
	"date-time 2016-12-31T23:59:60Z":      "format",
	"date-time 2016-12-31T15:59:60-08:00": "format",
}
