// Package view gives a tool's result an interactive view in hosts that
// support MCP Apps (SEP-1865, the io.modelcontextprotocol/ui extension): a
// page the host shows in a sandboxed iframe and feeds the tool's result.
//
// A tool gets one with the `mcp:"view"` tag on its argument type or with the
// option mcptool.View: [Default] derives the page from the tool's output
// schema (no HTML to write), [Template] renders each result with an
// html/template of yours, [Page] serves a page of yours that uses the
// embedded JavaScript helper (window.mcpgenView); [AppOnly] marks a tool
// that only views call (it is never listed to the model), [ModelOnly] one
// they may not call, and [View.Visibility] says either of a tool with a
// view of its own. Everything the tag says of a view, a View says too.
//
// Views are safe by construction: values from the tool only ever become
// text (the default view sets textContent; templates escape with
// html/template), and every page mcpgen builds carries a
// Content-Security-Policy that runs only its own script and reaches no
// origin the view's [View.Connect] and [View.Resources] do not declare.
package view

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
)

// The identifiers of the MCP Apps extension.
const (
	// Extension is the extension's identifier, under which clients and
	// servers declare it in their capabilities' extensions.
	Extension = "io.modelcontextprotocol/ui"
	// MIMEType is the MIME type of a view's resource.
	MIMEType = "text/html;profile=mcp-app"
	// HTMLMeta is the key, in a result's _meta, of the HTML a [Template]
	// view rendered for it (sent only to clients that declare the
	// extension).
	HTMLMeta = "mcpgen/html"
)

//go:embed helper.js
var helperJS string

//go:embed render.js
var renderJS string

//go:embed view.css
var viewCSS string

type kind uint8

const (
	none kind = iota // AppOnly: no page
	derived
	templated
	page
)

// A View is a tool's view: how it is built, and what its tag calls
// visibility and CSP: everything the `mcp` tag says of a view, an option
// built from a View says too. Its methods return copies; a View is safe to share.
type View struct {
	kind  kind
	tmpl  htmlTemplate
	style string
	page  []byte
	err   error
	ann   annotations.View
}

// Default is the view derived from the tool's output schema: an object as
// labelled fields (titles and descriptions from the schema), an array of
// objects as a table that sorts and filters, an array of strings or numbers
// as a list (in a table's cell too), numbers with their units (the schema's
// x-unit, or what the description says after "in": "in percent", or the
// path of a field that holds the unit, "in units.temperature"), images and
// links shown, nested objects collapsible; light or dark as the host says.
// A result that is not an object (sent as {"result": value}) shows under
// the page's heading, the tool's title, unnamed. The `mcp:"view"` tag gives
// a tool this view.
func Default() *View { return &View{kind: derived, ann: annotations.View{Page: true}} }

// Template is a view whose HTML is t, an *html/template.Template, executed
// with each result's Go value, on the server (html/template escapes every
// value). The HTML reaches the
// view in the result's _meta (HTMLMeta) for clients that declare the
// extension; inside it, an element with data-mcpgen-call="tool" and
// data-mcpgen-arg-id="{{.ID}}" calls that tool with the string argument id
// through the host when clicked (data-mcpgen-args holds a JSON object of
// arguments instead), and shows its result in the element its
// data-mcpgen-target names. The page's policy runs no script and no inline style of the
// template's: style it with [View.Style]. Any other template (a
// text/template, which escapes nothing) is refused: [View.Check] reports it.
//
// t is an interface rather than *html/template.Template so that a server
// that does not use templates does not compile html/template.
func Template(t interface {
	Execute(w io.Writer, data any) error
}) *View {
	v := &View{kind: templated, tmpl: t, ann: annotations.View{Page: true}}
	v.err = checkTemplate(t)
	return v
}

// htmlTemplate is what Template keeps: an *html/template.Template.
type htmlTemplate interface {
	Execute(w io.Writer, data any) error
}

