package server

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
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

const version = "0.1.0"

type config struct {
	features Features // what the command adds (features.go)

	httpAddr  string
	stateless bool
	verbose   bool // -v: go-sdk's per-session INFO lines too
	discovery bool // -discovery: list a few tools, search the rest (docs/discovery.md)
	toolset   string
	redisURL  string        // shared state of replicas; "" keeps it in process
	bodyWait  time.Duration // with -http: how long a request body may take to arrive

	authIssuer     string // with -http: the OAuth issuer whose tokens callers need; "" is none
	authAudience   string // this server's resource identifier; "" is http://ADDR/mcp
	allowAnonymous bool   // serve without authorization on a non-loopback address
	authDPoP       bool   // -auth-dpop: take only DPoP-bound tokens (RFC 9449)
	listAll        bool   // -list-all-tools: tools/list shows the tools a token's scopes do not allow too

	// The demo toolset's settings. Zero values mean the defaults (see
	// withDefaults), except githubToken and searchURL, which have none.

	dataDir          string        // the data directory; "" is defaultDataDir()
	allow            []string      // execute_command's programs; nil is defaultAllow
	noConfirm        bool          // do not ask the user before delete_file and delete_page
	cmdTimeout       time.Duration // execute_command's time limit per run
	githubURL        string        // GitHub REST API base URL
	githubToken      string        // from GITHUB_TOKEN or GH_TOKEN, never a flag
	weatherURL       string        // Open-Meteo forecast API base URL
	geocodingURL     string        // Open-Meteo geocoding API base URL
	searchURL        string        // a SearXNG-compatible search endpoint
	privateUpstreams bool          // the HTTP tools may reach loopback, private and link-local addresses
	tasksDB          string        // the SQLite file of the tasks; "" is tasks.db in dataDir (demo toolset)
	taskLease        time.Duration // how long a running task stays its worker's without renewal; 0 is mcptool's default

	openapi     string // -openapi: a description whose operations become tools (docs/openapi.md)
	openapiBase string // -openapi-base: where their requests go; "" is the description's first server
}

// Defaults of the demo toolset's settings.
const (
	defaultGitHubURL    = "https://api.github.com"
	defaultWeatherURL   = "https://api.open-meteo.com"
	defaultGeocodingURL = "https://geocoding-api.open-meteo.com"
	defaultCmdTimeout   = 10 * time.Second
)

// defaultAllow is execute_command's default allowlist: programs that only
// report. Those not installed are left out.
var defaultAllow = []string{"echo", "date", "uname", "ls", "wc"}

