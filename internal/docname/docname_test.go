package docname

import "testing"

func TestTrim(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"AdjustStock", "AdjustStock adds to the stock.", "Adds to the stock."},
		{"ShoppingArgs", "ShoppingArgs list the recipes to shop for.", "List the recipes to shop for."},
		{"CSVReport", "CSVReport is what analyze_csv found.", "What analyze_csv found."},
		{"ColumnStats", "ColumnStats are the statistics of one column.", "The statistics of one column."},
		{"Recipe", "Recipe is a dish.\n\nIt has steps.", "A dish.\n\nIt has steps."},
		{"TimedOut", "TimedOut is true when the program was stopped.", "True when the program was stopped."},
		{"Ünit", "Ünit is écrit.", "Écrit."},
		{"askConfirmTamper", "askConfirmTamper is askConfirm under another name.", "Is askConfirm under another name."},
		{"Page", "Page is 2 pages.", "2 pages."},
		{"SearchResults", "SearchResults are web_search's hits.", "web_search's hits."},
		// A name used as a noun, or not first, stays.
		{"ID", "ID of the page to delete.", "ID of the page to delete."},
		{"Title", "Title and text of the page.", "Title and text of the page."},
		{"When", "When set, only events after it.", "When set, only events after it."},
		{"Page", "A Page is one page.", "A Page is one page."},
		{"Page", "Pages is many.", "Pages is many."},
		{"Page", "Page,", "Page,"},
		{"Page", "Page is", "Is"},
		{"Page", "Page ", "Page "},
		{"", "x is y.", "x is y."},
		{"Page", "", ""},
	} {
		if got := Trim(c.name, c.doc); got != c.want {
			t.Errorf("Trim(%q, %q) = %q, want %q", c.name, c.doc, got, c.want)
		}
	}
}
