// Command stdioserver serves one tool on stdio, for the tests and examples
// of mcptest.Binary and mcptest.Command.
package main

import (
	"context"
	"log"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// ShoutArgs are the arguments of shout.
type ShoutArgs struct {
	Text string `json:"text" validate:"required,max=40"`
}

func main() {
	reg := mcptool.NewRegistry()
	err := mcptool.Add(reg, "shout", func(_ context.Context, in ShoutArgs) (string, error) {
		return strings.ToUpper(in.Text) + "!", nil
	}, mcptool.Description("Shouts the text."))
	if err != nil {
		log.Fatal(err)
	}
	log.SetOutput(os.Stderr)
	log.Print("serving on stdio")
	srv := reg.Server(&mcp.Implementation{Name: "stdioserver", Version: "1"}, nil)
	if err := srv.Run(context.Background(), &mcptool.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
