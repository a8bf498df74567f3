package main

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/mcptool"
)

// SumArgs are the arguments of calculate_sum.
type SumArgs struct {
	_ struct{} `mcp:"title=Add two numbers,readOnly,openWorld=false"`
	A float64  `json:"a" jsonschema_description:"The first addend, e.g. 2.5"`
	B float64  `json:"b" jsonschema_description:"The second addend, e.g. 4"`
}

// Sum is the result of calculate_sum.
type Sum struct {
	Sum float64 `json:"sum" jsonschema_description:"a + b"`
}

func calculateSum(_ context.Context, in SumArgs) (Sum, error) {
	return Sum{Sum: in.A + in.B}, nil
}

// registerDemo registers the demo toolset.
func registerDemo(reg *mcptool.Registry) error {
	if err := mcptool.Add(reg, "calculate_sum", calculateSum,
		mcptool.Description(`Add two numbers and return their sum. Example: {"a": 2.5, "b": 4} returns {"sum": 6.5}.`)); err != nil {
		return fmt.Errorf("calculate_sum: %w", err)
	}
	return nil
}
