package example

import "context"

// Calendar is a small service whose methods are tools.
type Calendar struct {
	events []Event
}

// CancelArgs are the arguments of cancel_event.
type CancelArgs struct {
	_ struct{} `mcp:"destructive,idempotent"`
	// ID is the event to cancel.
	ID string `json:"id" validate:"required"`
}

// CancelEvent cancels an event. Cancelling it twice does nothing more.
func (c *Calendar) CancelEvent(_ context.Context, in CancelArgs) error {
	for i, e := range c.events {
		if e.ID == in.ID {
			c.events = append(c.events[:i], c.events[i+1:]...)
			return nil
		}
	}
	return nil
}

// Count returns how many events the calendar holds.
func (c Calendar) Count(context.Context) (int, error) { return len(c.events), nil }

// Helper is not a tool: it has no error result.
func (c *Calendar) Helper() int { return 0 }
