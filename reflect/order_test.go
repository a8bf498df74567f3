package mcpreflect

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type orderItem struct {
	SKU string `json:"sku" validate:"required,len=3"`
	Qty int    `json:"qty" validate:"min=1"`
}

type orderArgs struct {
	Name  string            `json:"name" validate:"required,min=2"`
	Items []orderItem       `json:"items" validate:"max=3"`
	Tags  map[string]string `json:"tags,omitempty" validate:"omitempty,dive,max=2"`
	Code  string            `json:"code,omitempty" validate:"omitempty,startswith=X"`
}

// violations decodes doc with the plan of orderArgs and returns each
// violation as "path rule".
func orderViolations(t *testing.T, doc string) []string {
	t.Helper()
	p, err := PlanFor(reflect.TypeFor[orderArgs](), Options{})
	require.NoError(t, err)
	_, err = p.DecodeValue([]byte(doc))
	var ae *ArgumentsError
	require.ErrorAs(t, err, &ae, doc)
	var out []string
	for _, v := range ae.Violations {
		out = append(out, v.Path+" "+v.Rule)
	}
	return out
}

// Violations come in schema order, whatever order the keys were sent in:
// properties by their place in the schema, elements by index, a value's own
// violations before those inside it, unknown properties last in the order
// sent, map members in the order sent.
func TestViolationsInSchemaOrder(t *testing.T) {
	want := []string{
		"name minLength",
		"items maxItems",
		"items[0].sku minLength",
		"items[0].qty minimum",
		"items[3].sku required",
		"tags.b maxLength",
		"tags.a maxLength",
		"code startswith",
		"zz additionalProperties",
		"aa additionalProperties",
	}
	docs := []string{
		`{"name":"n","items":[{"sku":"x","qty":0},{"sku":"abc","qty":1},{"sku":"abc","qty":1},{"qty":1}],"tags":{"b":"long","a":"long"},"code":"Y","zz":1,"aa":2}`,
		`{"aa":2,"code":"Y","zz":1,"tags":{"b":"long","a":"long"},"items":[{"qty":0,"sku":"x"},{"sku":"abc","qty":1},{"qty":1,"sku":"abc"},{"qty":1}],"name":"n"}`,
		`{"zz":1,"tags":{"b":"long","a":"long"},"name":"n","aa":2,"items":[{"sku":"x","qty":0},{"qty":1,"sku":"abc"},{"sku":"abc","qty":1},{"qty":1}],"code":"Y"}`,
	}
	for _, doc := range docs {
		got := orderViolations(t, doc)
		if doc == docs[0] {
			assert.Equal(t, want, got, doc)
			continue
		}
		// Unknown properties keep the order they came in; the rest is fixed.
		assert.Equal(t, want[:8], got[:8], doc)
		assert.ElementsMatch(t, want[8:], got[8:], doc)
	}
}
