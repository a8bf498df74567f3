// Package shared holds types another package's tools use, to check that
// their doc comments reach the schemas.
package shared

import "time"

// Range is a span of time.
type Range struct {
	// From is the start of the range, inclusive.
	From time.Time `json:"from"`
	// To is the end of the range, exclusive.
	To time.Time `json:"to,omitempty"`
}

// Paging picks one page of results.
type Paging struct {
	// Page is the page number, from 1.
	Page int `json:"page,omitempty" jsonschema:"default=1" validate:"omitempty,min=1"`
	Size int `json:"size,omitempty" validate:"omitempty,max=100"` // Size is the page size.
}
