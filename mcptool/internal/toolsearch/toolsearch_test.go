package toolsearch

import (
	"fmt"
	"testing"
)

func TestTokens(t *testing.T) {
	for in, want := range map[string]string{
		"gmail_users_messages_send":         "[gmail user messag send]",
		"listDirectoryPeople":               "[list directory peopl]",
		"HTTPServer v1":                     "[http server v1]",
		"Add a to-do to my list, please!":   "[todo add list]",
		"policies buckets addresses status": "[policy bucket address status]",
		"created creating create":           "[creat creat creat]",
		"stopped":                           "[stop]",
		"notified copied":                   "[notify copy]",
		"what's new, don't":                 "[new don]",
		"it’s a b c":                        "[b c]",
	} {
		if got := fmt.Sprint(Tokens(in)); got != want {
			t.Errorf("Tokens(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestConcepts: every word of the synonym table maps to one concept (init
// panics otherwise), and a word meets its synonyms through it.
func TestConcepts(t *testing.T) {
	if concepts()["insert"] != "@create" || concepts()["add"] != "@create" || concepts()[Stem("erase")] != "@delete" {
		t.Errorf("concepts: insert %q, add %q, erase %q", concepts()["insert"], concepts()["add"], concepts()[Stem("erase")])
	}
	if concepts()[Stem("save")] != "@create" || concepts()["clear"] != "@delete" || concepts()[Stem("finished")] != concepts()[Stem("completed")] {
		t.Errorf("concepts: save %q, clear %q, finished %q, completed %q", concepts()[Stem("save")], concepts()["clear"], concepts()[Stem("finished")], concepts()[Stem("completed")])
	}
	ix := Build([]Doc{
		{Name: "playlists_insert", Description: "Inserts a new resource into this collection."},
		{Name: "playlists_delete", Description: "Deletes a resource."},
	})
	if h := ix.Search("add a playlist", 2, nil); len(h) == 0 || h[0].Doc != 0 {
		t.Errorf("add a playlist: %v, want playlists_insert first", h)
	}
	if h := ix.Search("erase my playlist", 2, nil); len(h) == 0 || h[0].Doc != 1 {
		t.Errorf("erase my playlist: %v, want playlists_delete first", h)
	}
}

// TestSplit: a compound name word splits into two words of the names'
// vocabulary, and a query of those words finds it.
func TestSplit(t *testing.T) {
	vocab := map[string]bool{"task": true, "list": true, "tabl": true, "data": true}
	for in, want := range map[string]string{"tasklist": "[task list]", "tabledata": "[table data]", "playlist": "[]", "list": "[]"} {
		if got := fmt.Sprint(split(in, vocab)); got != want {
			t.Errorf("split(%q) = %s, want %s", in, got, want)
		}
	}
	ix := Build([]Doc{
		{Name: "tasks_get", Description: "Returns the specified task."},
		{Name: "tasklists_get", Description: "Returns the authenticated user's specified list."},
		{Name: "tasks_list", Description: "Returns all tasks."},
	})
	if h := ix.Search("get a task list", 3, nil); len(h) != 3 || h[0].Doc != 1 {
		t.Errorf("get a task list: %v, want tasklists_get first", h)
	}
}

func TestSearch(t *testing.T) {
	docs := []Doc{
		{Name: "refund_invoice", Group: "billing", Description: "Gives money back for a paid invoice.", Args: []Arg{{"amount", "Cents to give back"}}},
		{Name: "get_invoice", Group: "billing", Description: "Shows one invoice."},
		{Name: "list_users", Group: "accounts", Description: "Lists the people who can sign in."},
		{Name: "teamdrives_create", Description: "Deprecated: use drives_create."},
		{Name: "drives_create", Description: "Creates a shared drive."},
		{Name: "b_same", Description: "same words"},
		{Name: "a_same", Description: "same words"},
	}
	ix := Build(docs)
	name := func(h []Hit) []string {
		var out []string
		for _, x := range h {
			out = append(out, docs[x.Doc].Name)
		}
		return out
	}
	if got := name(ix.Search("money back", 5, nil)); fmt.Sprint(got) != "[refund_invoice]" {
		t.Errorf("money back: %v", got)
	}
	if got := name(ix.Search("invoice", 5, func(d int) bool { return d != 0 })); fmt.Sprint(got) != "[get_invoice]" {
		t.Errorf("keep filters: %v", got)
	}
	if got := name(ix.Search("create drive", 2, nil)); fmt.Sprint(got) != "[drives_create teamdrives_create]" {
		t.Errorf("a deprecated tool ranks below its replacement: %v", got)
	}
	if got := name(ix.Search("same words", 5, nil)); fmt.Sprint(got) != "[a_same b_same]" {
		t.Errorf("ties go to the smaller name: %v", got)
	}
	if got := name(ix.Search("list_users", 1, nil)); fmt.Sprint(got) != "[list_users]" {
		t.Errorf("a tool's exact name: %v", got)
	}
	if got := ix.Search("nothing here, zzz", 5, nil); len(got) != 0 {
		t.Errorf("no match: %v", got)
	}
	// limit keeps the best: the partial selection agrees with a full sort.
	all := name(ix.Search("invoice same drive create", 7, nil))
	for k := 1; k <= len(all); k++ {
		if got := name(ix.Search("invoice same drive create", k, nil)); fmt.Sprint(got) != fmt.Sprint(all[:k]) {
			t.Errorf("limit %d: %v, want %v", k, got, all[:k])
		}
	}
}

func BenchmarkSearch10k(b *testing.B) {
	docs := make([]Doc, 10000)
	for i := range docs {
		docs[i] = Doc{Name: fmt.Sprintf("svc%d_resource%d_get", i%50, i), Group: fmt.Sprintf("svc%d", i%50),
			Description: fmt.Sprintf("Gets the resource %d of a project, with its settings and state.", i),
			Args:        []Arg{{"name", "The resource's name."}, {"pageSize", "How many at most."}}}
	}
	ix := Build(docs)
	b.ResetTimer()
	for b.Loop() {
		ix.Search("get the settings of a resource", 5, nil)
	}
}

// TestPrefix: a query word finds the longer words it starts, below the
// word itself; a short word does not.
func TestPrefix(t *testing.T) {
	docs := []Doc{
		{Name: "reactions_create", Description: "Creates a reaction to a message."},
		{Name: "messages_create", Description: "Creates a message."},
		{Name: "react_now", Description: "Reacts."},
		{Name: "lists_get", Description: "Gets a list."},
		{Name: "listeners_get", Description: "Gets a listener."},
	}
	ix := Build(docs)
	if h := ix.Search("react to a message", 3, nil); len(h) != 3 || h[0].Doc != 0 {
		t.Errorf("react to a message: %v, want reactions_create (react and message) first", h)
	}
	if h := ix.Search("list", 5, nil); len(h) != 1 || h[0].Doc != 3 {
		t.Errorf("list: %v, want lists_get alone (a word of 4 letters is no prefix)", h)
	}
}

// TestRelated: a query that finds also asks for a list, below a get.
func TestRelated(t *testing.T) {
	docs := []Doc{
		{Name: "messages_list", Description: "Lists messages."},
		{Name: "messages_get", Description: "Gets a message."},
		{Name: "labels_get", Description: "Gets a label."},
		{Name: "drafts_get", Description: "Gets a draft."},
	}
	ix := Build(docs)
	// Without the relation messages_get ranks first: its name's other
	// word, get, is the commoner.
	if h := ix.Search("find my messages", 4, nil); len(h) < 2 || h[0].Doc != 0 {
		t.Errorf("find my messages: %v, want messages_list first", h)
	}
}

// TestFields: a field nested in an argument (a request body's) finds its
// tool, below a tool with an argument of that name.
func TestFields(t *testing.T) {
	ix := Build([]Doc{
		{Name: "settings_get", Description: "Gets the settings."},
		{Name: "settings_updateVacation", Description: "Updates the settings.", Fields: []string{"enableAutoReply", "responseSubject"}},
		{Name: "forwarding_update", Description: "Updates forwarding.", Args: []Arg{{"autoReply", ""}}},
	})
	var got []string
	for _, h := range ix.Search("turn on the auto reply", 3, nil) {
		got = append(got, ix.names[h.Doc])
	}
	if fmt.Sprint(got) != "[forwarding_update settings_updateVacation]" {
		t.Errorf("turn on the auto reply: %v, want [forwarding_update settings_updateVacation]", got)
	}
}
