package catalog

import (
	"slices"
	"strings"
)

// viewText says what view a tool has, for the hints of Markdown, HTML and
// diff: "view: default", "view: template, app only", "app only", "model
// only".
func viewText(v View) string {
	var parts []string
	if v.Kind != "" {
		parts = append(parts, "view: "+v.Kind)
	}
	if v.appOnly() {
		parts = append(parts, "app only")
	}
	if v.modelOnly() {
		parts = append(parts, "model only")
	}
	if len(v.ConnectDomains) > 0 {
		parts = append(parts, "connects to "+strings.Join(v.ConnectDomains, " "))
	}
	if len(v.ResourceDomains) > 0 {
		parts = append(parts, "loads from "+strings.Join(v.ResourceDomains, " "))
	}
	return strings.Join(parts, ", ")
}

// appOnly reports a tool only views call: the model neither sees nor calls
// it.
func (v View) appOnly() bool { return len(v.Visibility) > 0 && !slices.Contains(v.Visibility, "model") }

// modelOnly reports a tool views may not call.
func (v View) modelOnly() bool { return len(v.Visibility) > 0 && !slices.Contains(v.Visibility, "app") }

// views classes a change of a tool's view: a page added, or an origin it
// may reach, is security-relevant (code of the server's now runs in the
// host, or reaches further); a page or origin gone is compatible; a tool
// hidden from the model (app only) is breaking for the model, one shown to
// it security-relevant; and the same of a tool views may call or not
// (model only).
func (d *differ) views(o, a *View) {
	var ov, av View
	if o != nil {
		ov = *o
	}
	if a != nil {
		av = *a
	}
	switch {
	case ov.Kind == "" && av.Kind != "":
		d.add(Security, "view", "view added (%s): the host now runs the server's page for this tool", av.Kind)
	case ov.Kind != "" && av.Kind == "":
		d.add(Compatible, "view", "view removed")
	case ov.Kind != av.Kind:
		d.add(Security, "view", "view changed from %s to %s", ov.Kind, av.Kind)
	}
	switch {
	case !ov.appOnly() && av.appOnly():
		d.add(Breaking, "view.visibility", "now app only: the model no longer sees or calls the tool")
	case ov.appOnly() && !av.appOnly():
		d.add(Security, "view.visibility", "no longer app only: the model now sees and calls the tool")
	}
	switch {
	case !ov.modelOnly() && av.modelOnly():
		d.add(Breaking, "view.visibility", "now model only: views may no longer call the tool")
	case ov.modelOnly() && !av.modelOnly():
		d.add(Security, "view.visibility", "no longer model only: views may now call the tool")
	}
	for _, k := range []struct {
		name    string
		o, a    []string
		reaches string
	}{
		{"connectDomains", ov.ConnectDomains, av.ConnectDomains, "connect to"},
		{"resourceDomains", ov.ResourceDomains, av.ResourceDomains, "load from"},
	} {
		for _, s := range sortedDiff(k.a, k.o) {
			d.add(Security, "view."+k.name, "view may now %s %s", k.reaches, s)
		}
		for _, s := range sortedDiff(k.o, k.a) {
			d.add(Compatible, "view."+k.name, "view may no longer %s %s", k.reaches, s)
		}
	}
}
