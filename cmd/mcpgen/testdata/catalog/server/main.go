// Command server is the fixture of mcpgen catalog's tests for a command:
// an unexported function builds the registry; main is never run.
package main

import (
	"context"

	"github.com/mcpgen/mcpgen/mcptool"
)

type pingArgs struct {
	_ struct{} `mcp:"readOnly,openWorld=false"`
}

func registry() *mcptool.Registry {
	reg := mcptool.NewRegistry()
	_ = reg.Add("ping", func(context.Context, pingArgs) (string, error) { return "pong", nil }, mcptool.Description("Answers pong."))
	return reg
}

func main() { panic("main runs") }
