package example

import (
	"context"

	"github.com/mcpgen/mcpgen/cmd/mcpgen/internal/example/shared"
)

// FindArgs are the arguments of find_events.
type FindArgs struct {
	_ struct{} `mcp:"title=Find events,readOnly"`
	// Query is matched against event titles.
	Query string `json:"query" validate:"required,min=2"`
	// Kinds limits the search to these kinds of event.
	Kinds []string `json:"kinds,omitempty" validate:"omitempty,dive,oneof=meeting call"`
	// When limits the search to a time range.
	When *shared.Range `json:"when,omitempty"`
	shared.Paging
	// Note has a tag description, which wins over this comment.
	Note string `json:"note,omitempty" jsonschema_description:"from the tag"`
}

// Event is one calendar event.
type Event struct {
	// ID identifies the event.
	ID string `json:"id"`
	// Title is what the event is called.
	Title string `json:"title"`
}

// FindEvents searches the calendar for events.
//
// It returns at most one page of events, newest first.
func FindEvents(_ context.Context, in FindArgs) ([]Event, error) {
	return firstN([]Event{{ID: "1", Title: in.Query}}, in.Size), nil
}

// firstN is a generic helper; the generator must not trip over it.
func firstN[T any](xs []T, n int) []T {
	if n > 0 && n < len(xs) {
		return xs[:n]
	}
	return xs
}
