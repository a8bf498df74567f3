package main

import (
	"context"
	"log/slog"
)

// sessionLogger is the logger given to go-sdk's server: go-sdk logs three
// INFO lines for every session it opens and closes ("server connecting",
// "server session connected", "... disconnected"), and a stateless request
// is a session of its own, so by default only its warnings and errors get
// through; with -v everything does.
func sessionLogger(logger *slog.Logger, verbose bool) *slog.Logger {
	if verbose {
		return logger
	}
	return slog.New(minLevel{logger.Handler(), slog.LevelWarn})
}

// minLevel drops the records of h below min.
type minLevel struct {
	h   slog.Handler
	min slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.h.Enabled(ctx, l)
}

func (m minLevel) Handle(ctx context.Context, r slog.Record) error { return m.h.Handle(ctx, r) }

func (m minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{m.h.WithAttrs(attrs), m.min}
}

func (m minLevel) WithGroup(name string) slog.Handler { return minLevel{m.h.WithGroup(name), m.min} }
