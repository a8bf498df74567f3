package annotations_test

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/mcpgen/mcpgen/annotations"
)

// The whole path of an `mcp` tag: read it from a struct's blank field,
// parse it into a Tool, lay the options over it, and fill in the defaults.
func Example() {
	type deleteArgs struct {
		_    struct{} `mcp:"title='Delete page',destructive,idempotent,timeout=30s,rate=10/m"`
		Page string   `json:"page"`
	}
	tag := reflect.TypeFor[deleteArgs]().Field(0).Tag.Get("mcp")

	tool, err := annotations.Parse(tag)
	if err != nil {
		fmt.Println(err)
		return
	}
	options := annotations.Tool{Policy: annotations.Policy{Timeout: 5 * time.Second, Confirm: true}}
	tool = tool.Merge(options) // the options win
	if err := tool.Check(); err != nil {
		fmt.Println(err)
		return
	}
	p := tool.Resolved()
	fmt.Printf("%s: %+v\n", tool.Title, tool.Effective())
	fmt.Printf("timeout %s, rate %.3f/s burst %d, confirm %v, maxArgBytes %d, maxDepth %d, task %s\n",
		p.Timeout, p.Rate.PerSecond, p.Rate.Burst, p.Confirm, p.MaxArgBytes, p.MaxDepth, p.Task)
	// Output:
	// Delete page: {ReadOnly:false Destructive:true Idempotent:true OpenWorld:true}
	// timeout 5s, rate 0.167/s burst 1, confirm true, maxArgBytes 1048576, maxDepth 64, task forbidden
}

// Hints keep the difference between a hint left out (nil, the
// specification's default applies) and one given as false.
func ExampleHints() {
	written := annotations.Hints{Title: "Fetch page", OpenWorld: annotations.Bool(false)}
	fmt.Println(written.ReadOnly == nil, *written.OpenWorld)
	fmt.Printf("%+v\n", written.Effective())
	// Output:
	// true false
	// {ReadOnly:false Destructive:true Idempotent:false OpenWorld:false}
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

// A KeyError's Pos points back into the tag, so a tool can show where each
// wrong key was written, and the key probably meant.
func ExampleKeyError() {
	tag := "readOnly,idempotnet,timeout=soon"
	_, err := annotations.Parse(tag)
	fmt.Printf("mcp:%q\n", tag)
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ke *annotations.KeyError
		if errors.As(e, &ke) {
			fmt.Printf("%*s^ %s\n", len(`mcp:"`)+ke.Pos, "", ke.Msg)
		}
	}
	// Output:
	// mcp:"readOnly,idempotnet,timeout=soon"
	//               ^ unknown key "idempotnet" (did you mean "idempotent"?)
	//                          ^ timeout must be a positive duration such as 5s or 250ms
}
