package server

import (
	"embed"
	"html/template"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

// The demo's views (docs/views.md): analyze_csv gets the default view, a
// table of its statistics derived from CSVReport's schema; get_weather and
// search_pages templates of their own, from views/; open_page is the
// app-only tool search_pages' view opens a page with.

//go:embed views/*.html
var viewFiles embed.FS

var viewTemplates = template.Must(template.ParseFS(viewFiles, "views/*.html"))

// viewStyle is the stylesheet the demo's templates add to the default one.
const viewStyle = `.weather h2{font-size:18px;margin:0}.weather .temp{font-size:32px;margin:4px 0}` +
	`.conditions,.source,.snippet{color:var(--mv-fg2)}.hits{list-style:none;padding:0;margin:0}` +
	`#page:not(:empty){border-top:1px solid var(--mv-border);margin-top:8px;padding-top:8px}`

// demoViews are the view options of the demo's tools, by tool name.
func demoViews() map[string]mcptool.Option {
	tmpl := func(name string) mcptool.Option {
		return mcptool.View(view.Template(viewTemplates.Lookup(name)).Style(viewStyle))
	}
	return map[string]mcptool.Option{
		"analyze_csv":  mcptool.View(view.Default()),
		"get_weather":  tmpl("weather.html"),
		"search_pages": tmpl("pages.html"),
		"open_page":    mcptool.View(view.AppOnly()),
	}
}
