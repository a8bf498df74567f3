package mcpproto_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// orders is the orders service of issue 35.
type orders struct {
	testpb.UnimplementedOrdersServer
}

func (orders) CreateOrder(_ context.Context, in *testpb.CreateOrderRequest) (*testpb.Order, error) {
	var total int64
	for _, it := range in.GetItems() {
		total += int64(it.GetQuantity()) * it.GetUnitPriceCents()
	}
	return &testpb.Order{OrderId: "o-1", Items: in.GetItems(), TotalCents: total, Priority: in.GetPriority()}, nil
}

func ordersRegistry(t *testing.T) *mcptool.Registry {
	t.Helper()
	sd, err := mcpproto.Described(testpb.File_orders_proto.Services().ByName("Orders"), testpb.Descriptors)
	require.NoError(t, err)
	reg := mcptool.NewRegistry(mcpproto.Types(mcpproto.SourceInfo(testpb.Descriptors)), quiet())
	require.NoError(t, mcpproto.AddService(reg, sd, orders{}))
	return reg
}

// TestOrdersSchemaSize: the create_order input schema of issue 35's
// orders service (a oneof, an enum, a Timestamp, a map, int64,
// protovalidate rules) within twice protoc-gen-go-mcp's 1,372 bytes, with
// one spelling per field and the oneof's exclusion written once.
func TestOrdersSchemaSize(t *testing.T) {
	reg := ordersRegistry(t)
	tl, _ := reg.Tool("create_order")
	in := tl.InputSchema.(json.RawMessage)
	assert.LessOrEqual(t, len(in), 2*1372, "%s", in)
	assert.NotContains(t, string(in), "customer_id")
	assert.NotContains(t, string(in), "dependentSchemas")
	assert.Equal(t, 1, strings.Count(string(in), `"oneOf"`), "one subschema for the oneof destination")
	assert.Contains(t, string(in), `"maximum":9223372036854775807`, "int64's bound printed exactly")
	t.Logf("create_order: %d bytes of input schema", len(in))
}

// TestOrdersErrors: each error names the field and the rule once, numbers
// exactly.
func TestOrdersErrors(t *testing.T) {
	reg := ordersRegistry(t)
	const ok = `"customerId":"c","items":[{"sku":"a","quantity":1}]`
	cases := []struct{ name, args, want string }{
		{"int64 beyond its range", `{"customerId":"c","items":[{"sku":"a","quantity":1,"unitPriceCents":9223372036854775808}],"shippingAddress":"1 Main St"}`,
			"- items[0].unitPriceCents: must be at most 9223372036854775807, got 9223372036854775808 (maximum)"},
		{"int64 below its bound and range", `{"customerId":"c","items":[{"sku":"a","quantity":1,"unitPriceCents":-9223372036854775809}],"shippingAddress":"1 Main St"}`,
			"- items[0].unitPriceCents: must be at least 0, got -9223372036854775809 (minimum)"},
		{"oneof conflict", `{` + ok + `,"shippingAddress":"1 Main St","pickupStoreId":"s-1"}`,
			"- (arguments): oneof destination is already set: shippingAddress and pickupStoreId both given (oneof)"},
		{"the .proto name", `{` + ok + `,"shippingAddress":"1 Main St","customer_id":"c"}`,
			"- customer_id: unknown field; this field is spelt customerId (additionalProperties)"},
		{"a number branch aimed at", `{"customerId":"c","items":[{"sku":"a","quantity":"x"}],"shippingAddress":"1 Main St"}`,
			"- items[0].quantity: must be a number, or a number in a string, got \"x\" (type)"},
		{"an enum name", `{` + ok + `,"priority":"PRIORITY_NOW","shippingAddress":"1 Main St"}`,
			"- priority: value must be one of 'PRIORITY_UNSPECIFIED', 'PRIORITY_STANDARD', 'PRIORITY_EXPRESS' (enum)"},
		{"no branch's type", `{` + ok + `,"priority":true,"shippingAddress":"1 Main St"}`,
			"- priority: got boolean, want string, integer or null (type)"},
		{"a zero value required", `{"customerId":"c","items":[{"sku":"a","quantity":0}],"shippingAddress":"1 Main St","labels":[]}`,
			"- items[0].quantity: must be greater than 0, got 0 (exclusiveMinimum)\n- items[0].quantity: value is required (required)\n- labels: got array, want object or null (type)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, reg, "create_order", c.args)
			require.True(t, res.IsError, "%s accepted", c.args)
			assert.Equal(t, "invalid arguments:\n"+c.want, text(res))
		})
	}
	res := call(t, reg, "create_order", `{`+ok+`,"pickupStoreId":"s-1","shippingAddress":null,"labels":{"a":"b"},"deliverAfter":"2026-01-01T00:00:00Z"}`)
	require.False(t, res.IsError, "null is no value: %s", text(res))
	assert.JSONEq(t, `{"orderId":"o-1","items":[{"sku":"a","quantity":1}]}`, text(res))
}