// Main runs the demo server with the features f of the command (its name)
// and exits when it is done.
func Main(name string, f Features) {
	f.name = name
	if err := run(context.Background(), f, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, f Features, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "docs" {
		if err := runDocs(f, args[1:], stdout, stderr); !errors.Is(err, flag.ErrHelp) {
			return err
		}
		return nil
	}
	if len(args) > 0 && args[0] == "issuer" && f.Issuer != nil {
		if err := f.Issuer(ctx, args[1:], stderr); !errors.Is(err, flag.ErrHelp) {
			return err
		}
		return nil
	}
	cfg, err := parseFlags(f, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	a, err := newApp(cfg, logger)
	if err != nil {
		return err
	}
	defer func() {
		if err := a.close(); err != nil {
			logger.Error("closing", "err", err)
		}
	}()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.httpAddr == "" {
		logger.Info("serving on stdio", "toolset", cfg.toolset)
		return a.srv.Run(ctx, &mcptool.StdioTransport{Reader: stdin, Writer: stdout})
	}
	return serveHTTP(ctx, a, cfg, logger)
}

// parseFlags reads the command line, with defaults from the environment.
func parseFlags(f Features, args []string, stderr io.Writer) (config, error) {
	name := f.command()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: "+name+" [flags]     serve the tools (stdio, or streamable HTTP with -http)\n"+
			"       "+name+" docs [-format markdown|json|html] [-o FILE]   print the tool catalogue\n")
		if f.Issuer != nil {
			fmt.Fprint(stderr, "       "+name+" issuer [-http ADDR]   a development OAuth issuer on loopback (docs/auth.md)\n")
		}
		fmt.Fprint(stderr, "\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprint(stderr, "\nEnvironment: GITHUB_TOKEN (or GH_TOKEN) lets github_create_issue create issues;\n"+
			"MCPGEN_GITHUB_URL, MCPGEN_WEATHER_URL, MCPGEN_GEOCODING_URL and MCPGEN_SEARCH_URL set the URL flags' defaults.\n")
		if f.Redis == nil || f.Auth == nil || f.Tools == nil {
			fmt.Fprint(stderr, "\n"+fullNote+"\n")
		}
	}
	cfg := config{features: f}
	var allow string
	confirm := true
	fs.StringVar(&cfg.httpAddr, "http", "", "serve streamable HTTP on `ADDR` (endpoint /mcp) instead of stdio; a bare port listens on localhost")
	fs.BoolVar(&cfg.stateless, "stateless", false, "with -http: serve every request statelessly (the 2026-07-28 mode), no sessions")
	fs.DurationVar(&cfg.bodyWait, "body-timeout", 30*time.Second, "with -http: how long a request body may take to arrive (a slower one gets 408)")
	if f.Redis != nil {
		fs.StringVar(&cfg.redisURL, "redis", os.Getenv("MCPGEN_REDIS_URL"), "keep the state replicas share (rate limits, concurrency caps, 2025-era stream events, the requestState key) in the Redis server at `URL`, e.g. redis://127.0.0.1:6379/0 (default: in process)")
	}
	if f.Auth != nil {
		fs.StringVar(&cfg.authIssuer, "auth-issuer", os.Getenv("MCPGEN_AUTH_ISSUER"), "with -http: require OAuth access tokens (JWTs) from the issuer at `URL`, with the scopes each tool needs (demo:read, demo:write, demo:admin; see docs/auth.md)")
		fs.StringVar(&cfg.authAudience, "auth-audience", os.Getenv("MCPGEN_AUTH_AUDIENCE"), "with -auth-issuer: this server's resource identifier `URI`, which tokens' aud must name (default: http://ADDR/mcp)")
		fs.BoolVar(&cfg.authDPoP, "auth-dpop", false, "with -auth-issuer: take only DPoP-bound access tokens (RFC 9449), each request with a fresh proof of the token's key; with -redis, replicas share the proofs seen (docs/auth.md)")
		fs.BoolVar(&cfg.listAll, "list-all-tools", false, "with -auth-issuer: tools/list shows every tool, also those the token's scopes do not allow; calling one answers 403 naming the scopes, so that a client steps up (docs/auth.md)")
	}
	fs.BoolVar(&cfg.allowAnonymous, "allow-unauthenticated", false, "with -http on an address that is not loopback: serve without -auth-issuer anyway (anyone who reaches the port can call every tool)")
	fs.BoolVar(&cfg.verbose, "v", false, "log every session go-sdk opens and closes (three lines per stateless request); by default only its warnings and errors")
	fs.StringVar(&cfg.toolset, "toolset", "demo", "which tools to serve: demo or conformance")
	fs.BoolVar(&cfg.discovery, "discovery", false, "discovery mode: tools/list lists search_tools, call_tool and call_write_tool, which find and call the other tools (docs/discovery.md)")
	db := ""
	if f.SQLite != nil {
		db = ", demo.db for records and notes"
	}
	fs.StringVar(&cfg.dataDir, "data", "", "the demo's data `DIR`: files/ for the file tools"+db+"; created and seeded on first run (default: "+displayDataDir()+")")
	fs.DurationVar(&cfg.taskLease, "task-lease", 0, "how long a running task stays this process's without a renewal (it renews every third of it): a replica that dies leaves its tasks working that long, then they read failed (default 30s)")
	if f.TaskStore != nil {
		fs.StringVar(&cfg.tasksDB, "tasks-db", "", "the SQLite `FILE` that keeps tasks (long calls the client polls), so they survive restarts (default: tasks.db in the data directory; in memory for -toolset conformance; with -redis: in Redis)")
	}
	fs.StringVar(&allow, "allow", strings.Join(defaultAllow, ","), "the programs execute_command may run, comma-separated `CMD,...`, each with its built-in argument policy: cat, date, echo, head, ls, sleep, tail, uname, wc (empty: no execute_command)")
	fs.BoolVar(&confirm, "confirm", true, "ask the user (through elicitation) before delete_file and delete_page run; -confirm=false for clients that cannot be asked")
	fs.DurationVar(&cfg.cmdTimeout, "cmd-timeout", defaultCmdTimeout, "execute_command's time limit per run")
	fs.StringVar(&cfg.githubURL, "github-url", envOr("MCPGEN_GITHUB_URL", defaultGitHubURL), "GitHub REST API base `URL`, e.g. https://github.example.com/api/v3 for GitHub Enterprise")
	fs.StringVar(&cfg.weatherURL, "weather-url", envOr("MCPGEN_WEATHER_URL", defaultWeatherURL), "Open-Meteo-compatible forecast API base `URL`")
	fs.StringVar(&cfg.geocodingURL, "geocoding-url", envOr("MCPGEN_GEOCODING_URL", defaultGeocodingURL), "Open-Meteo-compatible geocoding API base `URL`")
	fs.StringVar(&cfg.searchURL, "search-url", os.Getenv("MCPGEN_SEARCH_URL"), "SearXNG-compatible search endpoint `URL`, e.g. http://127.0.0.1:8888/search with -allow-private-upstreams (default: none, and web_search says so)")
	fs.StringVar(&cfg.openapi, "openapi", "", "front the HTTP API an OpenAPI 3.0 or 3.1 description at `FILE_OR_URL` describes: its operations become tools beside the toolset's (docs/openapi.md; MCPGEN_OPENAPI_TOKEN is sent as a bearer token)")
	fs.StringVar(&cfg.openapiBase, "openapi-base", "", "with -openapi: the API's base `URL`, the only origin its requests reach (default: the description's first server)")
	fs.BoolVar(&cfg.privateUpstreams, "allow-private-upstreams", false, "let get_weather, web_search and github_create_issue connect to loopback, private and link-local addresses (a SearXNG or GitHub Enterprise on your network); without it they refuse, when connecting and after redirects")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "allow" { // given: exactly these (nil stays the defaults)
			cfg.allow = append([]string{}, splitList(allow)...)
		}
	})
	if f.Redis == nil && os.Getenv("MCPGEN_REDIS_URL") != "" {
		return cfg, errors.New("MCPGEN_REDIS_URL is set: " + fullNote)
	}
	if f.Auth == nil && os.Getenv("MCPGEN_AUTH_ISSUER") != "" { // never serve without the authorization asked for
		return cfg, errors.New("MCPGEN_AUTH_ISSUER is set: " + fullNote)
	}
	cfg.noConfirm = !confirm
	cfg.githubToken = envOr("GITHUB_TOKEN", os.Getenv("GH_TOKEN"))
	return cfg, nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// app is a toolset ready to serve: its registry, its server, and what to
