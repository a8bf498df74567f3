package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// demoInstructions are the server's instructions to the client's model.
const demoInstructions = `mcpgen demo tools. Files: analyze_csv and delete_file work on the files folder ` +
	`of the server's data directory (start with sales.csv); execute_command runs allowlisted programs there. ` +
	`Notes: search_pages finds pages, get_page reads one, delete_page deletes one. ` +
	`create_record stores JSON records in the demo database. get_weather, web_search and ` +
	`github_create_issue call HTTP APIs and say so when they cannot reach them.`

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
	d := &demo{noConfirm: cfg.noConfirm}
	defer func() {
		if err != nil {
			_ = d.Close()
		}
	}()
	root, seeded, err := openFiles(cfg.dataDir)
	if err != nil {
		return nil, err
	}
	d.closers = append(d.closers, root.Close)
	db, seededNotes, err := openDB(cfg.dataDir)
	if err != nil {
		return nil, err
	}
	d.closers = append(d.closers, db.Close)
	logger.Info("data directory", "dir", cfg.dataDir, "files_seeded", seeded, "notes_seeded", seededNotes)

	if allow := allowlist(cfg.allow, logger); len(allow) > 0 {
		runner, err := safety.NewRunner(allow, safety.RunnerOptions{Timeout: cfg.cmdTimeout, Dir: root.Dir()})
		if err != nil {
			return nil, err
		}
		d.commands = &Commands{runner: runner, allowed: allow}
	}
	client := &http.Client{Timeout: httpTimeout}
	d.files = &Files{root: root, progressEvery: 10_000}
	d.records = &Records{db: db}
	d.notes = &Notes{db: db}
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
func docsDemo() *demo {
	return &demo{
		files:    &Files{},
		commands: &Commands{allowed: defaultAllow},
		records:  &Records{},
		notes:    &Notes{},
		github:   &GitHub{},
		weather:  &Weather{},
		search:   &Search{},
	}
}

// confirmed adds the Confirm policy to a destructive tool's options: the
// user is asked before it runs. -confirm=false leaves it out, for clients
// that cannot ask (no elicitation).
func (d *demo) confirmed(opts ...mcptool.Option) []mcptool.Option {
	if d.noConfirm {
		return opts
	}
	return append(opts, mcptool.Confirm())
}

// confirmNote tells the model how a destructive tool is confirmed.
func (d *demo) confirmNote() string {
	if d.noConfirm {
		return `It runs without asking: make sure the user wants it. `
	}
	return `Nothing is deleted until the user confirms: the server asks through the client (elicitation). `
}

