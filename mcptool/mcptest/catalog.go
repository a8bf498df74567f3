package mcptest

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// catalogTitle titles the Markdown and HTML catalogues Snapshot writes, as
// mcpgen catalog titles them by default.
const catalogTitle = "Tools"

// catalogFormat is the format of the catalogue file path, by its extension:
// "markdown", "html" or "json".
func catalogFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		return "markdown"
	case ".html", ".htm":
		return "html"
	}
	return "json"
}

// snapshot is reg's catalogue in the format path's extension names. The
// JSON catalogue holds each tool's descriptions, hints, argument table,
// schemas, example call and, last, its fingerprint (catalog.Fingerprint),
// so any change of what the model sees changes the file.
func snapshot(reg *mcptool.Registry, path string) ([]byte, error) {
	c, err := reg.Catalog()
	if err != nil {
		return nil, err
	}
	format, title := catalogFormat(path), catalogTitle
	if format == "json" {
		title = ""
	}
	var b bytes.Buffer
	if err := c.Write(&b, format, title); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
