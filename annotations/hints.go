package annotations

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HintKeys are the `mcp` tag keys this package interprets.
var HintKeys = []string{"title", "readOnly", "destructive", "idempotent", "openWorld"}

// Hints are a tool's display title and behaviour hints as written by the
// author. A nil hint was not given and takes the specification's default.
type Hints struct {
	Title       string
	ReadOnly    *bool
	Destructive *bool
	Idempotent  *bool
	OpenWorld   *bool
}

// ErrMeaningless is wrapped by [Hints.Check] errors.
var ErrMeaningless = errors.New("meaningless hint combination")

// IsHintKey reports whether key is one of [HintKeys].
func IsHintKey(key string) bool {
	for _, k := range HintKeys {
		if k == key {
			return true
		}
	}
	return false
}

// Set records one tag item. It returns an error for a key that is not a hint
// key or a value that is not a boolean.
func (h *Hints) Set(it Item) error {
	if it.Key == "title" {
		if !it.HasValue || it.Value == "" {
			return fmt.Errorf("title needs a value (title=...)")
		}
		h.Title = it.Value
		return nil
	}
	var dst **bool
	switch it.Key {
	case "readOnly":
		dst = &h.ReadOnly
	case "destructive":
		dst = &h.Destructive
	case "idempotent":
		dst = &h.Idempotent
	case "openWorld":
		dst = &h.OpenWorld
	default:
		return fmt.Errorf("unknown hint %q", it.Key)
	}
	v := true
	if it.HasValue {
		b, err := strconv.ParseBool(it.Value)
		if err != nil {
			return fmt.Errorf("%s=%s: value must be true or false", it.Key, it.Value)
		}
		v = b
	}
	*dst = &v
	return nil
}

// Merge returns h with every hint o gives replacing h's.
func (h Hints) Merge(o Hints) Hints {
	if o.Title != "" {
		h.Title = o.Title
	}
	if o.ReadOnly != nil {
		h.ReadOnly = o.ReadOnly
	}
	if o.Destructive != nil {
		h.Destructive = o.Destructive
	}
	if o.Idempotent != nil {
		h.Idempotent = o.Idempotent
	}
	if o.OpenWorld != nil {
		h.OpenWorld = o.OpenWorld
	}
	return h
}

// Check rejects what the specification calls meaningless: destructive or
// idempotent set true on a read-only tool (those hints are meaningful only
// when readOnlyHint is false).
func (h Hints) Check() error {
	if isTrue(h.ReadOnly) {
		if isTrue(h.Destructive) {
			return fmt.Errorf("%w: destructive on a readOnly tool (a read-only tool modifies nothing)", ErrMeaningless)
		}
		if isTrue(h.Idempotent) {
			return fmt.Errorf("%w: idempotent on a readOnly tool (idempotentHint is meaningful only when readOnlyHint is false)", ErrMeaningless)
		}
	}
	return nil
}

// Effective is the value of every hint after the specification's defaults.
type Effective struct {
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// Effective resolves the hints with the specification's defaults: readOnly
// false, destructive true (meaningless, and reported false, on a read-only
// tool), idempotent false, openWorld true.
func (h Hints) Effective() Effective {
	e := Effective{ReadOnly: isTrue(h.ReadOnly), Destructive: true, OpenWorld: true}
	if h.Destructive != nil {
		e.Destructive = *h.Destructive
	}
	if h.Idempotent != nil {
		e.Idempotent = *h.Idempotent
	}
	if h.OpenWorld != nil {
		e.OpenWorld = *h.OpenWorld
	}
	if e.ReadOnly {
		e.Destructive = false
	}
	return e
}

// Annotations returns the hints as MCP tool annotations, with every hint
// spelled out at its effective value so clients need not know the defaults.
// destructiveHint is left out on a read-only tool, where it means nothing.
func (h Hints) Annotations() *mcp.ToolAnnotations {
	e := h.Effective()
	a := &mcp.ToolAnnotations{
		Title:          h.Title,
		ReadOnlyHint:   e.ReadOnly,
		IdempotentHint: e.Idempotent,
		OpenWorldHint:  &e.OpenWorld,
	}
	if !e.ReadOnly {
		d := e.Destructive
		a.DestructiveHint = &d
	}
	return a
}

func isTrue(b *bool) bool { return b != nil && *b }

// Bool returns a pointer to v, for building [Hints] by hand.
func Bool(v bool) *bool { return &v }
