package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
)

// openAPITypes is the registry option the fronted operations need; every
// registry of the demo has it, so that -openapi adds to any toolset.
var openAPITypes = mcpopenapi.Types

// frontOpenAPI adds the operations of -openapi's description to a's
// registry, sent to -openapi-base (default: the description's first
// server), with MCPGEN_OPENAPI_TOKEN, when set, as the bearer token of
// every request: the server's own credential, never the MCP client's.
// The operations that cannot be fronted exactly are logged and left out.
func frontOpenAPI(a *app, err error, cfg config, logger *slog.Logger) (*app, error) {
	if err != nil || cfg.openapi == "" {
		return a, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := mcpopenapi.Load(ctx, cfg.openapi)
	if err == nil {
		opts := mcpopenapi.Options{BaseURL: cfg.openapiBase, Partial: true}
		if token := os.Getenv("MCPGEN_OPENAPI_TOKEN"); token != "" {
			opts.Authorize = func(r *http.Request) error {
				r.Header.Set("Authorization", "Bearer "+token)
				return nil
			}
		}
		before := len(a.reg.Tools())
		err = mcpopenapi.Add(a.reg, d, opts)
		if e, ok := err.(*mcpopenapi.Error); ok && e.Registered > 0 {
			for _, o := range e.Operations {
				logger.Warn("openapi: operation left out", "operation", o.Operation, "reason", o.Error())
			}
			err = nil
		}
		if err == nil {
			logger.Info("openapi: operations fronted", "description", cfg.openapi, "tools", len(a.reg.Tools())-before)
		}
	}
	if err != nil {
		if a.close != nil {
			_ = a.close()
		}
		return nil, fmt.Errorf("-openapi %s: %w", cfg.openapi, err)
	}
	return a, nil
}
