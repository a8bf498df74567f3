package server

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Notes is a small notes service on the demo database, with full-text
// search (SQLite FTS5). Its exported methods are its tools, registered with
// AddMethods: SearchPages is search_pages, GetPage get_page, DeletePage
// delete_page.
type Notes struct {
	db *sql.DB
}

// SearchPagesArgs are the arguments of search_pages.
type SearchPagesArgs struct {
	_ struct{} `mcp:"title=Search Pages,readOnly,openWorld=false"`
	// Words to look for in titles and text; a page matches when it has all of them, in any form
	// ("meeting" also finds "meetings"), e.g. "meeting notes".
	Query string `json:"query" jsonschema:"example=meeting notes" validate:"required,min=2,max=200"`
	// The most pages to return, best match first.
	Limit int `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=50"`
}

// PageHits are the pages search_pages found.
type PageHits struct {
	// The matching pages, best match first; empty when none matched.
	Results []PageHit `json:"results"`
}

// PageHit is one page found by search_pages.
type PageHit struct {
	// The page's id, for get_page and delete_page.
	ID int64 `json:"id"`
	// The page's title.
	Title string `json:"title"`
	// Text of the page around the match, the matching words in **bold**.
	Snippet string `json:"snippet"`
}

// PageArgs name one page, for get_page.
type PageArgs struct {
	_ struct{} `mcp:"title=Get Page,readOnly,openWorld=false"`
	// The page's id, from search_pages, e.g. 2.
	ID int64 `json:"id" jsonschema:"minimum=1,example=2"`
}

// Page is a notes page.
type Page struct {
	// The page's id.
	ID int64 `json:"id"`
	// The page's title.
	Title string `json:"title"`
	// The page's full text.
	Body string `json:"body"`
	// When the page was created, RFC 3339.
	CreatedAt string `json:"createdAt"`
	// When the page was last changed, RFC 3339.
	UpdatedAt string `json:"updatedAt"`
}

// DeletePageArgs name the page delete_page deletes.
type DeletePageArgs struct {
	_ struct{} `mcp:"title=Delete Page,readOnly=false,destructive,idempotent,openWorld=false"`
	// The id of the page to delete, from search_pages, e.g. 2.
	ID int64 `json:"id" jsonschema:"minimum=1,example=2"`
}

// DeletedPage is the page delete_page deleted.
type DeletedPage struct {
	// The deleted page's id.
	ID int64 `json:"id"`
	// The deleted page's title.
	Title string `json:"title"`
	// True: the page is gone.
	Deleted bool `json:"deleted"`
}

// SearchPages searches the notes by title or content (full-text, words in
// any form: "meeting" finds "meetings") and returns the matching pages with
// their ids, titles and a snippet, best match first. Use it to find a page,
// then get_page to read it.
//
// Example: {"query": "meeting notes", "limit": 5} returns {"results":
// [{"id": 3, "title": "Meeting notes: schema design review", "snippet":
// "**Meeting** **notes**: schema design review"}, {"id": 2, ...}]}.
func (n *Notes) SearchPages(ctx context.Context, in SearchPagesArgs) (PageHits, error) {
	match := ftsQuery(in.Query)
	if match == "" {
		return PageHits{}, mcptool.Errorf("the query %q has no words to search for", in.Query)
	}
	rows, err := n.db.QueryContext(ctx, `
		SELECT notes.id, notes.title, snippet(notes_fts, -1, '**', '**', '…', 16)
		FROM notes_fts JOIN notes ON notes.id = notes_fts.rowid
		WHERE notes_fts MATCH ?
		ORDER BY bm25(notes_fts, 5.0, 1.0)
		LIMIT ?`, match, in.Limit)
	if err != nil {
		return PageHits{}, err
	}
	defer rows.Close()
	out := PageHits{Results: []PageHit{}}
	for rows.Next() {
		var h PageHit
		if err := rows.Scan(&h.ID, &h.Title, &h.Snippet); err != nil {
			return PageHits{}, err
		}
		out.Results = append(out.Results, h)
	}
	return out, rows.Err()
}

// ftsQuery turns free text into an FTS5 query: every word quoted (so no
// character of the input is FTS5 syntax) and matched as a prefix, all
// words required.
func ftsQuery(text string) string {
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range words {
		words[i] = `"` + w + `"*`
	}
	return strings.Join(words, " ")
}

// GetPage returns one notes page by id: its title, full text, and when it
// was created and last updated. Ids come from search_pages.
//
// Example: {"id": 2} returns {"id": 2, "title": "Meeting notes: release
// planning", "body": "...", ...}.
func (n *Notes) GetPage(ctx context.Context, in PageArgs) (Page, error) {
	p := Page{ID: in.ID}
	err := n.db.QueryRowContext(ctx, `SELECT title, body, created_at, updated_at FROM notes WHERE id = ?`, in.ID).
		Scan(&p.Title, &p.Body, &p.CreatedAt, &p.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Page{}, mcptool.Errorf("no page with id %d; search_pages finds pages and their ids", in.ID)
	}
	return p, err
}

// DeletePage deletes a notes page by id. DESTRUCTIVE: the page cannot be
// restored.
//
// Example: {"id": 2} returns {"id": 2, "title": "Meeting notes: release
// planning", "deleted": true}.
func (n *Notes) DeletePage(ctx context.Context, in DeletePageArgs) (DeletedPage, error) {
	var title string
	err := n.db.QueryRowContext(ctx, `DELETE FROM notes WHERE id = ? RETURNING title`, in.ID).Scan(&title)
	if errors.Is(err, sql.ErrNoRows) {
		return DeletedPage{}, mcptool.Errorf("no page with id %d (deleted already?); nothing was deleted", in.ID)
	}
	if err != nil {
		return DeletedPage{}, err
	}
	return DeletedPage{ID: in.ID, Title: title, Deleted: true}, nil
}