// registerDemo registers the demo toolset's tools on reg.
func registerDemo(reg *mcptool.Registry, d *demo) error {
	var errs []error
	check := func(name string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	check("calculate_sum", mcptool.Add(reg, "calculate_sum", calculateSum, mcptool.Description(
		`Add two numbers and return their sum. `+
			`Example: {"a": 2.5, "b": 4} returns {"sum": 6.5}.`)))

	check("analyze_csv", mcptool.Add(reg, "analyze_csv", d.files.AnalyzeCSV, mcptool.Description(
		`Analyze a CSV file from the server's data directory: for every numeric column, the sum, average and/or `+
			`count of its values. The first row names the columns; columns with text in them are listed as skipped. `+
			`The file is streamed, so large files work, with progress reported as it is read. `+
			`Example: {"filepath": "sales.csv", "operations": ["sum", "average"]} returns the rows read and, `+
			`per numeric column such as "units", its sum and average.`)))

	check("delete_file", mcptool.Add(reg, "delete_file", d.files.DeleteFile, d.confirmed(mcptool.Description(
		`Delete a file from the server's data directory (its files folder; nothing outside it). `+
			`Directories are not deleted. `+d.confirmNote()+
			`Example: {"path": "scratch/draft.txt"} returns {"path": "scratch/draft.txt", "deleted": true, "size": 69}.`))...))

	if d.commands != nil {
		check("execute_command", mcptool.Add(reg, "execute_command", d.commands.Execute, mcptool.Description(
			`Run a program from the server's allowlist (`+strings.Join(d.commands.allowed, ", ")+`) with arguments, `+
				`without a shell, in the data directory's files folder, with a time limit and an output cap. `+
				`A program off the list is refused. A non-zero exit status is reported in the result, not as an error. `+
				`Example: {"command": "wc", "args": ["-l", "sales.csv"]} returns {"exitCode": 0, "stdout": "25 sales.csv\n", ...}.`)))
	}

	check("github_create_issue", mcptool.Add(reg, "github_create_issue", d.github.CreateIssue, mcptool.Description(
		`Create an issue in a GitHub repository, with the server's GitHub token. `+
			`Returns the new issue's number and URL. Needs network access and a token with permission to create issues. `+
			`Example: {"repo": "octocat/hello-world", "title": "Crash on empty input", "body": "Steps to reproduce: ...", "labels": ["bug"]} `+
			`returns {"number": 42, "url": "https://github.com/octocat/hello-world/issues/42", ...}.`)))

	check("get_weather", mcptool.Add(reg, "get_weather", d.weather.Current, mcptool.Description(
		`Get the current weather for a place, from Open-Meteo: temperature, feels-like temperature, humidity, `+
			`precipitation, wind and conditions, as measured or modelled now (never invented: when the service cannot be `+
			`reached the call fails and says so). `+
			`Example: {"location": "Berlin"} or {"location": "Paris, France", "units": "imperial"} returns the place found `+
			`(name, country, coordinates) and the current values with their units.`)))

	check("web_search", mcptool.Add(reg, "web_search", d.search.Web, mcptool.Description(
		`Search the web through the server's configured search engine (SearXNG-compatible). `+
			`Returns the title, URL and snippet of each hit, best first. `+
			`Example: {"query": "model context protocol tool annotations", "limit": 3} returns {"query": ..., "results": [{"title": ..., "url": ..., "snippet": ...}, ...]}.`)))

	check("create_record", mcptool.Add(reg, "create_record", d.records.Create, mcptool.Description(
		`Create a new record in the demo database: the data object is stored as JSON in the named table, `+
			`which is created on first use. Every call adds a record. Returns the record's id. `+
			`Example: {"table": "tasks", "data": {"title": "Write docs", "done": false}} returns {"table": "tasks", "id": 1, "createdAt": "..."}.`)))

	check("notes", reg.AddMethods(d.notes,
		mcptool.Method("SearchPages", mcptool.Description(
			`Search the notes by title or content (full-text, words in any form: "meeting" finds "meetings"). `+
				`Returns matching pages with their ids, titles and a snippet, best match first. Use it to find a page, then get_page to read it. `+
				`Example: {"query": "meeting notes", "limit": 5} returns {"results": [{"id": 3, "title": "Meeting notes: schema design review", "snippet": "**Meeting** **notes**: schema design review"}, {"id": 2, ...}]}.`)),
		mcptool.Method("GetPage", mcptool.Description(
			`Get one notes page by id: its title, full text, and when it was created and last updated. `+
				`Ids come from search_pages. Example: {"id": 2} returns {"id": 2, "title": "Meeting notes: release planning", "body": "...", ...}.`)),
		mcptool.Method("DeletePage", d.confirmed(mcptool.Description(
			`Delete a notes page by id. DESTRUCTIVE: the page cannot be restored. `+d.confirmNote()+
				`Example: {"id": 2} returns {"id": 2, "title": "Meeting notes: release planning", "deleted": true}.`))...),
	))
	return errors.Join(errs...)
}

// SumArgs are the arguments of calculate_sum.
type SumArgs struct {
	_ struct{} `mcp:"title=Calculate Sum,readOnly,openWorld=false"`
	// The first addend, e.g. 2.5.
	A float64 `json:"a" jsonschema_description:"The first addend, e.g. 2.5"`
	// The second addend, e.g. 4.
	B float64 `json:"b" jsonschema_description:"The second addend, e.g. 4"`
}

// Sum is the result of calculate_sum.
type Sum struct {
	// The sum a + b.
	Sum float64 `json:"sum" jsonschema_description:"The sum a + b"`
}

// calculateSum adds two numbers.
func calculateSum(_ context.Context, in SumArgs) (Sum, error) {
	s := in.A + in.B
	if math.IsInf(s, 0) {
		return Sum{}, mcptool.Errorf("%g + %g overflows: the sum is beyond the largest number representable (about 1.8e308)", in.A, in.B)
	}
	return Sum{Sum: s}, nil
}
