package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

type RefundArgs struct {
	_       struct{} `mcp:"destructive"`
	Invoice string   `json:"invoice" jsonschema:"description=The invoice to refund"`
}

type InvoiceArgs struct {
	_       struct{} `mcp:"readOnly,eager"`
	Invoice string   `json:"invoice"`
}

// A registry in discovery mode lists its eager tools and the tools that
// find and call the others; a proxied call runs as the tool's own.
func ExampleDiscovery() {
	reg := mcptool.NewRegistry(mcptool.Discovery(), mcptool.Group("billing"))
	_ = mcptool.Add(reg, "refund_invoice", func(_ context.Context, in RefundArgs) (string, error) {
		return "refunded " + in.Invoice, nil
	}, mcptool.Description("Gives the money of a paid invoice back."))
	_ = mcptool.Add(reg, "get_invoice", func(_ context.Context, in InvoiceArgs) (string, error) {
		return "invoice " + in.Invoice, nil
	}, mcptool.Description("Shows an invoice."))

	ctx := context.Background()
	res, _ := reg.Call(ctx, "search_tools", json.RawMessage(`{"query":"give money back","limit":1}`))
	var found struct{ Tools []mcp.Tool }
	_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &found)
	fmt.Println(found.Tools[0].Name, found.Tools[0].Description)
	res, _ = reg.Call(ctx, "call_write_tool", json.RawMessage(`{"name":"refund_invoice","arguments":{"invoice":"i-1"}}`))
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	res, _ = reg.Call(ctx, "call_tool", json.RawMessage(`{"name":"refund_invoice","arguments":{"invoice":"i-1"}}`))
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// refund_invoice Gives the money of a paid invoice back.
	// refunded i-1
	// true refund_invoice is not read-only: call it with call_write_tool
}

// Group puts a tool in a group: a registry's default, overridden per tool.
func ExampleGroup() {
	reg := mcptool.NewRegistry(mcptool.Group("billing"))
	_ = mcptool.Add(reg, "get_invoice", func(_ context.Context, in InvoiceArgs) (string, error) { return "", nil }, mcptool.NoDescription())
	_ = mcptool.Add(reg, "list_users", func(context.Context, struct{}) (string, error) { return "", nil },
		mcptool.NoDescription(), mcptool.Group("accounts"))
	cat, _ := reg.Catalog()
	for _, t := range cat.Tools {
		fmt.Println(t.Name, t.Group, t.Eager)
	}
	// Output:
	// get_invoice billing true
	// list_users accounts false
}

// SearchEmbedder lets search_tools rank by meaning too. Here a toy
// embedder knows that "scrap" and "cancel" mean one thing; a real one is a
// sentence-embedding model (a local model or an API).
func ExampleSearchEmbedder() {
	idea := map[string]int{"invoice": 0, "invoices": 0, "scrap": 1, "cancels": 1, "lists": 2, "shows": 3, "csv": 4}
	// Words alone rank export_invoices, get_invoice, void_invoice: no word
	// of the query names voiding.
	embed := func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, text := range texts {
			out[i] = make([]float32, 5)
			for _, w := range strings.Fields(strings.ToLower(strings.Trim(text, "."))) {
				if d, ok := idea[strings.Trim(w, ".,:")]; ok {
					out[i][d]++
				}
			}
		}
		return out, nil
	}
	reg := mcptool.NewRegistry(mcptool.Discovery(), mcptool.SearchEmbedder(embed))
	for name, desc := range map[string]string{
		"list_invoices":   "Lists every invoice of the account, newest first.",
		"get_invoice":     "Shows one invoice: its lines and total.",
		"void_invoice":    "Cancels an unpaid invoice so that it is never charged.",
		"export_invoices": "Writes the invoices to a CSV file.",
	} {
		_ = mcptool.Add(reg, name, func(context.Context, struct{}) (string, error) { return "", nil }, mcptool.Description(desc))
	}
	res, _ := reg.Call(context.Background(), "search_tools", json.RawMessage(`{"query":"scrap an invoice","limit":2}`))
	var found struct{ Tools []mcp.Tool }
	_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &found)
	for _, t := range found.Tools {
		fmt.Println(t.Name)
	}
	// Output:
	// export_invoices
	// void_invoice
}
