// Package loglevel raises the level a logger writes from. It lives outside
// package main because cmd/mcpgen takes every function of main with a tool's
// shape, slog.Handler's Handle(ctx, slog.Record) error among them, for a tool.
package loglevel

import (
	"context"
	"log/slog"
)

// AtLeast returns a logger that writes through l's handler only the records
// at min or above (and only those l's handler itself accepts).
func AtLeast(l *slog.Logger, min slog.Level) *slog.Logger {
	return slog.New(floor{l.Handler(), min})
}

// floor drops the records of h below min.
type floor struct {
	h   slog.Handler
	min slog.Level
}

func (f floor) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= f.min && f.h.Enabled(ctx, l)
}

func (f floor) Handle(ctx context.Context, r slog.Record) error { return f.h.Handle(ctx, r) }

func (f floor) WithAttrs(attrs []slog.Attr) slog.Handler { return floor{f.h.WithAttrs(attrs), f.min} }

func (f floor) WithGroup(name string) slog.Handler { return floor{f.h.WithGroup(name), f.min} }
