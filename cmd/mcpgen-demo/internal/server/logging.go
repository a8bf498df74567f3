package server

import (
	"log/slog"

	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/internal/loglevel"
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
	return loglevel.AtLeast(logger, slog.LevelWarn)
}
