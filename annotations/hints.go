package annotations

import (
	"errors"
	"fmt"
	"strconv"
)

// Hints are a tool's display title and behaviour hints as written by the
// author. A nil hint was not given and takes the specification's default.
type Hints struct {
	Title       string // title=...
	ReadOnly    *bool  // readOnly: default false
	Destructive *bool  // destructive: default true (meaningful only when not read-only)
	Idempotent  *bool  // idempotent: default false (meaningful only when not read-only)
	OpenWorld   *bool  // openWorld: default true
}

// ErrMeaningless is wrapped by the errors of [Hints.Check] and [Tool.Check]:
// a combination the specification calls meaningless.
var ErrMeaningless = errors.New("meaningless hint combination")

// set records one hint item; ok is false for a key that is not a hint.
func (h *Hints) set(it Item) (ok bool, err error) {
	if it.Key == "title" {
		if !it.HasValue || it.Value == "" {
			return true, fmt.Errorf("title needs a value (title=...)")
		}
		h.Title = it.Value
		return true, nil
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
		return false, nil
	}
	v, err := boolValue(it)
	if err != nil {
		return true, err
	}
	*dst = &v
	return true, nil
}

// boolValue reads a bare key as true, key=value as a boolean.
func boolValue(it Item) (bool, error) {
	if !it.HasValue {
		return true, nil
	}
	b, err := strconv.ParseBool(it.Value)
	if err != nil {
		return false, fmt.Errorf("%s=%s: value must be true or false", it.Key, it.Value)
	}
	return b, nil
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

func isTrue(b *bool) bool { return b != nil && *b }

// Bool returns a pointer to v, for building [Hints] by hand.
func Bool(v bool) *bool { return &v }
