package catalog

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// writeMarkdown renders the catalogue as Markdown: an index, then per tool
// its hints, its title and description, an argument table, the result's
// shape and an example call.
//
// What the catalogue says of a tool (the line opening with "**Hints:**",
// the tables' structure) comes before what the tool's author wrote, and
// the title and description are a blockquote, every line of it escaped
// (mdescape.go): an author's text renders as text, inside the quote, and
// can neither forge the hints line nor close the quote.
func (c *Catalog) writeMarkdown(w io.Writer, title string) error {
	var b strings.Builder
	if title != "" {
		fmt.Fprintf(&b, "# %s\n\n", mdText(title))
	}
	b.WriteString("| Tool | Title | Hints |\n| --- | --- | --- |\n")
	for _, t := range c.Tools {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s |\n", mdCode(t.Name, true), anchor(t.Name), mdText(t.Title), mdText(hintsText(t)))
	}
	for _, t := range c.Tools {
		fmt.Fprintf(&b, "\n## %s\n\n", mdCode(t.Name, false))
		fmt.Fprintf(&b, "**Hints:** %s.\n\n", mdText(hintsText(t)))
		if t.Title != "" {
			fmt.Fprintf(&b, "> **%s**\n", mdText(t.Title))
			if t.Description != "" {
				b.WriteString(">\n")
			}
		}
		if t.Description != "" {
			mdQuote(&b, t.Description)
		}
		if t.Title != "" || t.Description != "" {
			b.WriteString("\n")
		}
		if len(t.Arguments) == 0 {
			b.WriteString("Arguments: none.\n\n")
		} else {
			b.WriteString("| Argument | Type | Required | Default | Constraints | Description |\n| --- | --- | --- | --- | --- | --- |\n")
			for _, a := range t.Arguments {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", mdCode(a.Path, true), mdText(a.Type), yesNo(a.Required),
					mdCode(defaultText(a, ""), true), mdText(strings.Join(a.Constraints, "; ")), mdText(a.Description))
			}
			b.WriteString("\n")
		}
		if len(t.Result) > 0 {
			b.WriteString("Result (`structuredContent`, also sent as JSON text):\n\n| Field | Type | Always present | Description |\n| --- | --- | --- | --- |\n")
			for _, a := range t.Result {
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCode(a.Path, true), mdText(a.Type), yesNo(a.Required), mdText(a.Description))
			}
			b.WriteString("\n")
		} else {
			b.WriteString("Result: content blocks (no output schema).\n\n")
		}
		if call := exampleCall(t, ""); call != "" {
			fence := mdFence(call)
			fmt.Fprintf(&b, "Example call:\n\n%sjson\n%s\n%s\n", fence, call, fence)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// exampleCall is the tools/call params of the tool's example, indented by
// indent ("" for one line), or "" when it has none.
func exampleCall(t Tool, indent string) string {
	if len(t.Example) == 0 || string(t.Example) == "null" {
		return ""
	}
	call := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}{t.Name, t.Example}
	var b []byte
	if indent == "" {
		b, _ = json.Marshal(call)
	} else {
		b, _ = json.MarshalIndent(call, "", indent)
	}
	return string(b)
}

func defaultText(a Argument, quote string) string {
	if a.Default == nil {
		return ""
	}
	return quote + jsonText(a.Default) + quote
}

// hintList names a tool's hints and policies, most alarming first.
func hintList(t Tool) []string {
	h := t.Hints
	var parts []string
	if h.ReadOnly {
		parts = append(parts, "read-only")
	} else {
		if h.Destructive {
			parts = append(parts, "destructive")
		} else {
			parts = append(parts, "additive")
		}
		if h.Idempotent {
			parts = append(parts, "idempotent")
		}
	}
	if h.OpenWorld {
		parts = append(parts, "open world")
	} else {
		parts = append(parts, "closed world")
	}
	if h.Confirm {
		parts = append(parts, "confirm")
	}
	if h.Task != "" {
		parts = append(parts, "task ("+h.Task+")")
	}
	if len(t.Scopes) > 0 {
		parts = append(parts, "scopes: "+strings.Join(t.Scopes, " "))
	}
	if t.View != nil {
		parts = append(parts, viewText(*t.View))
	}
	return append(parts, listingParts(t)...)
}

func hintsText(t Tool) string { return strings.Join(hintList(t), ", ") }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
