package mcptool

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcpgen/mcpgen/annotations"
)

// What discovery mode answers a model that does not yet know what to ask
// for: an empty search_tools, and a proxy call naming no tool.

// toolName is a tool as an empty search lists it: what to call, and what
// it is called for people.
type toolName struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
}

// emptyListMax bounds the tools an empty search lists by name: some 5 KB
// of names and titles. The rest are counted ("more") and found by a query.
const emptyListMax = 100

// emptyResult is what search_tools answers to an empty query.
type emptyResult struct {
	Groups []groupInfo `json:"groups,omitempty"`
	Tools  []toolName  `json:"tools"`
	More   int         `json:"more,omitempty"` // tools in no group left out, beyond emptyListMax
}

// emptySearch is search_tools' answer to an empty query without a group:
// the groups of which the caller may see a tool, each with the number of
// tools it may see there, and the tools it may see that are in no group,
// by name, at most emptyListMax. A registry without groups thus lists its
// tools, one with only groups lists the groups.
func (r *Registry) emptySearch(set *toolSet, ti *auth.TokenInfo) emptyResult {
	v := r.index(set)
	res := emptyResult{Tools: []toolName{}}
	count := map[string]int{}
	for _, t := range v.docs {
		switch {
		case !r.cfg.listAll && !mayCall(t, ti):
		case t.group != "":
			count[t.group]++
		case len(res.Tools) == emptyListMax:
			res.More++
		default:
			res.Tools = append(res.Tools, toolName{t.name, t.def.Title})
		}
	}
	for _, g := range v.groups { // sorted by name
		if n := count[g.Name]; n > 0 {
			res.Groups = append(res.Groups, groupInfo{g.Name, n})
		}
	}
	return res
}

// maxSuggestions bounds the names an unknown tool's refusal suggests.
const maxSuggestions = 3

// didYouMean returns the names closest to name (annotations.Suggest: the
// same letters ignoring case, or at most two edits away), best first, among
// the tools the caller of ctx may call: never one its scopes do not allow,
// nor an app-only one. "" when none is close.
func (r *Registry) didYouMean(ctx context.Context, name string) string {
	if len(name) > 128+2 { // no tool name is longer than 128 (MCP)
		return ""
	}
	var ti *auth.TokenInfo
	if cs := stateFrom(ctx); cs != nil {
		ti = cs.ti
	}
	// Suggest is at least the difference in length away: only names within
	// two bytes of name's length are compared.
	var known []string
	for _, t := range r.snapshot().sorted {
		if d := len(t.name) - len(name); d >= -2 && d <= 2 && t.searchable() && mayCall(t, ti) {
			known = append(known, t.name)
		}
	}
	var out []string
	for len(out) < maxSuggestions {
		s := annotations.Suggest(name, known)
		if s == "" {
			break
		}
		out = append(out, fmt.Sprintf("%q", s))
		known = removeName(known, s)
	}
	switch len(out) {
	case 0:
		return ""
	case 1:
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

func removeName(names []string, name string) []string {
	out := names[:0]
	for _, n := range names {
		if n != name {
			out = append(out, n)
		}
	}
	return out
}

// noSuchTool is why a proxy cannot call name: no tool has it; suggest
// names the closest the caller may call.
func noSuchTool(name, suggest string) string {
	if suggest != "" {
		return fmt.Sprintf("no tool is named %q (did you mean %s?): search_tools finds tools by what they do", name, suggest)
	}
	return fmt.Sprintf("no tool is named %q: search_tools finds tools by what they do", name)
}
