package view_test

import (
	"context"
	"fmt"
	"html/template"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

type StockArgs struct {
	// The ticker symbol, e.g. ACME.
	Symbol string `json:"symbol" validate:"required"`
}

type Quote struct {
	Symbol string `json:"symbol"`
	// The last price, in USD.
	Price float64 `json:"price" jsonschema_extras:"x-unit=USD"`
}

// A tool whose result is shown with the default view (derived from Quote's
// schema), one with a template of its own, and an app-only tool its view
// calls.
func Example() {
	reg := mcptool.NewRegistry()
	quote := func(_ context.Context, in StockArgs) (Quote, error) {
		return Quote{Symbol: in.Symbol, Price: 12.5}, nil
	}
	err := reg.Add("quote", quote, mcptool.Description("Gets a quote."), mcptool.View(view.Default()))
	fmt.Println(err)

	card := template.Must(template.New("card").Parse(
		`<p class="card">{{.Symbol}}: {{.Price}} <button data-mcpgen-call="refresh" data-mcpgen-arg-symbol="{{.Symbol}}" data-mcpgen-target="now">refresh</button></p><p id="now"></p>`))
	err = reg.Add("quote_card", quote, mcptool.Description("Shows a quote."), mcptool.View(view.Template(card)))
	fmt.Println(err)

	err = reg.Add("refresh", quote, mcptool.Description("Refreshes a quote."), mcptool.View(view.AppOnly()))
	fmt.Println(err)
	// Output:
	// <nil>
	// <nil>
	// <nil>
}

// A view of one's own that only views call (the tag's view,visibility=app),
// and a tool views may not call (visibility=model).
func ExampleView_Visibility() {
	reg := mcptool.NewRegistry()
	fsys := fstest.MapFS{"detail.html": {Data: []byte("<!doctype html><html><head><title>Detail</title></head><body></body></html>")}}
	detail := func(_ context.Context, in StockArgs) (Quote, error) { return Quote{Symbol: in.Symbol}, nil }
	err := reg.Add("quote_detail", detail, mcptool.Description("Shows a quote in detail."),
		mcptool.View(view.Page(fsys, "detail.html").Visibility("app")))
	fmt.Println(err)
	err = reg.Add("sell", detail, mcptool.Description("Sells a stock."), mcptool.View(view.ModelOnly()))
	fmt.Println(err)

	c, _ := reg.Catalog()
	for _, t := range c.Tools {
		fmt.Println(t.Name, t.View.Kind, t.View.Visibility)
	}
	// Output:
	// <nil>
	// <nil>
	// quote_detail page [app]
	// sell  [model]
}
