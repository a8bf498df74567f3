package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os/exec"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// demoInstructions are the server's instructions to the client's model;
// the notes' and create_record's sentence only where they are served.
func demoInstructions(d *demo) string {
	s := `mcpgen demo tools. Files: analyze_csv and delete_file work on the files folder ` +
		`of the server's data directory (start with sales.csv); execute_command runs allowlisted programs there. `
	if d.notes != nil {
		s += `Notes: search_pages finds pages, get_page reads one, delete_page deletes one. ` +
			`create_record stores JSON records in the demo database. `
	}
	return s + `get_weather, web_search and github_create_issue call HTTP APIs and say so when they cannot reach them.`
}

// ifSQL is v when the command has SQLite, else nil.
func ifSQL[T any](f Features, v *T) *T {
	if f.SQLite == nil {
		return nil
	}
	return v
}

// demo is the demo toolset: the services whose methods are its tools.
type demo struct {
	files    *Files
	commands *Commands
	records  *Records
	notes    *Notes
	github   *GitHub
	weather  *Weather
	search   *Search

	noConfirm bool
	tools     func(reg *mcptool.Registry, read, write mcptool.Option) error // Features.Tools
	closers   []func() error
}

// Close releases the data directory and the database.
func (d *demo) Close() error {
	var errs []error
	for i := len(d.closers) - 1; i >= 0; i-- {
		errs = append(errs, d.closers[i]())
	}
	d.closers = nil
	return errors.Join(errs...)
}

// withDefaults fills in the settings left zero.
func (c config) withDefaults() (config, error) {
	if c.dataDir == "" {
		dir, err := defaultDataDir()
		if err != nil {
			return c, err
		}
		c.dataDir = dir
	}
	if c.cmdTimeout <= 0 {
		c.cmdTimeout = defaultCmdTimeout
	}
	if c.githubURL == "" {
		c.githubURL = defaultGitHubURL
	}
	if c.weatherURL == "" {
		c.weatherURL = defaultWeatherURL
	}
	if c.geocodingURL == "" {
		c.geocodingURL = defaultGeocodingURL
	}
	return c, nil
}

// httpTimeout bounds every request of the HTTP-backed tools.
const httpTimeout = 15 * time.Second

// openDemo opens the data directory (creating and seeding it on first run)
// and builds the services.
func openDemo(cfg config, logger *slog.Logger) (_ *demo, err error) {
	cfg, err = cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	d := &demo{noConfirm: cfg.noConfirm, tools: cfg.features.Tools}
	defer func() {
		if err != nil {
			_ = d.Close()
		}
	}()
	if err := makeDataDir(cfg.dataDir); err != nil {
		return nil, err
	}
	root, seeded, err := openFiles(cfg.dataDir)
	if err != nil {
		return nil, err
	}
	d.closers = append(d.closers, root.Close)
	if cfg.features.SQLite != nil {
		db, seededNotes, err := openDB(cfg.features.SQLite, cfg.dataDir)
		if err != nil {
			return nil, err
		}
		d.closers = append(d.closers, db.Close)
		d.records = &Records{db: db}
		d.notes = &Notes{db: db}
		logger.Info("data directory", "dir", cfg.dataDir, "files_seeded", seeded, "notes_seeded", seededNotes)
	} else {
		logger.Info("data directory", "dir", cfg.dataDir, "files_seeded", seeded)
	}

	if allow := allowlist(cfg.allow, logger); len(allow) > 0 {
		programs := safety.Builtin(allow...)
		runner, err := safety.NewRunner(root, programs, safety.RunnerOptions{Timeout: cfg.cmdTimeout})
		if err != nil {
			return nil, fmt.Errorf("-allow: %w", err)
		}
		d.commands = &Commands{runner: runner, programs: programs}
	}
	client := upstreamClient(cfg.privateUpstreams)
	d.files = &Files{root: root, progressEvery: 10_000}
	d.github = &GitHub{baseURL: cfg.githubURL, token: cfg.githubToken, client: client}
	d.weather = &Weather{forecastURL: cfg.weatherURL, geocodingURL: cfg.geocodingURL, client: client}
	d.search = &Search{endpoint: cfg.searchURL, client: client}
	return d, nil
}

// allowlist resolves execute_command's programs: the given ones (all must be
// installed: safety.NewRunner checks), or by default those of defaultAllow
// that are installed.
func allowlist(given []string, logger *slog.Logger) []string {
	if given != nil {
		return given
	}
	var out []string
	for _, p := range defaultAllow {
		if _, err := exec.LookPath(p); err != nil {
			logger.Warn("execute_command: default program not installed, left out", "program", p)
			continue
		}
		out = append(out, p)
	}
	return out
}

