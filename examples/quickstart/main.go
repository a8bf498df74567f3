// Command quickstart is the README's tutorial: a notes search tool served
// over stdio.
package main

import (
	"context"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// SearchArgs are the tool's arguments; the tags become its input schema.
type SearchArgs struct {
	_     struct{} `mcp:"title=Search notes,readOnly,openWorld=false"`
	Query string   `json:"query" jsonschema_description:"Words to look for, e.g. \"release plan\"" validate:"required,min=2"`
	Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
	Sort  string   `json:"sort,omitempty" validate:"omitempty,oneof=relevance date"`
}

// Note is one search hit; []Note becomes the tool's output schema.
type Note struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

var notes = []Note{{"1", "Release plan for 1.0"}, {"2", "Team offsite"}, {"3", "Plan the plan"}}

// Search is an ordinary Go function.
func Search(ctx context.Context, in SearchArgs) ([]Note, error) {
	var out []Note
	for _, n := range notes {
		if strings.Contains(strings.ToLower(n.Title), strings.ToLower(in.Query)) && len(out) < in.Limit {
			mcptool.Progress(ctx, float64(len(out)+1), 0, "found "+n.ID)
			out = append(out, n)
		}
	}
	return out, nil
}

func main() {
	reg := mcptool.NewRegistry()
	if err := reg.Add("search_notes", Search,
		mcptool.Description("Search notes by title. Returns the id and title of each match.")); err != nil {
		log.Fatal(err) // a bad tag is an error naming the type, the field and the tag
	}
	srv := reg.Server(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	if err := srv.Run(context.Background(), &mcptool.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
