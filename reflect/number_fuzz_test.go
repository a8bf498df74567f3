package mcpreflect

import (
	"testing"
)

// FuzzNumberAgreement sends any number to every property of numberArgs
// (integers and floats of each size, bounds, multipleOf, enum) and checks
// that Decode accepts it exactly when the reference validator, with
// arbitrary-precision numbers, accepts it against the published schema.
func FuzzNumberAgreement(f *testing.F) {
	for _, x := range numberEdges {
		f.Add(x)
	}
	for _, c := range numberCases {
		f.Add(c.doc)
	}
	p, err := PlanFor(tf[numberArgs](), Options{})
	if err != nil {
		f.Fatal(err)
	}
	s := compileSchema(f, "numbers", p.SchemaJSON)
	props := []string{"i", "u", "u8", "f", "f32", "min0", "ex_min", "imin0", "cents", "step", "whole", "pick"}
	f.Fuzz(func(t *testing.T, lit string) {
		if !validNumber(lit) || len(lit) > 400 {
			return
		}
		if beyondExp([]byte(lit), maxGenericExp) {
			// Beyond what the reference can judge (big.Rat refuses such
			// an exponent, and it panics): Decode still decides, exactly.
			for _, prop := range props {
				_, _ = p.DecodeValue([]byte(`{"` + prop + `":` + lit + `}`))
			}
			return
		}
		for _, prop := range props {
			doc := []byte(`{"` + prop + `":` + lit + `}`)
			v := judge(t, p, s, doc)
			if (v.schemaErr == nil) != (v.decodeErr == nil) && !(v.schemaErr == nil && onlyRange(v.decodeErr)) {
				t.Errorf("%s: reference %v, Decode %v", doc, v.schemaErr, v.decodeErr)
			}
		}
	})
}