// docsDemo is the demo toolset as the documentation shows it: the default
// settings, nothing opened. Its tools are registered but never called.
func docsDemo(f Features) *demo {
	return &demo{
		tools:    f.Tools,
		records:  ifSQL(f, &Records{}),
		notes:    ifSQL(f, &Notes{}),
		files:    &Files{},
		commands: &Commands{programs: safety.Builtin(defaultAllow...)},
		github:   &GitHub{},
		weather:  &Weather{},
		search:   &Search{},
	}
}

// confirmed gives a destructive tool the Confirm policy, so the user is
// asked before it runs, and tells the model so at the end of its
// description. -confirm=false leaves the policy out, for clients that
// cannot ask (no elicitation).
func (d *demo) confirmed() []mcptool.Option {
	if d.noConfirm {
		return []mcptool.Option{mcptool.AppendDescription(`It runs without asking: make sure the user wants it.`)}
	}
	return []mcptool.Option{
		mcptool.AppendDescription(`Nothing is deleted until the user confirms: the server asks through the client (elicitation).`),
		mcptool.Confirm(),
	}
}

// The demo's OAuth scopes (docs/auth.md).
const (
	scopeRead  = "demo:read"
	scopeWrite = "demo:write"
	scopeAdmin = "demo:admin"
)

// registerDemo registers the demo toolset's tools on reg. Their descriptions
// are the doc comments of their functions and methods (see mcpgen_gen.go),
// with what is only known at run time appended.
func registerDemo(reg *mcptool.Registry, d *demo) error {
	var errs []error
	check := func(name string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	// The scopes a caller's token needs, by what the tool does: read-only
	// tools demo:read, others demo:write, destructive ones demo:admin, and
	// so does execute_command (it only reads, but running programs on the
	// server is the operator's to grant).
	read, write, admin := mcptool.Scopes(scopeRead), mcptool.Scopes(scopeWrite), mcptool.Scopes(scopeAdmin)
	views := demoViews() // views.go
	check("calculate_sum", mcptool.Add(reg, "calculate_sum", calculateSum, read))
	check("analyze_csv", mcptool.Add(reg, "analyze_csv", d.files.AnalyzeCSV, read, views["analyze_csv"]))
	check("generate_csv", mcptool.Add(reg, "generate_csv", d.files.GenerateCSV, write))
	check("delete_file", mcptool.Add(reg, "delete_file", d.files.DeleteFile, append(d.confirmed(), admin)...))
	if d.commands != nil {
		check("execute_command", mcptool.Add(reg, "execute_command", d.commands.Execute,
			mcptool.AppendDescription(d.commands.description()), admin))
	}
	check("github_create_issue", mcptool.Add(reg, "github_create_issue", d.github.CreateIssue, write))
	check("get_weather", mcptool.Add(reg, "get_weather", d.weather.Current, read, views["get_weather"]))
	check("web_search", mcptool.Add(reg, "web_search", d.search.Web, read))
	if d.notes != nil { // with Features.SQLite
		check("create_record", mcptool.Add(reg, "create_record", d.records.Create, write))
		check("notes", reg.AddMethods(d.notes, mcptool.Method("SearchPages", read, views["search_pages"]), mcptool.Method("GetPage", read),
			mcptool.Method("DeletePage", append(d.confirmed(), admin)...)))
		// The page search_pages' view opens: get_page, called by the view only.
		check("open_page", mcptool.Add(reg, "open_page", d.notes.GetPage, read, views["open_page"]))
	}
	if d.tools != nil { // the protobuf library's, in cmd/mcpgen-demo/full: the registry needs Features.ToolTypes
		check("library", d.tools(reg, read, write))
	}
	return errors.Join(errs...)
}

// SumArgs are the arguments of calculate_sum.
type SumArgs struct {
	_ struct{} `mcp:"title=Calculate Sum,readOnly,openWorld=false"`
	// The first addend, e.g. 2.5.
	A float64 `json:"a"`
	// The second addend, e.g. 4.
	B float64 `json:"b"`
}

// Sum is the result of calculate_sum.
type Sum struct {
	// The sum a + b.
	Sum float64 `json:"sum"`
}

// calculateSum adds two numbers and returns their sum. A sum beyond the
// largest representable number (about 1.8e308) is an error.
//
// Example: {"a": 2.5, "b": 4} returns {"sum": 6.5}.
func calculateSum(_ context.Context, in SumArgs) (Sum, error) {
	s := in.A + in.B
	if math.IsInf(s, 0) {
		return Sum{}, mcptool.Errorf("%g + %g overflows: the sum is beyond the largest number representable (about 1.8e308)", in.A, in.B)
	}
	return Sum{Sum: s}, nil
}
