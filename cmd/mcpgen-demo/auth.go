package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/mcptool"
)

// errAnonymous refuses to serve every tool to anyone who reaches a port
// that is not loopback.
var errAnonymous = errors.New("refusing to serve without authorization on an address that is not loopback: " +
	"give -auth-issuer (and -auth-audience), or -allow-unauthenticated if a proxy in front authenticates callers")

// authorization sets the HTTP options that make the server an OAuth
// resource server for -auth-issuer in o, and reports whether it did;
// without an issuer it refuses a listener that is not loopback unless
// -allow-unauthenticated. With -auth-dpop it takes only DPoP-bound tokens,
// and replicas with -redis (cl) share the proofs already seen. done stops
// refreshing the issuer's keys.
func authorization(ctx context.Context, cfg config, cl *mcpredis.Cluster, ln net.Listener, logger *slog.Logger, o *mcptool.HTTPOptions) (on bool, done func(), err error) {
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
	audience := cfg.authAudience
	if audience == "" {
		audience = "http://" + ln.Addr().String() + "/mcp"
	}
	var dpop *mcpoauth.DPoPOptions
	if cfg.authDPoP {
		dpop = &mcpoauth.DPoPOptions{Required: true}
		if cl != nil {
			dpop.Spent = cl.SpentStore()
		}
	}
	v, err := mcpoauth.New(ctx, &mcpoauth.Options{Issuer: cfg.authIssuer, Audience: audience, DPoP: dpop})
	if err != nil {
		return false, done, fmt.Errorf("-auth-issuer: %w", err)
	}
	logger.Info("authorization on", "issuer", cfg.authIssuer, "audience", audience, "dpop", cfg.authDPoP)
	o.TokenVerifier = v.Verify
	o.ResourceMetadata = v.ResourceMetadata(oauthex.ProtectedResourceMetadata{ResourceName: "mcpgen demo"})
	return true, func() { _ = v.Close() }, nil
}

// listenIP is the IP address ln listens on, nil if it is not TCP.
func listenIP(ln net.Listener) net.IP {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		return a.IP
	}
	return nil
}

// runIssuer is the issuer subcommand: a development authorization server on
// loopback that grants any client_credentials token asked for (the scope
// and resource of the form), and authorization codes with PKCE to clients
// it registers (oauthtest), bound to the key of the token request's DPoP
// proof when it has one (for -auth-dpop), for trying -auth-issuer out.
// Never expose it.
func runIssuer(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcpgen-demo issuer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "127.0.0.1:9000", "serve on `ADDR`, which must be loopback")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if ip := listenIP(ln); ip == nil || !ip.IsLoopback() {
		_ = ln.Close()
		return fmt.Errorf("issuer: %s is not a loopback address: the development issuer grants tokens to anyone", *addr)
	}
	iss := &oauthtest.Issuer{URL: "http://" + ln.Addr().String()}
	if _, err := iss.AddKey("RS256"); err != nil {
		return err
	}
	slog.New(slog.NewTextHandler(stderr, nil)).Info("development issuer", "url", iss.URL,
		"token", "curl -d grant_type=client_credentials -d scope=demo:read -d resource=AUDIENCE "+iss.URL+"/token")
	hs := &http.Server{Handler: iss.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); _ = hs.Close() }()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
