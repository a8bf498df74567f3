package mcptool_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// TestCatalogExampleValues: the catalogue's example call takes a
// property's examples or default first, then values a person would write —
// a small round number inside the bounds, not a bound; a string that reads
// as what it names, within its length and pattern — not "xxx" and 100000.
func TestCatalogExampleValues(t *testing.T) {
	type Page struct {
		Size int `json:"size,omitempty" jsonschema:"default=25" validate:"omitempty,min=1,max=100"`
	}
	type Line struct {
		SKU string `json:"sku" validate:"required,min=3"`
	}
	type OrderArgs struct {
		Title       string   `json:"title" validate:"required,min=3"`
		Quantity    int      `json:"quantity" validate:"required,max=100000"`
		Rows        int      `json:"rows" validate:"required,min=1,max=5000000"`
		Port        int      `json:"port" validate:"required,min=1024,max=65535"`
		Celsius     int      `json:"celsius" validate:"required,min=-50,max=-10"`
		Ratio       float64  `json:"ratio" validate:"required,gt=0,lt=1"`
		Code        string   `json:"code" validate:"required" jsonschema:"pattern=^[A-Z]{2}-[0-9]{3}$"`
		Short       string   `json:"short" validate:"required,max=4"`
		FilePath    string   `json:"file_path" validate:"required"`
		Email       string   `json:"email" validate:"required,email"`
		Tags        []string `json:"tags" validate:"required"`
		Lines       []Line   `json:"lines" validate:"required,min=2"`
		Limit       int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
		City        string   `json:"city" jsonschema:"example=Lisbon" validate:"required"`
		Optional    string   `json:"optional,omitempty"`
		Page        Page     `json:"page" validate:"required"`
		Unbounded   int      `json:"unbounded" validate:"required"`
		Approximate float64  `json:"approximate" validate:"required"`
	}
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("order", func(context.Context, OrderArgs) (string, error) { return "", nil }, mcptool.Description("Orders.")))
	c, err := reg.Catalog()
	require.NoError(t, err)
	require.Len(t, c.Tools, 1)
	assert.JSONEq(t, `{
		"title": "example title",
		"quantity": 1,
		"rows": 1,
		"port": 2000,
		"celsius": -10,
		"ratio": 0.5,
		"code": "AA-000",
		"short": "exam",
		"file_path": "example file path",
		"email": "ada@example.com",
		"tags": ["example tag"],
		"lines": [{"sku": "example sku"}, {"sku": "example sku"}],
		"city": "Lisbon",
		"page": {},
		"unbounded": 1,
		"approximate": 1
	}`, string(c.Tools[0].Example))
}
