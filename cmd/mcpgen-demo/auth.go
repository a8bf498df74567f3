package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/mcptool"
)

// errAnonymous refuses to serve every tool to anyone who reaches a port
// that is not loopback.
var errAnonymous = errors.New("refusing to serve without authorization on an address that is not loopback: " +
	"give -auth-issuer (and -auth-audience), or -allow-unauthenticated if a proxy in front authenticates callers")

// authorization returns the HTTP option that makes the server an OAuth
// resource server for -auth-issuer, or nil without one; without one it
// refuses a listener that is not loopback unless -allow-unauthenticated.
// done stops refreshing the issuer's keys.
func authorization(ctx context.Context, cfg config, ln net.Listener, logger *slog.Logger) (opt mcptool.HTTPOption, done func(), err error) {
	done = func() {}
	if cfg.authIssuer == "" {
		if ip := listenIP(ln); ip == nil || !ip.IsLoopback() {
			if !cfg.allowAnonymous {
				return nil, done, errAnonymous
			}
			logger.Warn("serving without authorization on an address that is not loopback: anyone who reaches it can call every tool", "addr", ln.Addr().String())
		}
		return nil, done, nil
	}
	audience := cfg.authAudience
	if audience == "" {
		audience = "http://" + ln.Addr().String() + "/mcp"
	}
	v, err := mcpoauth.New(ctx, &mcpoauth.Options{Issuer: cfg.authIssuer, Audience: audience})
	if err != nil {
		return nil, done, fmt.Errorf("-auth-issuer: %w", err)
	}
	logger.Info("authorization on", "issuer", cfg.authIssuer, "audience", audience)
	return mcptool.Authorization(v.Verify, &oauthex.ProtectedResourceMetadata{
		Resource:             audience,
		AuthorizationServers: []string{cfg.authIssuer},
		ResourceName:         "mcpgen demo",
	}), func() { _ = v.Close() }, nil
}

// listenIP is the IP address ln listens on, nil if it is not TCP.
func listenIP(ln net.Listener) net.IP {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		return a.IP
	}
	return nil
}