// checkTemplate refuses a nil template and any but html/template's.
func checkTemplate(t htmlTemplate) error {
	if t == nil {
		return errors.New("view.Template: nil template")
	}
	rv := reflect.ValueOf(t)
	if rt := rv.Type(); rt.Kind() != reflect.Pointer || rt.Elem().PkgPath() != "html/template" || rt.Elem().Name() != "Template" {
		name := rt.String()
		if rt.Kind() == reflect.Pointer && rt.Elem().PkgPath() != "" {
			name = "*" + rt.Elem().PkgPath() + "." + rt.Elem().Name()
		}
		return fmt.Errorf("view.Template: want an *html/template.Template, which escapes every value, not a %s", name)
	}
	if rv.IsNil() {
		return errors.New("view.Template: nil template")
	}
	return nil
}

// Page is a view whose page is the file name of fsys (an embed.FS, say),
// served as it is with the helper script added to its head: the page gets
// the tool's results with window.mcpgenView.onResult (see helper.js). It
// gets the policy of every page mcpgen builds, first in its head: its own
// inline scripts and styles run (by their hash), and scripts, styles,
// images and fonts load from the view's [View.Resources] only, fetches go
// to its [View.Connect] only; inline event handlers (onclick=) and style
// attributes do not run. The resource's _meta.ui.csp, which the host
// applies, says the same origins.
func Page(fsys fs.FS, name string) *View {
	v := &View{kind: page, ann: annotations.View{Page: true}}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		v.err = fmt.Errorf("view.Page: %w", err)
	}
	v.page = b
	return v
}

// AppOnly marks a tool that only views call (visibility ["app"]): it has no
// view of its own, is never listed to the model, and is called through the
// same call path (arguments, authorization, confirmation, limits) as any.
// Clients that do not declare the extension neither see nor call it.
func AppOnly() *View {
	return &View{ann: annotations.View{Visibility: []string{annotations.VisibleToApp}}}
}

// ModelOnly marks a tool that views may not call (visibility ["model"]),
// one the model calls as ever: hosts refuse it to views. It has no view of
// its own; it is the tag's visibility=model.
func ModelOnly() *View {
	return &View{ann: annotations.View{Visibility: []string{annotations.VisibleToModel}}}
}

// Connect returns a copy of v that may connect (fetch, WebSocket) to the
// given origins (connectDomains), such as https://api.example.com.
func (v *View) Connect(origins ...string) *View {
	c := *v
	c.ann.ConnectDomains = slices.Clone(origins)
	return &c
}

// Resources returns a copy of v that may load images, fonts, media, styles
// and scripts from the given origins (resourceDomains).
func (v *View) Resources(origins ...string) *View {
	c := *v
	c.ann.ResourceDomains = slices.Clone(origins)
	return &c
}

// Visibility returns a copy of v called by whom to says, as the tag's
// visibility= does: [annotations.VisibleToModel] ("model"),
// [annotations.VisibleToApp] ("app"), or both (the default). A view of
// its own that only views call, say a page opened from another tool's
// view, is Visibility("app"): the model is never listed the tool.
func (v *View) Visibility(to ...string) *View {
	c := *v
	c.ann.Visibility = append([]string{}, to...)
	return &c
}

// Style returns a copy of v whose page also has the stylesheet css.
func (v *View) Style(css string) *View {
	c := *v
	c.style = css
	return &c
}

// Annotations is what v says in the terms of the `mcp` tag: whether there
// is a page, the visibility, the origins.
func (v *View) Annotations() annotations.View { return v.ann }

// Check reports what makes v unusable: a template that is nil, a page that
// could not be read, a visibility that is none, origins that are not
// origins.
func (v *View) Check() error {
	errs := []error{v.err}
	if v.ann.Visibility != nil {
		errs = append(errs, annotations.CheckVisibility(v.ann.Visibility))
	}
	if err := annotations.CheckOrigins(v.ann.ConnectDomains); err != nil {
		errs = append(errs, fmt.Errorf("connectDomains: %w", err))
	}
	if err := annotations.CheckOrigins(v.ann.ResourceDomains); err != nil {
		errs = append(errs, fmt.Errorf("resourceDomains: %w", err))
	}
	return errors.Join(errs...)
}

