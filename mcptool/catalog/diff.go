package catalog

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/internal/schemaref"
)

// Class says whom a change concerns.
type Class string

const (
	// Breaking changes make calls that worked fail, or results that
	// callers read change: a new required argument, a removed argument, a
	// narrowed type, enum, range or pattern, a changed output schema, a
	// removed tool, a scope the tool now requires.
	Breaking Class = "breaking"
	// Security changes are those a client that approved (pinned) the tool
	// must approve again: any of the hints readOnly, destructive,
	// idempotent and openWorld flipped, either way (clients decide by them
	// what runs without asking: a tool no longer destructive, or now
	// read-only, is one a host may run unasked), the tool no longer asks
	// for confirmation, needs fewer scopes (callers that could not call it
	// now can), or says something new to the model (title, description, an
	// argument's description).
	Security Class = "security-relevant"
	// Loosened changes let through arguments that were refused: a widened
	// type, enum or range, a dropped pattern, format, const, multipleOf or
	// bound, items no longer unique, additional properties now accepted, a
	// new optional argument, an argument no longer required. Compatible for
	// callers, each may remove a defence the schema gave the tool (an enum
	// that kept "exec" out, a maxLength that bounded the work), so they are
	// listed apart for a reviewer; mcpgen diff -fail-on-loosened fails on
	// them.
	Loosened Class = "guard-loosened"
	// Compatible changes are the rest: new tools, changed defaults, a
	// confirmation now asked, task support made optional, a tool moved
	// between groups or made eager.
	Compatible Class = "compatible"
)

// Change is one difference between two catalogues.
type Change struct {
	Tool  string `json:"tool"`
	Class Class  `json:"class"`
	// Where names the part of the tool that changed: "tool", "title",
	// "description", "hints.destructive", "scopes", "arguments" (the
	// input schema as a whole), "arguments.limit" (an argument, dotted
	// for nested ones, [] for array items) or "outputSchema".
	Where string `json:"where"`
	// What says what changed, in a sentence for a reviewer.
	What string `json:"what"`
}

// Report is what [Compare] found.
type Report struct {
	Added   []string `json:"added"`   // tools only in the new catalogue
	Removed []string `json:"removed"` // tools only in the old one
	// Changes lists every change, by tool name, then in the order of the
	// tool's parts (added and removed tools are changes too).
	Changes []Change `json:"changes"`
}

// Has reports whether the report has a change of class c.
func (r *Report) Has(c Class) bool {
	return slices.ContainsFunc(r.Changes, func(ch Change) bool { return ch.Class == c })
}

// Compare classes what changed from the catalogue old to the catalogue new.
// Changes to the input schema that it cannot class (anyOf, if/then, ...)
// are breaking, so nothing passes unreviewed.
func Compare(old, new *Catalog) *Report {
	r := &Report{Added: []string{}, Removed: []string{}, Changes: []Change{}}
	before := map[string]*Tool{}
	for i := range old.Tools {
		before[old.Tools[i].Name] = &old.Tools[i]
	}
	after := map[string]*Tool{}
	for i := range new.Tools {
		after[new.Tools[i].Name] = &new.Tools[i]
	}
	var names []string
	for n := range before {
		names = append(names, n)
	}
	for n := range after {
		if before[n] == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		o, a := before[n], after[n]
		switch {
		case a == nil:
			r.Removed = append(r.Removed, n)
			r.Changes = append(r.Changes, Change{n, Breaking, "tool", "tool removed"})
		case o == nil:
			r.Added = append(r.Added, n)
			r.Changes = append(r.Changes, Change{n, Compatible, "tool", "new tool (" + hintsText(*a) + ")"})
		default:
			d := differ{tool: n}
			d.tool1(o, a)
			r.Changes = append(r.Changes, d.changes...)
		}
	}
	return r
}

type differ struct {
	tool    string
	changes []Change
}

func (d *differ) add(c Class, where, format string, args ...any) {
	d.changes = append(d.changes, Change{d.tool, c, where, fmt.Sprintf(format, args...)})
}

