//go:build tools

package discovery

// The discovery documents are read from this module's directory in the
// module cache (apiDir); the import keeps the module in go.mod.
import _ "google.golang.org/api/googleapi"
