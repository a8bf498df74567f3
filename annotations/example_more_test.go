package annotations_test

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/annotations"
)

// The whole path of an `mcp` tag: read it from a struct's blank field, scan
// it, record the hint items on Hints and hand the others on, check the
// combination, and publish the annotations.
func Example() {
	type deleteArgs struct {
		_    struct{} `mcp:"title='Delete page',destructive,idempotent,timeout=30s"`
		Page string   `json:"page"`
	}
	tag := reflect.TypeFor[deleteArgs]().Field(0).Tag.Get("mcp")

	items, err := annotations.ParseTag(tag)
	if err != nil {
		fmt.Println(err)
		return
	}
	var hints annotations.Hints
	var others []annotations.Item
	for _, it := range items {
		if !annotations.IsHintKey(it.Key) {
			others = append(others, it) // for the layers above (timeouts, rate limits, ...)
			continue
		}
		if err := hints.Set(it); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := hints.Check(); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.Marshal(hints.Annotations())
	fmt.Println(string(b))
	for _, it := range others {
		fmt.Printf("handed on: %s=%s\n", it.Key, it.Value)
	}
	// Output:
	// {"destructiveHint":true,"idempotentHint":true,"openWorldHint":true,"readOnlyHint":false,"title":"Delete page"}
	// handed on: timeout=30s
}

// Hints keep the difference between a hint left out (nil, the
// specification's default applies) and one given as false.
func ExampleHints() {
	written := annotations.Hints{Title: "Fetch page", OpenWorld: annotations.Bool(false)}
	fmt.Println(written.ReadOnly == nil, *written.OpenWorld)

	b, _ := json.Marshal(written.Annotations())
	fmt.Println(string(b))
	// Output:
	// true false
	// {"destructiveHint":true,"idempotentHint":false,"openWorldHint":false,"readOnlyHint":false,"title":"Fetch page"}
}

// Effective gives plain booleans to act on, with the specification's
// defaults filled in: here, a server that asks the user before running a
// tool that may destroy data.
func ExampleEffective() {
	tools := []struct {
		name  string
		hints annotations.Hints
	}{
		{"list_pages", annotations.Hints{ReadOnly: annotations.Bool(true)}},
		{"edit_page", annotations.Hints{Destructive: annotations.Bool(false)}},
		{"delete_page", annotations.Hints{}}, // nothing said: may destroy
	}
	for _, t := range tools {
		e := t.hints.Effective()
		fmt.Printf("%s: readOnly=%v destructive=%v confirm=%v\n", t.name, e.ReadOnly, e.Destructive, !e.ReadOnly && e.Destructive)
	}
	// Output:
	// list_pages: readOnly=true destructive=false confirm=false
	// edit_page: readOnly=false destructive=false confirm=false
	// delete_page: readOnly=false destructive=true confirm=true
}

// An Item's Pos points back into the tag, so a layer above that rejects a
// key can show where it was written and suggest the key meant.
func ExampleItem() {
	tag := "readOnly,idempotnet"
	items, err := annotations.ParseTag(tag)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range items {
		if annotations.IsHintKey(it.Key) {
			continue
		}
		fmt.Printf("mcp:%q\n", tag)
		fmt.Printf("%*s^ unknown key %q", len(`mcp:"`)+it.Pos, "", it.Key)
		if s := annotations.Suggest(it.Key, annotations.HintKeys); s != "" {
			fmt.Printf(", did you mean %q?", s)
		}
		fmt.Println()
	}
	// Output:
	// mcp:"readOnly,idempotnet"
	//               ^ unknown key "idempotnet", did you mean "idempotent"?
}
