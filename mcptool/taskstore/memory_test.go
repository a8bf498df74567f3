package taskstore_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
	"github.com/mcpgen/mcpgen/mcptool/taskstore/storetest"
)

func TestMemory(t *testing.T) {
	storetest.Run(t, func(*testing.T) taskstore.Store { return taskstore.NewMemory() })
}
