package mcpopenapi

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

var decodeSeeds = []string{
	`{"id":7,"name":"Tom","tag":"cat"}`,
	` [1, -0, 0.5, 1e3, -1.5E-3, 9223372036854775808, 1E400, true, false, null, {}, [], ""] `,
	`{"a":{"b":[{"c":"d\"e\\f\u00e9\ud83d\ude00"}]},"a":2}`,
	`"h\u00e9llo wörld"`, "\"bad \xff utf-8\"", `"\ud800"`, "\"tab\there\"",
	`01`, `-`, `1.`, `.5`, `1e`, `+1`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `tru`, `nul`, `[`, `{`, `"`, ``, ` `,
	`{} {}`, `[] x`, `truex`, `"a"b`, `[1 2]`, `{"a":1 "b":2}`, `nulll`, `-01`, `1e+`, `0x10`, `"\x"`, `"\u12"`,
	strings.Repeat("[", 1200) + strings.Repeat("]", 1200),
}

// TestDecodeAgreement: decodeJSON reads every document as sjs.UnmarshalJSON
// does, the same value or the same error, for the seeds and their
// mutations (a byte changed, cut, or repeated).
func TestDecodeAgreement(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(`{}[],:"\ .-+eE01239tfnulx` + "\xff\xc3\xa9\t\n")
	docs := append([]string(nil), decodeSeeds...)
	for range 20000 {
		b := []byte(decodeSeeds[rng.IntN(len(decodeSeeds))])
		for range 1 + rng.IntN(3) {
			if len(b) == 0 {
				b = append(b, alphabet[rng.IntN(len(alphabet))])
				continue
			}
			i := rng.IntN(len(b))
			switch rng.IntN(4) {
			case 0:
				b[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:i:i], b[i+1:]...)
			case 2:
				b = append(b[:i:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			default:
				b = b[:i]
			}
		}
		docs = append(docs, string(b))
	}
	for _, doc := range docs {
		agree(t, []byte(doc))
	}
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(agree)
}

func agree(t *testing.T, b []byte) {
	got, gerr := decodeJSON(b)
	want, werr := sjs.UnmarshalJSON(bytes.NewReader(b))
	if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("%q: error %v, want %v", b, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: %#v, want %#v", b, got, want)
	}
}
