package mcpreflect

import "testing"

func TestTypeDescription(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"SumArgs", "SumArgs are the arguments of calculate_sum.", ""},
		{"Sum", "Sum is the result of calculate_sum.", ""},
		{"SearchArgs", "SearchArgs are the arguments of web_search. Bounds per call: one request.", "Bounds per call: one request."},
		{"SearchArgs", "SearchArgs are the arguments of web_search.\nBounds per call.", "Bounds per call."},
		{"Hits", "Hits are the results of search.", ""},
		// Anything more than the boilerplate loses only the Go name.
		{"Sum", "Sum is the result of adding two numbers.", "The result of adding two numbers."},
		{"Sum", "Sum is the result of calculate_sum", "The result of calculate_sum"},
		{"Sum", "Sum is the total of calculate_sum.", "The total of calculate_sum."},
		{"ShoppingArgs", "ShoppingArgs list the recipes to shop for.", "List the recipes to shop for."},
		{"Page[int]", "Page is one page of hits.", "One page of hits."},
		{"Sum", "A Sum is the result of calculate_sum.", "A Sum is the result of calculate_sum."},
		{"Summary", "Sum is the result of calculate_sum.", "Sum is the result of calculate_sum."},
		{"", " is the result of x.", " is the result of x."},
		{"Sum", "", ""},
	} {
		if got := typeDescription(c.name, c.doc); got != c.want {
			t.Errorf("typeDescription(%q, %q) = %q, want %q", c.name, c.doc, got, c.want)
		}
	}
}
