package catalog

// A tool's listing — its group and whether it is eager — in the
// catalogue's formats and its diff (docs/discovery.md).

// listingParts names the tool's group and eagerness, for the Markdown
// hints.
func listingParts(t Tool) []string {
	var parts []string
	if t.Group != "" {
		parts = append(parts, "group: "+t.Group)
	}
	if t.Eager {
		parts = append(parts, "eager")
	}
	return parts
}

// listingBadges are the same as badges of the HTML page.
func listingBadges(t Tool) []badge {
	var out []badge
	if t.Group != "" {
		out = append(out, badge{"plain", "group: " + t.Group, "The group search_tools finds it in (discovery mode)"})
	}
	if t.Eager {
		out = append(out, badge{"plain", "eager", "Listed by tools/list even in discovery mode"})
	}
	return out
}

// listing reports a tool moving between groups, and a tool that stops or
// starts being eager. Neither changes a call: a client that calls the tool
// by name is unaffected; one that finds it in tools/list must search for a
// tool no longer eager, which is why losing eager is reported as breaking.
func (d *differ) listing(o, a *Tool) {
	if o.Group != a.Group {
		d.add(Compatible, "group", "moved from group %s to group %s", groupName(o.Group), groupName(a.Group))
	}
	switch {
	case o.Eager && !a.Eager:
		d.add(Breaking, "eager", "no longer eager: discovery-mode clients no longer see it in tools/list, only through search_tools")
	case !o.Eager && a.Eager:
		d.add(Compatible, "eager", "now eager: listed in tools/list in discovery mode")
	}
}

func groupName(g string) string {
	if g == "" {
		return "(none)"
	}
	return "\"" + g + "\""
}