// release when done.
type app struct {
	reg     *mcptool.Registry
	srv     *mcptool.Server
	demo    *demo  // the demo toolset's services, nil for others
	cluster Shared // with -redis
	close   func() error
}

// newApp builds the chosen toolset. The demo toolset opens (and on first run
// creates and seeds) its data directory.
func newApp(cfg config, logger *slog.Logger) (a *app, err error) {
	opts := []mcptool.RegistryOption{mcptool.Logger(logger)}
	if cfg.features.Tools != nil {
		opts = append(opts, cfg.features.ToolTypes)
	}
	if cfg.discovery {
		opts = append(opts, mcptool.Discovery())
	}
	if cfg.listAll {
		opts = append(opts, mcptool.ListAllTools())
	}
	if cfg.redisURL != "" && cfg.features.Redis == nil {
		return nil, errors.New("-redis: " + fullNote)
	}
	var cl Shared
	if cfg.redisURL != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cl, err = cfg.features.Redis(ctx, cfg.redisURL)
		cancel()
		if err != nil {
			return nil, err
		}
		opts = append(cl.RegistryOptions(), opts...)
		defer func() {
			if err != nil {
				_ = cl.Close()
				return
			}
			a.cluster, a.close = cl, joinClose(a.close, cl.Close)
		}()
	} else {
		var tasks mcptool.RegistryOption
		var closeTasks func() error
		tasks, closeTasks, err = taskStore(cfg)
		if err != nil {
			return nil, err
		}
		opts = append(opts, tasks)
		defer func() {
			if err != nil {
				_ = closeTasks()
				return
			}
			a.close = joinClose(a.close, closeTasks)
		}()
	}
	if cfg.taskLease != 0 {
		opts = append(opts, mcptool.Tasks(mcptool.TaskSettings{Lease: cfg.taskLease}))
	}
	opts = append(opts, openAPITypes())
	a, err = newToolset(cfg, mcptool.NewRegistry(opts...), logger)
	return frontOpenAPI(a, err, cfg, logger)
}

