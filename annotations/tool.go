package annotations

import (
	"errors"
	"fmt"
)

// Tool is everything an `mcp` tag says about a tool: its hints, its
// policy and its listing. [Parse] reads a tag into a Tool; options build one in code; the
// two meet in [Tool.Merge].
type Tool struct {
	Hints
	Policy
	View View // the tool's view in the MCP Apps extension
	Listing
}

// Keys are the keys of the `mcp` tag, in the order the documentation lists
// them.
func Keys() []string {
	return []string{
		"title", "readOnly", "destructive", "idempotent", "openWorld",
		"timeout", "rate", "burst", "sessionRate", "sessionBurst", "concurrency", "callerConcurrency", "confirm",
		"maxArgBytes", "maxDepth", "task", "scopes",
		"view", "visibility", "connectDomains", "resourceDomains",
		"group", "eager",
	}
}

// KeyError reports one item of an `mcp` tag that is wrong: an unknown key
// (with the key probably meant), or a value its key does not take.
type KeyError struct {
	Key string // the key as written
	Pos int    // byte offset of the key in the tag
	Msg string // what is wrong, e.g. `unknown key "readonly" (did you mean "readOnly"?)`
}

func (e *KeyError) Error() string { return e.Msg }

// Parse reads an `mcp` tag into a Tool. A tag that cannot be scanned is a
// [*SyntaxError]. Otherwise every wrong item is reported, as a [*KeyError]
// each, joined with errors.Join, and then a combination [Tool.Check]
// rejects.
func Parse(tag string) (Tool, error) {
	var t Tool
	items, err := ParseTag(tag)
	if err != nil {
		return t, err
	}
	var errs []error
	for _, it := range items {
		ok, err := t.Hints.set(it)
		if !ok {
			ok, err = t.Policy.set(it)
		}
		if !ok {
			ok, err = t.View.set(it)
		}
		if !ok {
			ok, err = t.Listing.set(it)
		}
		if !ok {
			msg := fmt.Sprintf("unknown key %q", it.Key)
			if s := Suggest(it.Key, Keys()); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			err = errors.New(msg)
		}
		if err != nil {
			errs = append(errs, &KeyError{Key: it.Key, Pos: it.Pos, Msg: err.Error()})
		}
	}
	if len(errs) == 0 {
		errs = append(errs, t.Check())
	}
	return t, errors.Join(errs...)
}

// Merge returns t with every hint and policy field o gives replacing t's:
// the way options (o) override a tag (t), and a tag overrides a registry's
// defaults.
func (t Tool) Merge(o Tool) Tool {
	return Tool{Hints: t.Hints.Merge(o.Hints), Policy: t.Policy.Merge(o.Policy), View: t.View.Merge(o.View), Listing: t.Listing.Merge(o.Listing)}
}

// Check rejects what cannot be meant: the hint combinations [Hints.Check]
// rejects, confirm on a read-only tool (wrapping [ErrMeaningless]), and
// negative limits.
func (t Tool) Check() error {
	if err := t.Hints.Check(); err != nil {
		return err
	}
	if t.Confirm && t.Effective().ReadOnly {
		return fmt.Errorf("%w: confirm on a readOnly tool (confirmation is for tools that change things)", ErrMeaningless)
	}
	return t.Policy.check()
}