func (d *differ) tool1(o, a *Tool) {
	if o.Title != a.Title {
		d.add(Security, "title", "title changed from %q to %q", o.Title, a.Title)
	}
	if o.Description != a.Description {
		d.add(Security, "description", "description changed from %q to %q", o.Description, a.Description)
	}
	d.hints(o, a)
	d.scopes(o.Scopes, a.Scopes)
	d.views(o.View, a.View) // viewdiff.go
	d.listing(o, a)
	oin, err1 := schemaDoc(o.InputSchema)
	ain, err2 := schemaDoc(a.InputSchema)
	if err1 != nil || err2 != nil {
		d.add(Breaking, "arguments", "input schema unreadable: %v", firstErr(err1, err2))
	} else {
		s := schemaDiff{differ: d, oldRoot: oin, newRoot: ain}
		s.compare("arguments", oin, ain, 0)
	}
	if !sameJSON(o.OutputSchema, a.OutputSchema) {
		d.add(Breaking, "outputSchema", "output schema changed%s", fieldChanges(o.Result, a.Result))
	}
	if len(d.changes) == 0 && o.Fingerprint != a.Fingerprint && o.Fingerprint != "" && a.Fingerprint != "" {
		d.add(Compatible, "tool", "fingerprint changed from %s to %s with no other change (a schema rewritten equivalently)", o.Fingerprint, a.Fingerprint)
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hints classes each hint that flipped. Clients decide by the four MCP
// hints whether a call runs without asking (a read-only tool), is retried
// (an idempotent one) or needs the user's approval (a destructive or open
// world one), so a flip of any of them, either way, changes what a client
// does unasked: security-relevant. A tool that stops being destructive is
// one a host may now run without asking; one that becomes read-only, one it
// may run unseen. Only confirm, which the server enforces itself, is
// compatible when gained.
func (d *differ) hints(o, a *Tool) {
	flip := func(name string, before, after bool, gone, came string) {
		if before != after {
			msg := gone
			if after {
				msg = came
			}
			d.add(Security, "hints."+name, "%s", msg)
		}
	}
	flip("destructive", o.Hints.Destructive, a.Hints.Destructive,
		"no longer destructive: clients may now run it without asking", "now destructive: it may delete or overwrite data")
	flip("readOnly", o.Hints.ReadOnly, a.Hints.ReadOnly,
		"no longer read-only: it may change its environment", "now read-only: clients may now run it without asking")
	flip("idempotent", o.Hints.Idempotent, a.Hints.Idempotent,
		"no longer idempotent: calling it again may have further effect", "now idempotent: clients may now retry it")
	flip("openWorld", o.Hints.OpenWorld, a.Hints.OpenWorld,
		"no longer reaches the open world: clients may stop asking before it runs", "now reaches the open world (systems outside the server)")
	if o.Hints.Confirm != a.Hints.Confirm {
		if a.Hints.Confirm {
			d.add(Compatible, "hints.confirm", "now asks the user before it runs")
		} else {
			d.add(Security, "hints.confirm", "no longer asks the user before it runs")
		}
	}
	if o.Hints.Task != a.Hints.Task {
		c := Compatible
		if a.Hints.Task == "required" || o.Hints.Task != "" && a.Hints.Task == "" {
			c = Breaking // clients without tasks, or calls as a task, now fail
		}
		d.add(c, "hints.task", "task support changed from %s to %s", taskText(o.Hints.Task), taskText(a.Hints.Task))
	}
}

func taskText(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// scopes classes the scopes a tool requires: a scope no longer required lets
// tokens without it call the tool (security-relevant); a new one refuses
// tokens without it (breaking).
func (d *differ) scopes(o, a []string) {
	for _, s := range sortedDiff(o, a) {
		d.add(Security, "scopes", "no longer requires scope %q: tokens without it can now call the tool", s)
	}
	for _, s := range sortedDiff(a, o) {
		d.add(Breaking, "scopes", "now requires scope %q: tokens without it are refused", s)
	}
}

// sortedDiff returns the elements of a that are not in b, sorted.
func sortedDiff(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func fieldChanges(o, a []Argument) string {
	paths := func(args []Argument) []string {
		out := make([]string, len(args))
		for i, x := range args {
			out[i] = x.Path
		}
		return out
	}
	var parts []string
	if gone := sortedDiff(paths(o), paths(a)); len(gone) > 0 {
		parts = append(parts, "fields removed: "+strings.Join(gone, ", "))
	}
	if came := sortedDiff(paths(a), paths(o)); len(came) > 0 {
		parts = append(parts, "fields added: "+strings.Join(came, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func schemaDoc(raw json.RawMessage) (map[string]any, error) {
	v, err := decode(raw)
	if err != nil || v == nil {
		return map[string]any{}, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
}

func sameJSON(a, b json.RawMessage) bool {
	x, err1 := decode(a)
	y, err2 := decode(b)
	if err1 != nil || err2 != nil {
		return string(a) == string(b)
	}
	return jsonText(x) == jsonText(y)
}

// Report formats.

// Write renders the report as "markdown" (for a pull-request comment) or
// "json".
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "markdown", "md":
		_, err := io.WriteString(w, r.markdown())
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	}
	return fmt.Errorf("catalog: unknown report format %q (want markdown or json)", format)
}

func (r *Report) markdown() string {
	var b strings.Builder
	b.WriteString("## Tool catalogue changes\n\n")
	if len(r.Changes) == 0 {
		b.WriteString("No tool changed.\n")
		return b.String()
	}
	count := map[Class]int{}
	tools := map[string]bool{}
	for _, c := range r.Changes {
		count[c.Class]++
		tools[c.Tool] = true
	}
	fmt.Fprintf(&b, "**%d breaking, %d security-relevant, %d guard loosened, %d compatible** change(s) in %d tool(s): %d added, %d removed.\n",
		count[Breaking], count[Security], count[Loosened], count[Compatible], len(tools), len(r.Added), len(r.Removed))
	for _, sec := range []struct {
		class Class
		title string
		note  string
	}{
		{Breaking, "Breaking", "Calls that worked may now fail, or callers read a different result."},
		{Security, "Security-relevant", "Clients that approved these tools must approve them again."},
		{Loosened, "Guard loosened", "Calls that were refused are now accepted: compatible for callers, but each may remove a defence. Check that the tool still refuses what it must."},
		{Compatible, "Compatible", ""},
	} {
		if count[sec.class] == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", sec.title)
		if sec.note != "" {
			b.WriteString(sec.note + "\n\n")
		}
		b.WriteString("| Tool | Where | Change |\n| --- | --- | --- |\n")
		for _, c := range r.Changes {
			if c.Class == sec.class {
				fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCode(c.Tool, true), mdCode(c.Where, true), mdText(c.What))
			}
		}
	}
	return b.String()
}

// schemaDiff compares two JSON Schemas of a tool's arguments, keyword by
// keyword, following local references.
type schemaDiff struct {
	*differ
	oldRoot, newRoot map[string]any
}

// lowerBounds and upperBounds are the keywords whose raising (lowering)
// narrows what a value may be.
var (
	lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
	upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
	// classed are the keywords compare judges one by one; a change of any
	// other is breaking, as compare cannot tell.
	classed = map[string]bool{
		"type": true, "enum": true, "const": true, "pattern": true, "format": true, "multipleOf": true,
		"uniqueItems": true, "description": true, "title": true, "default": true, "examples": true,
		"properties": true, "required": true, "additionalProperties": true, "items": true,
		"$ref": true, "$defs": true, "definitions": true, "$schema": true, "$id": true, "$comment": true,
		"deprecated": true, "readOnly": true, "writeOnly": true,
		// lowerBounds and upperBounds
		"minimum": true, "exclusiveMinimum": true, "minLength": true, "minItems": true, "minProperties": true, "minContains": true,
		"maximum": true, "exclusiveMaximum": true, "maxLength": true, "maxItems": true, "maxProperties": true, "maxContains": true,
	}
)

func (s *schemaDiff) compare(where string, o, a map[string]any, depth int) {
	if depth > 32 {
		return
	}
	o, a = schemaref.Resolve(s.oldRoot, o), schemaref.Resolve(s.newRoot, a)
	s.types(where, o, a)
	s.enum(where, o, a)
	for _, k := range []string{"const", "pattern", "format", "multipleOf"} {
		ov, oOK := o[k]
		av, aOK := a[k]
		switch {
		case !aOK && oOK:
			s.add(Loosened, where, "%s %s dropped", k, jsonText(ov))
		case aOK && !oOK:
			s.add(Breaking, where, "%s %s added", k, jsonText(av))
		case aOK && jsonText(ov) != jsonText(av):
			s.add(Breaking, where, "%s changed from %s to %s", k, jsonText(ov), jsonText(av))
		}
	}
	for _, k := range lowerBounds {
		s.bound(where, k, o, a, +1)
	}
	for _, k := range upperBounds {
		s.bound(where, k, o, a, -1)
	}
	if o["uniqueItems"] != a["uniqueItems"] {
		if a["uniqueItems"] == true {
			s.add(Breaking, where, "items must now be unique")
		} else {
			s.add(Loosened, where, "items need no longer be unique")
		}
	}
	if where != "arguments" {
		if od, ad := str(o["description"]), str(a["description"]); od != ad {
			s.add(Security, where, "description changed from %q to %q", od, ad)
		}
		if ot, at := str(o["title"]), str(a["title"]); ot != at {
			s.add(Security, where, "title changed from %q to %q", ot, at)
		}
	}
	if od, ad := o["default"], a["default"]; jsonText(od) != jsonText(ad) {
		s.add(Compatible, where, "default changed from %s to %s", jsonText(od), jsonText(ad))
	}
	s.properties(where, o, a, depth)
	oi, _ := o["items"].(map[string]any)
	ai, _ := a["items"].(map[string]any)
	if oi != nil || ai != nil {
		s.compare(where+"[]", orEmpty(oi), orEmpty(ai), depth+1)
	}
	var others []string
	for k := range union(o, a) {
		if !classed[k] && jsonText(o[k]) != jsonText(a[k]) {
			others = append(others, k)
		}
	}
	if len(others) > 0 {
		sort.Strings(others)
		s.add(Breaking, where, "%s changed (not classed by mcpgen diff, so taken as breaking)", strings.Join(others, ", "))
	}
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func union(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// typeSet is the types a schema allows; nil for any.
func typeSet(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

func allows(types []string, t string) bool {
	return types == nil || slices.Contains(types, t) || t == "integer" && slices.Contains(types, "number")
}

func (s *schemaDiff) types(where string, o, a map[string]any) {
	ot, at := typeSet(o), typeSet(a)
	var lost, gained []string
	if ot == nil && at != nil {
		lost = []string{"any other type"}
	}
	for _, t := range ot {
		if !allows(at, t) {
			lost = append(lost, t)
		}
	}
	for _, t := range at {
		if !allows(ot, t) {
			gained = append(gained, t)
		}
	}
	if at == nil && ot != nil {
		gained = []string{"any type"}
	}
	if len(lost) > 0 {
		s.add(Breaking, where, "type narrowed from %s to %s", typeText(ot), typeText(at))
	} else if len(gained) > 0 {
		s.add(Loosened, where, "type widened from %s to %s", typeText(ot), typeText(at))
	}
}

func typeText(t []string) string {
	if t == nil {
		return "any"
	}
	return strings.Join(t, " or ")
}

func (s *schemaDiff) enum(where string, o, a map[string]any) {
	oe, oOK := o["enum"].([]any)
	ae, aOK := a["enum"].([]any)
	texts := func(vs []any) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = jsonText(v)
		}
		return out
	}
	switch {
	case !oOK && !aOK:
	case !aOK:
		s.add(Loosened, where, "enum dropped: any value of the type is accepted")
	case !oOK:
		s.add(Breaking, where, "enum added: only %s accepted", strings.Join(texts(ae), ", "))
	default:
		if gone := sortedDiff(texts(oe), texts(ae)); len(gone) > 0 {
			s.add(Breaking, where, "enum narrowed: %s no longer accepted", strings.Join(gone, ", "))
		}
		if came := sortedDiff(texts(ae), texts(oe)); len(came) > 0 {
			s.add(Loosened, where, "enum widened: %s now accepted", strings.Join(came, ", "))
		}
	}
}

// bound compares the keyword k; dir is +1 for a lower bound (raising it
// narrows) and -1 for an upper bound.
func (s *schemaDiff) bound(where, k string, o, a map[string]any, dir int) {
	ov, oOK := number(o[k])
	av, aOK := number(a[k])
	switch {
	case !oOK && !aOK:
	case !aOK:
		s.add(Loosened, where, "%s %s dropped", k, jsonText(o[k]))
	case !oOK:
		s.add(Breaking, where, "%s %s added", k, jsonText(a[k]))
	case ov == av:
	case (av-ov)*float64(dir) > 0:
		s.add(Breaking, where, "%s %s from %s to %s", k, moved(ov, av), jsonText(o[k]), jsonText(a[k]))
	default:
		s.add(Loosened, where, "%s %s from %s to %s", k, moved(ov, av), jsonText(o[k]), jsonText(a[k]))
	}
}

func moved(o, a float64) string {
	if a > o {
		return "raised"
	}
	return "lowered"
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

func requiredSet(s map[string]any) map[string]bool {
	out := map[string]bool{}
	if rs, ok := s["required"].([]any); ok {
		for _, r := range rs {
			out[fmt.Sprint(r)] = true
		}
	}
	return out
}

func (s *schemaDiff) properties(where string, o, a map[string]any, depth int) {
	op, _ := o["properties"].(map[string]any)
	ap, _ := a["properties"].(map[string]any)
	or, ar := requiredSet(o), requiredSet(a)
	prefix := where + "."
	closed := func(m map[string]any) bool { return m["additionalProperties"] == false }
	names := make([]string, 0, len(op)+len(ap))
	for n := range union(op, ap) {
		names = append(names, n)
	}
	// Required names without a property schema count too.
	for n := range ar {
		if ap[n] == nil && op[n] == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		os, oHas := op[n].(map[string]any)
		as, aHas := ap[n].(map[string]any)
		p := prefix + n
		switch {
		case oHas && !aHas:
			if closed(a) {
				s.add(Breaking, p, "argument removed: calls that send it are refused")
			} else {
				s.add(Breaking, p, "argument removed: calls that send it no longer have its effect")
			}
			continue
		case !oHas && aHas:
			if ar[n] {
				s.add(Breaking, p, "new required argument")
			} else {
				s.add(Loosened, p, "new optional argument")
			}
			continue
		case !oHas && !aHas:
			if ar[n] && !or[n] {
				s.add(Breaking, p, "now required")
			}
			continue
		}
		switch {
		case ar[n] && !or[n]:
			s.add(Breaking, p, "now required")
		case or[n] && !ar[n]:
			s.add(Loosened, p, "now optional")
		}
		s.compare(p, os, as, depth+1)
	}
	oa, _ := o["additionalProperties"].(map[string]any)
	aa, _ := a["additionalProperties"].(map[string]any)
	if oa != nil || aa != nil {
		s.compare(where+".*", orEmpty(oa), orEmpty(aa), depth+1)
	}
	switch {
	case closed(a) && !closed(o):
		s.add(Breaking, where, "additional properties no longer accepted")
	case closed(o) && !closed(a):
		s.add(Loosened, where, "additional properties now accepted")
	}
}
