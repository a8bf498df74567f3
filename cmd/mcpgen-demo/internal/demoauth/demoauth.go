// Package demoauth is the OAuth of cmd/mcpgen-demo/full: the resource
// server's token verification (-auth-issuer) and a development issuer (the
// issuer subcommand). It is a package of its own so that cmd/mcpgen-demo
// does not compile the JWT library.
package demoauth

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
	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
)

// Verify makes o require OAuth access tokens (JWTs) from issuer for
// audience, and with dpop only DPoP-bound ones; the proofs seen are kept
// in spent (-redis: replicas share them), or in process when it is nil.
// done stops refreshing the issuer's keys.
func Verify(ctx context.Context, issuer, audience string, dpop bool, spent cluster.SpentStore, o *mcptool.HTTPOptions) (done func(), err error) {
	var d *mcpoauth.DPoPOptions
	if dpop {
		d = &mcpoauth.DPoPOptions{Required: true, Spent: spent}
	}
	v, err := mcpoauth.New(ctx, &mcpoauth.Options{Issuer: issuer, Audience: audience, DPoP: d})
	if err != nil {
		return nil, err
	}
	o.TokenVerifier = v.Verify
	o.ResourceMetadata = v.ResourceMetadata(oauthex.ProtectedResourceMetadata{ResourceName: "mcpgen demo"})
	return func() { _ = v.Close() }, nil
}

// listenIP is the IP address ln listens on, nil if it is not TCP.
func listenIP(ln net.Listener) net.IP {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		return a.IP
	}
	return nil
}

// Issuer is the issuer subcommand: a development authorization server on
// loopback that grants any client_credentials token asked for (the scope
// and resource of the form), and authorization codes with PKCE to clients
// it registers (oauthtest), bound to the key of the token request's DPoP
// proof when it has one (for -auth-dpop), for trying -auth-issuer out.
// Never expose it.
func Issuer(ctx context.Context, args []string, stderr io.Writer) error {
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
