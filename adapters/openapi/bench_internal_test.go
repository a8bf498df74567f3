package mcpopenapi

import (
	"testing"
)

// BenchmarkAnswerCheck: the check of one answer of show_pet_by_id against
// its output schema, as the Petstore's translation publishes it.
func BenchmarkAnswerCheck(b *testing.B) {
	c, err := compile([]byte(`{"$defs":{"Pet":{"properties":{"id":{"type":"integer","maximum":9223372036854775807,"minimum":-9223372036854775808,"format":"int64"},"name":{"type":"string"},"tag":{"type":"string"}},"type":"object","required":["id","name"]}},"allOf":[{"$ref":"#/$defs/Pet"}],"type":"object"}`))
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"id":7,"name":"Tom","tag":"cat"}`)
	b.ReportAllocs()
	for b.Loop() {
		inst, err := decodeJSON(body)
		if err != nil {
			b.Fatal(err)
		}
		if vs := c.check(inst); len(vs) > 0 {
			b.Fatal(vs)
		}
	}
}