func joinClose(fs ...func() error) func() error {
	return func() error {
		var errs []error
		for _, f := range fs {
			errs = append(errs, f())
		}
		return errors.Join(errs...)
	}
}

// newToolset registers the chosen toolset on reg.
func newToolset(cfg config, reg *mcptool.Registry, logger *slog.Logger) (*app, error) {
	impl := &mcp.Implementation{Name: "mcpgen-demo", Title: "mcpgen demo", Version: version}
	switch cfg.toolset {
	case "demo":
		d, err := openDemo(cfg, logger)
		if err != nil {
			return nil, err
		}
		if err := registerDemo(reg, d); err != nil {
			_ = d.Close()
			return nil, err
		}
		srv := reg.Server(impl, &mcp.ServerOptions{Logger: sessionLogger(logger, cfg.verbose), Instructions: demoInstructions(d)})
		return &app{reg: reg, srv: srv, demo: d, close: d.Close}, nil
	case "conformance":
		srv, err := conformanceServer(reg, impl, sessionLogger(logger, cfg.verbose))
		if err != nil {
			return nil, err
		}
		return &app{reg: reg, srv: srv, close: func() error { return nil }}, nil
	}
	return nil, fmt.Errorf("unknown toolset %q (want demo or conformance)", cfg.toolset)
}

func serveHTTP(ctx context.Context, a *app, cfg config, logger *slog.Logger) error {
	addr := cfg.httpAddr
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort("127.0.0.1", addr) // a bare port: localhost only
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	hopts := &mcptool.HTTPOptions{}
	if a.cluster != nil {
		hopts = a.cluster.HTTPOptions()
	}
	hopts.Logger, hopts.BodyReadTimeout, hopts.Stateless = logger, cfg.bodyWait, cfg.stateless
	authOn, closeAuth, err := authorization(ctx, cfg, a.cluster, ln, logger, hopts)
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer closeAuth()
	h := a.srv.Handler(hopts)
	mux.Handle("/mcp", h)
	if authOn { // the protected resource metadata (RFC 9728)
		mux.Handle("/.well-known/oauth-protected-resource/", h)
		mux.Handle("/.well-known/oauth-protected-resource", h)
	}
	// For load balancers' health checks: the process serves. It does not
	// check Redis, which all replicas share: a Redis outage would take
	// every replica out, where calls that do not need Redis still work.
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "ok\n")
	})
	// Headers must arrive within 10 s and an idle keep-alive connection is
	// closed after 2 minutes; the handler bounds body reads itself
	// (-body-timeout). No ReadTimeout or WriteTimeout: they would cut long
	// calls and event streams short.
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	logger.Info("serving streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "stateless", cfg.stateless, "toolset", cfg.toolset, "redis", a.cluster != nil, "auth_issuer", cfg.authIssuer)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
