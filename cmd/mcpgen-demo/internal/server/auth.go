package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"

	"github.com/mcpgen/mcpgen/mcptool"
)

// errAnonymous refuses to serve every tool to anyone who reaches a port
// that is not loopback.
var errAnonymous = errors.New("refusing to serve without authorization on an address that is not loopback: " +
	"give -auth-issuer (and -auth-audience; cmd/mcpgen-demo/full has them), or -allow-unauthenticated if a proxy in front authenticates callers")

// authorization sets the HTTP options that make the server an OAuth
// resource server for -auth-issuer in o, and reports whether it did;
// without an issuer it refuses a listener that is not loopback unless
// -allow-unauthenticated. With -auth-dpop it takes only DPoP-bound tokens,
// and replicas with -redis (cl) share the proofs already seen. done stops
// refreshing the issuer's keys.
func authorization(ctx context.Context, cfg config, cl Shared, ln net.Listener, logger *slog.Logger, o *mcptool.HTTPOptions) (on bool, done func(), err error) {
	done = func() {}
	if cfg.authDPoP && cfg.authIssuer == "" {
		return false, done, errors.New("-auth-dpop needs -auth-issuer")
	}
	if cfg.authIssuer == "" {
		if ip := listenIP(ln); ip == nil || !ip.IsLoopback() {
			if !cfg.allowAnonymous {
				return false, done, errAnonymous
			}
			logger.Warn("serving without authorization on an address that is not loopback: anyone who reaches it can call every tool", "addr", ln.Addr().String())
		}
		return false, done, nil
	}
	if cfg.features.Auth == nil {
		return false, done, errors.New("-auth-issuer: " + fullNote)
	}
	audience := cfg.authAudience
	if audience == "" {
		audience = "http://" + ln.Addr().String() + "/mcp"
	}
	done, err = cfg.features.Auth(ctx, Auth{Issuer: cfg.authIssuer, Audience: audience, DPoP: cfg.authDPoP}, cl, o)
	if err != nil {
		return false, func() {}, fmt.Errorf("-auth-issuer: %w", err)
	}
	logger.Info("authorization on", "issuer", cfg.authIssuer, "audience", audience, "dpop", cfg.authDPoP)
	return true, done, nil
}

// listenIP is the IP address ln listens on, nil if it is not TCP.
func listenIP(ln net.Listener) net.IP {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		return a.IP
	}
	return nil
}
