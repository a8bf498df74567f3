package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Catalog describes a server's tools, sorted by name.
type Catalog struct {
	Tools []Tool `json:"tools"`
}

// Tool is one tool of a catalogue.
type Tool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Hints       Hints  `json:"hints"`
	// Scopes are the OAuth scopes a caller's token needs to call the tool;
	// empty when the tool needs none beyond the server's own.
	Scopes []string `json:"scopes,omitempty"`
	// Group is the tool's group, Eager whether it is listed in discovery
	// mode (docs/discovery.md). Neither enters the fingerprint: they change
	// where a client finds the tool, not what it does.
	Group     string     `json:"group,omitempty"`
	Eager     bool       `json:"eager,omitempty"`
	Arguments []Argument `json:"arguments"`
	// Result holds the fields of the structured result, when the tool has
	// an output schema.
	Result       []Argument      `json:"result,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Example is a call's arguments that the tool accepts, or null when
	// none could be derived from the schema.
	Example json.RawMessage `json:"example"`
	// Fingerprint is [Fingerprint] of the tool when the catalogue was
	// written.
	Fingerprint string `json:"fingerprint,omitempty"`
	// View is the tool's view in hosts that support MCP Apps; nil when it
	// has none.
	View *View `json:"view,omitempty"`
}

// View is a tool's view (the MCP Apps extension, docs/views.md).
type View struct {
	// URI is the ui:// resource of its page; empty for an app-only tool,
	// which has none.
	URI string `json:"uri,omitempty"`
	// Kind is how the page is made: default (from the output schema),
	// template or page.
	Kind string `json:"kind,omitempty"`
	// Visibility is who may call the tool: model, app; empty means both.
	Visibility []string `json:"visibility,omitempty"`
	// ConnectDomains and ResourceDomains are the origins the page may
	// reach: connect to, and load images, scripts, styles and fonts from.
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
}

// Hints are a tool's annotation hints at their effective values (the MCP
// defaults applied: a tool that says nothing is destructive and open
// world), and the runtime policies a client sees the effect of.
type Hints struct {
	ReadOnly    bool `json:"readOnly"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	OpenWorld   bool `json:"openWorld"`
	// Confirm is set when the tool asks the user before it runs.
	Confirm bool `json:"confirm,omitempty"`
	// Task is "optional" or "required" when the tool runs as a task (the
	// MCP Tasks extension), empty when it never does.
	Task string `json:"task,omitempty"`
}

// Argument is one property of a tool's arguments or result, flattened:
// nested properties have dotted paths, array items a [] suffix.
type Argument struct {
	Path     string `json:"path"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
	Default  any    `json:"default,omitempty"`
	// Constraints are the schema's rules for the value, as text ("≥ 1",
	// `one of "a", "b"`).
	Constraints []string `json:"constraints,omitempty"`
	Description string   `json:"description,omitempty"`
}

// Read reads a JSON catalogue, as [Catalog.Write] writes it with the format
// "json".
func Read(r io.Reader) (*Catalog, error) {
	var c Catalog
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if c.Tools == nil {
		return nil, errors.New(`catalog: not a catalogue (no "tools" list)`)
	}
	seen := map[string]bool{}
	for _, t := range c.Tools {
		if t.Name == "" {
			return nil, errors.New("catalog: a tool has no name")
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("catalog: tool %s is listed twice", t.Name)
		}
		seen[t.Name] = true
	}
	return &c, nil
}

// Fingerprint returns "sha256:" and the hex SHA-256 of the tool's canonical
// definition: the JSON object of its name, title, description, inputSchema,
// outputSchema (null when it has none), hints (every field of [Hints]) and
// scopes (sorted), with object keys sorted at every level, no insignificant
// whitespace and numbers as written. Whatever the model or the client's
// approval depends on changes it; the catalogue's tables and example, which
// are derived from the schemas, do not enter it.
func Fingerprint(t Tool) (string, error) {
	canon, err := canonical(t)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func canonical(t Tool) ([]byte, error) {
	in, err := decode(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("catalog: tool %s: inputSchema: %w", t.Name, err)
	}
	out, err := decode(t.OutputSchema)
	if err != nil {
		return nil, fmt.Errorf("catalog: tool %s: outputSchema: %w", t.Name, err)
	}
	scopes := slices.Clone(t.Scopes)
	if scopes == nil {
		scopes = []string{}
	}
	slices.Sort(scopes)
	// encoding/json writes map keys sorted, so maps make the form canonical.
	doc := map[string]any{
		"name":         t.Name,
		"title":        t.Title,
		"description":  t.Description,
		"inputSchema":  in,
		"outputSchema": out,
		"hints": map[string]any{
			"readOnly": t.Hints.ReadOnly, "destructive": t.Hints.Destructive, "idempotent": t.Hints.Idempotent,
			"openWorld": t.Hints.OpenWorld, "confirm": t.Hints.Confirm, "task": t.Hints.Task,
		},
		"scopes": scopes,
	}
	if t.View != nil { // tools without a view keep the fingerprints they had
		doc["view"] = t.View
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("catalog: tool %s: %w", t.Name, err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// decode reads a schema as generic JSON, numbers kept as written; an empty
// schema is nil.
func decode(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Write renders the catalogue in format: "markdown" (or "md"), "json" or
// "html". title heads the Markdown and HTML documents (none for Markdown
// when empty, "Tools" for HTML); JSON has none.
func (c *Catalog) Write(w io.Writer, format, title string) error {
	switch format {
	case "markdown", "md":
		return c.writeMarkdown(w, title)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(c)
	case "html":
		return c.writeHTML(w, title)
	}
	return fmt.Errorf("catalog: unknown format %q (want markdown, json or html)", format)
}
