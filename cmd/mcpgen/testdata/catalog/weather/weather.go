// Package weather is the fixture of mcpgen catalog's tests: a package
// whose function Registry builds its registry, and others of each shape
// mcpgen catalog accepts or refuses.
package weather

import (
	"context"

	"github.com/mcpgen/mcpgen/mcptool"
)

type forecastArgs struct {
	_    struct{} `mcp:"title=Get forecast,readOnly,openWorld"`
	City string   `json:"city" jsonschema:"description=City name"`
	Days int      `json:"days,omitempty" jsonschema:"default=1" validate:"omitempty,min=1,max=7"`
}

func forecast(context.Context, forecastArgs) (string, error) { return "sunny", nil }

// Registry builds the package's registry.
func Registry() (*mcptool.Registry, error) {
	reg := mcptool.NewRegistry()
	if err := register(reg); err != nil {
		return nil, err
	}
	return reg, nil
}

// register adds the package's tools to reg.
func register(reg *mcptool.Registry) error {
	return reg.Add("get_forecast", forecast, mcptool.Description("Forecast for a city, day by day."))
}

// Broken returns a registry whose tool cannot be registered.
func Broken() (*mcptool.Registry, error) {
	reg := mcptool.NewRegistry()
	return reg, reg.Add("Bad Name", forecast, mcptool.Description("x"))
}

// Count is not a registry's constructor.
func Count() int { return 1 }
