package server

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// taskStore opens where the registry keeps its tasks: the SQLite file
// -tasks-db names, by default tasks.db in the data directory for the demo
// toolset. The conformance toolset keeps them in memory unless -tasks-db is
// given, and so does a command without Features.TaskStore.
func taskStore(cfg config) (mcptool.RegistryOption, func() error, error) {
	path := cfg.tasksDB
	if path != "" && cfg.features.TaskStore == nil {
		return nil, nil, errors.New("-tasks-db: " + fullNote)
	}
	if path == "" && cfg.toolset == "demo" && cfg.features.TaskStore != nil {
		c, err := cfg.withDefaults()
		if err != nil {
			return nil, nil, err
		}
		if err := makeDataDir(c.dataDir); err != nil {
			return nil, nil, err
		}
		path = filepath.Join(c.dataDir, "tasks.db")
	}
	if path == "" {
		return mcptool.Tasks(mcptool.TaskSettings{}), func() error { return nil }, nil
	}
	if !strings.HasPrefix(path, ":") { // not SQLite's :memory:
		if err := createPrivate(path); err != nil {
			return nil, nil, fmt.Errorf("tasks: %w", err)
		}
	}
	store, closeStore, err := cfg.features.TaskStore(path)
	if err != nil {
		return nil, nil, fmt.Errorf("tasks: %w", err)
	}
	return mcptool.Tasks(mcptool.TaskSettings{Store: store}), closeStore, nil
}
