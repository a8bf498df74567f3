package annotations

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// View is what a tool's `mcp` tag (or its options) says about its view in
// the MCP Apps extension (io.modelcontextprotocol/ui): the interactive page
// a host shows its result in. A zero field was not given.
type View struct {
	// Page: the tool has a view (view); without a page of the options', the
	// default view derived from the output schema.
	Page bool
	// Visibility is who may call the tool (visibility=app, visibility=model
	// or visibility='model app'); nil means both: the model and views.
	Visibility []string
	// ConnectDomains are the origins the view may connect to (fetch,
	// WebSocket) and ResourceDomains those it may load images, scripts,
	// styles and fonts from: connectDomains=https://api.example.com, origins
	// separated by spaces. Default none.
	ConnectDomains, ResourceDomains []string
}

// Visibilities are the values of visibility=, as the extension spells them.
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// AppOnly reports whether only views may call the tool.
func (v View) AppOnly() bool {
	return v.Visibility != nil && !slices.Contains(v.Visibility, VisibleToModel)
}

// Merge returns v with every field o gives replacing v's.
func (v View) Merge(o View) View {
	if o.Page {
		v.Page = true
	}
	if o.Visibility != nil {
		v.Visibility = o.Visibility
	}
	if o.ConnectDomains != nil {
		v.ConnectDomains = o.ConnectDomains
	}
	if o.ResourceDomains != nil {
		v.ResourceDomains = o.ResourceDomains
	}
	return v
}

// set records one view item; ok is false for a key that is not a view's.
func (v *View) set(it Item) (ok bool, err error) {
	switch it.Key {
	case "view":
		b, err := boolValue(it)
		if err != nil {
			return true, fmt.Errorf("view takes no value, or true/false")
		}
		v.Page = b
	case "visibility":
		vis := strings.Fields(it.Value)
		if err := CheckVisibility(vis); err != nil {
			return true, err
		}
		v.Visibility = vis
	case "connectDomains", "resourceDomains":
		origins := strings.Fields(it.Value)
		if len(origins) == 0 {
			return true, fmt.Errorf("%s needs a value: origins such as https://api.example.com, separated by spaces", it.Key)
		}
		if err := CheckOrigins(origins); err != nil {
			return true, fmt.Errorf("%s: %w", it.Key, err)
		}
		if it.Key == "connectDomains" {
			v.ConnectDomains = origins
		} else {
			v.ResourceDomains = origins
		}
	default:
		return false, nil
	}
	return true, nil
}

// CheckVisibility reports what makes vis no visibility: empty, or a value
// other than model and app.
func CheckVisibility(vis []string) error {
	if len(vis) == 0 {
		return fmt.Errorf("visibility needs a value: model, app, or 'model app'")
	}
	for _, s := range vis {
		if s != VisibleToModel && s != VisibleToApp {
			return fmt.Errorf("visibility takes model and app, not %q", s)
		}
	}
	return nil
}

// CheckOrigins reports every entry that is not an origin a view may be
// allowed: scheme://host[:port] with scheme https or wss (http and ws only
// for localhost), the host possibly starting with "*." for its subdomains;
// no path, query or credentials. They go into a Content-Security-Policy,
// where anything else would widen it or break it.
func CheckOrigins(origins []string) error {
	var bad []string
	for _, o := range origins {
		if msg := originProblem(o); msg != "" {
			bad = append(bad, fmt.Sprintf("%q %s", o, msg))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}

func originProblem(o string) string {
	u, err := url.Parse(strings.Replace(o, "://*.", "://wildcard.", 1))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "is not an origin (scheme://host[:port])"
	}
	if u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(o, "?") || strings.HasSuffix(o, "#") {
		return "is not an origin: no credentials, path, query or fragment"
	}
	if strings.ContainsAny(o, " ;,'\"") {
		return "is not an origin"
	}
	local := u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1"
	switch u.Scheme {
	case "https", "wss":
	case "http", "ws":
		if !local {
			return "must use https or wss (http and ws only for localhost)"
		}
	default:
		return "must use https or wss"
	}
	return ""
}
