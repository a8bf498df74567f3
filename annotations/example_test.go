package annotations_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/annotations"
)

func ExampleParseTag() {
	items, err := annotations.ParseTag(`title='Search, fast',readOnly, openWorld=false, note='it\'s'`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range items {
		fmt.Printf("%d %s hasValue=%v value=%q\n", it.Pos, it.Key, it.HasValue, it.Value)
	}
	// Output:
	// 0 title hasValue=true value="Search, fast"
	// 21 readOnly hasValue=false value=""
	// 31 openWorld hasValue=true value="false"
	// 48 note hasValue=true value="it's"
}

func ExampleParseTag_errors() {
	for _, tag := range []string{
		"readOnly,",               // trailing comma
		"readOnly,,openWorld",     // empty item
		"title='Search, fast",     // unterminated quote
		"readOnly,readOnly=false", // duplicate key
	} {
		_, err := annotations.ParseTag(tag)
		fmt.Println(err)
	}
	// Output:
	// at offset 9: expected a key after ','
	// at offset 9: unexpected ',', expected a key
	// at offset 0: unterminated quote in value of "title"
	// at offset 9: key "readOnly" given twice
}

func ExampleSyntaxError() {
	_, err := annotations.ParseTag("title=x,,readOnly")
	var se *annotations.SyntaxError
	if errors.As(err, &se) {
		fmt.Printf("%s\n%*s^ %s\n", se.Tag, se.Pos, "", se.Msg)
	}
	// Output:
	// title=x,,readOnly
	//         ^ unexpected ',', expected a key
}

func ExampleSyntaxError_Error() {
	err := &annotations.SyntaxError{Tag: "a,", Pos: 2, Msg: "expected a key after ','"}
	fmt.Println(err.Error())
	// Output:
	// at offset 2: expected a key after ','
}

func ExampleParse() {
	t, err := annotations.Parse("title=Delete page,destructive,idempotent=true,openWorld=false,timeout=5s,confirm,task=required")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Title, *t.Destructive, *t.Idempotent, *t.OpenWorld, t.ReadOnly == nil)
	fmt.Println(t.Timeout, t.Confirm, t.Task)

	// Every wrong item is reported.
	_, err = annotations.Parse("readOnly=yes,timeout=5,titel=x")
	fmt.Println(err)
	// Output:
	// Delete page true true false true
	// 5s true required
	// readOnly=yes: value must be true or false
	// timeout must be a positive duration such as 5s or 250ms
	// unknown key "titel" (did you mean "title"?)
}

func ExampleHints_Merge() {
	fromTag := annotations.Hints{Title: "Search", ReadOnly: annotations.Bool(true), OpenWorld: annotations.Bool(true)}
	fromOptions := annotations.Hints{OpenWorld: annotations.Bool(false)}
	h := fromTag.Merge(fromOptions)
	fmt.Println(h.Title, *h.ReadOnly, *h.OpenWorld)
	// Output:
	// Search true false
}

func ExampleHints_Check() {
	h := annotations.Hints{ReadOnly: annotations.Bool(true), Destructive: annotations.Bool(true)}
	err := h.Check()
	fmt.Println(err)
	fmt.Println(errors.Is(err, annotations.ErrMeaningless))

	h.Destructive = annotations.Bool(false) // saying "not destructive" is fine
	fmt.Println(h.Check())
	// Output:
	// meaningless hint combination: destructive on a readOnly tool (a read-only tool modifies nothing)
	// true
	// <nil>
}

func ExampleHints_Effective() {
	fmt.Printf("%+v\n", annotations.Hints{}.Effective())
	fmt.Printf("%+v\n", annotations.Hints{ReadOnly: annotations.Bool(true)}.Effective())
	// Output:
	// {ReadOnly:false Destructive:true Idempotent:false OpenWorld:true}
	// {ReadOnly:true Destructive:false Idempotent:false OpenWorld:true}
}

func ExampleKeys() {
	fmt.Println(annotations.Keys())
	// Output:
	// [title readOnly destructive idempotent openWorld timeout rate burst sessionRate sessionBurst concurrency callerConcurrency confirm maxArgBytes maxDepth task scopes view visibility connectDomains resourceDomains group eager]
}

func ExampleTool_Merge() {
	fromTag, _ := annotations.Parse("readOnly,timeout=30s,rate=10/s")
	fromOptions := annotations.Tool{Policy: annotations.Policy{Timeout: time.Second}}
	t := fromTag.Merge(fromOptions)
	fmt.Println(*t.ReadOnly, t.Timeout, t.Rate.PerSecond)
	// Output:
	// true 1s 10
}

func ExampleTool_Check() {
	t, _ := annotations.Parse("confirm")
	t = t.Merge(annotations.Tool{Hints: annotations.Hints{ReadOnly: annotations.Bool(true)}})
	err := t.Check()
	fmt.Println(err)
	fmt.Println(errors.Is(err, annotations.ErrMeaningless))
	// Output:
	// meaningless hint combination: confirm on a readOnly tool (confirmation is for tools that change things)
	// true
}

func ExamplePolicy_Resolved() {
	fmt.Printf("%+v\n", annotations.Policy{Rate: annotations.Rate{PerSecond: 5}}.Resolved())
	// Output:
	// {Timeout:0s Rate:{PerSecond:5 Burst:5} SessionRate:{PerSecond:0 Burst:0} Concurrency:0 Confirm:false MaxArgBytes:1048576 MaxDepth:64 Task:forbidden Scopes:[] CallerConcurrency:0}
}

func ExampleSuggest() {
	for _, k := range []string{"readonly", "idempotnet", "titel", "rate"} {
		fmt.Printf("%s -> %q\n", k, annotations.Suggest(k, []string{"title", "readOnly", "destructive", "idempotent", "openWorld"}))
	}
	// Output:
	// readonly -> "readOnly"
	// idempotnet -> "idempotent"
	// titel -> "title"
	// rate -> ""
}

func ExampleBool() {
	h := annotations.Hints{Idempotent: annotations.Bool(true)}
	fmt.Println(*h.Idempotent, h.Effective().Idempotent)
	// Output:
	// true true
}

func ExampleCheckVisibility() {
	fmt.Println(annotations.CheckVisibility([]string{"model", "app"}))
	fmt.Println(annotations.CheckVisibility([]string{"user"}))
	// Output:
	// <nil>
	// visibility takes model and app, not "user"
}
