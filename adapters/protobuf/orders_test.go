package mcpproto_test

import (
	"context"
	"encoding/json"
	"testing"

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

func TestScratchOrders(t *testing.T) {
	reg := ordersRegistry(t)
	tl, _ := reg.Tool("create_order")
	in, _ := json.Marshal(tl.InputSchema)
	t.Logf("%d bytes: %s", len(in), in)
	for _, a := range []string{
		`{"customerId":"c","items":[{"sku":"a","quantity":1,"unitPriceCents":9223372036854775808}],"shippingAddress":"1 Main St"}`,
		`{"customerId":"c","items":[{"sku":"a","quantity":1}],"shippingAddress":"1 Main St","pickupStoreId":"s"}`,
		`{"customerId":"c","items":[{"sku":"a","quantity":1}],"shippingAddress":"1 Main St","customer_id":"s"}`,
		`{"customerId":"c","items":[{"sku":"a","quantity":"x"}],"shippingAddress":"1 Main St"}`,
		`{"customerId":"c","items":[{"sku":"a","quantity":1}],"priority":"NOPE","shippingAddress":"1 Main St"}`,
	} {
		res := call(t, reg, "create_order", a)
		t.Logf("%s\n%s", a, text(res))
	}
}
