package toolsearch

import "sync"

// Concepts: words that mean the same thing to someone asking for a tool —
// the verbs of CRUD and a few nouns of everyday software — map to one
// concept term, which both the index and the query carry beside the word
// itself. A word matches itself at full weight and its concept at
// conceptWeight, so "add a playlist" finds playlists_insert while a tool
// named with "add" still ranks first. The table is small and fixed:
// deterministic, and written from general usage, not from any catalogue.
// It is built at the first index, not at start: a server that never
// searches its tools pays nothing for it.
var concepts = sync.OnceValue(buildConcepts)

const conceptWeight = 0.8

// related: a query of one concept also asks for another, at
// relatedWeight of a concept's weight. Finding things is how lists are
// used: an API searches by listing with a filter (gmail's messages.list
// with q), so "find my emails" also asks for a list.
var related = map[string]string{"@search": "@list"}

const relatedWeight = 0.5

func buildConcepts() map[string]string {
	concepts := map[string]string{}
	table := map[string][]string{
		"@create":    {"create", "insert", "add", "new", "make", "write", "upload", "post", "start", "setup", "compose", "store", "schedule", "save", "append"},
		"@get":       {"get", "show", "see", "view", "read", "fetch", "retrieve", "display", "open", "download"},
		"@list":      {"list", "enumerate", "browse", "every", "all", "which"},
		"@delete":    {"delete", "remove", "erase", "destroy", "drop", "purge", "obliterate", "discard", "clear", "cancel"},
		"@update":    {"update", "patch", "modify", "change", "edit", "set", "replace", "rename", "alter"},
		"@search":    {"search", "find", "query", "lookup", "look", "filter", "match"},
		"@cancel":    {"stop", "end", "abort", "terminate", "halt"},
		"@message":   {"message", "email", "mail", "e-mail", "inbox"},
		"@image":     {"image", "picture", "photo", "avatar", "thumbnail"},
		"@trash":     {"trash", "bin", "recycle"},
		"@meeting":   {"meeting", "event", "appointment", "conference", "call"},
		"@person":    {"person", "people", "contact", "member", "user", "someone", "participant", "who", "everyone"},
		"@share":     {"share", "permission", "acl", "access", "grant"},
		"@caption":   {"caption", "subtitle", "transcript"},
		"@file":      {"file", "document", "doc", "object"},
		"@restore":   {"restore", "undelete", "untrash", "recover", "revert", "back"},
		"@notify":    {"notify", "notification", "watch", "alert"},
		"@subscribe": {"subscribe", "subscription", "follow"},
		"@version":   {"version", "revision", "history"},
		"@thread":    {"thread", "conversation"},
		"@batch":     {"batch", "several", "many", "multiple", "bulk"},
		"@task":      {"task", "todo"},
		"@done":      {"done", "finished", "completed", "complete"},
		"@combine":   {"combine", "merge", "concatenate", "join"},
	}
	for concept, words := range table {
		for _, w := range words {
			for _, t := range Tokens(w) {
				if c, dup := concepts[t]; dup && c != concept {
					panic("toolsearch: " + t + " is in " + c + " and " + concept) // TestConcepts
				}
				concepts[t] = concept
			}
		}
	}
	return concepts
}
