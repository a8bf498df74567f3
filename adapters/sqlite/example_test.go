package sqlite_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/adapters/sqlite"
	"github.com/mcpgen/mcpgen/mcptool"
)

// A registry whose tasks survive restarts.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "tasks")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(filepath.Join(dir, "tasks.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	reg := mcptool.NewRegistry(mcptool.Tasks(mcptool.TaskSettings{Store: store}))
	fmt.Println(reg != nil)
	// Output: true
}