// HasPage reports whether v has a page (every view but [AppOnly] and
// [ModelOnly]).
func (v *View) HasPage() bool { return v.kind != none }

// Kind says how v's page is made: "default", "template", "page", or ""
// when it has none ([AppOnly], [ModelOnly]).
func (v *View) Kind() string { return [...]string{"", "default", "template", "page"}[v.kind] }

// Render returns the HTML of a [Template] view for one result's Go value,
// and "" for other views.
func (v *View) Render(value any) (string, error) {
	if v.kind != templated {
		return "", nil
	}
	var b strings.Builder
	if err := v.tmpl.Execute(&b, value); err != nil {
		return "", err
	}
	return b.String(), nil
}

// escaper is html/template's HTMLEscapeString, without html/template: the
// escaping of element text and quoted attribute values.
var escaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "'", "&#39;", "&", "&amp;", "<", "&lt;", ">", "&gt;")

// HTML returns the page of v for a tool titled title whose output schema
// is schema (nil when it has none), allowed the origins of csp.
func (v *View) HTML(title string, schema json.RawMessage, csp annotations.View) ([]byte, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	switch v.kind {
	case none:
		return nil, errors.New("view: AppOnly and ModelOnly have no page")
	case page:
		return pageHTML(v.page, csp), nil
	}
	styles := []string{viewCSS}
	if v.style != "" {
		styles = append(styles, v.style)
	}
	scripts := []string{helperJS, renderJS}
	var b bytes.Buffer
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", escaper.Replace(policy(scripts, styles, csp)))
	fmt.Fprintf(&b, "<title>%s</title>\n", escaper.Replace(title))
	for _, s := range styles {
		fmt.Fprintf(&b, "<style>%s</style>\n", s)
	}
	b.WriteString("</head>\n<body>\n<main>\n")
	fmt.Fprintf(&b, "<h1>%s</h1>\n", escaper.Replace(title))
	b.WriteString("<p id=\"mcpgen-status\" role=\"status\"></p>\n<div id=\"mcpgen-view\"></div>\n</main>\n")
	if v.kind == derived && len(schema) > 0 {
		var sb bytes.Buffer
		if err := json.Compact(&sb, schema); err != nil {
			return nil, fmt.Errorf("view: output schema: %w", err)
		}
		b.WriteString(`<script type="application/json" id="mcpgen-schema">`)
		json.HTMLEscape(&b, sb.Bytes()) // no "</script>" can close the block
		b.WriteString("</script>\n")
	}
	for _, s := range scripts {
		fmt.Fprintf(&b, "<script>%s</script>\n", s)
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes(), nil
}

// policy is the page's Content-Security-Policy: its own scripts and styles
// by hash, images and media from data: URLs, and the declared origins.
func policy(scripts, styles []string, csp annotations.View) string {
	hash := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	list := func(base []string, origins []string) string {
		all := append(slices.Clone(base), origins...)
		if len(all) == 0 {
			return "'none'"
		}
		return strings.Join(all, " ")
	}
	var sh, st []string
	for _, s := range scripts {
		sh = append(sh, hash(s))
	}
	for _, s := range styles {
		st = append(st, hash(s))
	}
	res := csp.ResourceDomains
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + list(sh, res),
		"style-src " + list(st, res),
		"img-src " + list([]string{"data:"}, res),
		"media-src " + list([]string{"data:"}, res),
		"font-src " + list(nil, res),
		"connect-src " + list(nil, csp.ConnectDomains),
		"frame-src 'none'",
		"base-uri 'none'",
		"form-action 'none'",
	}, "; ")
}

// ResourceMeta is the _meta of a view's resource: the origins the host must
// allow it (_meta.ui.csp), none unless declared.
func ResourceMeta(csp annotations.View) map[string]any {
	c := map[string]any{
		"connectDomains":  nonNil(csp.ConnectDomains),
		"resourceDomains": nonNil(csp.ResourceDomains),
	}
	return map[string]any{"ui": map[string]any{"csp": c, "prefersBorder": true}}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
