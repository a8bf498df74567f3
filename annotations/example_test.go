package annotations_test

import (
	"encoding/json"
	"errors"
	"fmt"

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

func ExampleHints_Set() {
	var h annotations.Hints
	items, _ := annotations.ParseTag("title=Delete page,destructive,idempotent=true,openWorld=false")
	for _, it := range items {
		if err := h.Set(it); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(h.Title, *h.Destructive, *h.Idempotent, *h.OpenWorld, h.ReadOnly == nil)

	// Values must be booleans, and keys hints.
	fmt.Println(h.Set(annotations.Item{Key: "readOnly", Value: "yes", HasValue: true}))
	fmt.Println(h.Set(annotations.Item{Key: "timeout", Value: "5s", HasValue: true}))
	// Output:
	// Delete page true true false true
	// readOnly=yes: value must be true or false
	// unknown hint "timeout"
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

func ExampleHints_Annotations() {
	for _, h := range []annotations.Hints{
		{},
		{Title: "List files", ReadOnly: annotations.Bool(true), OpenWorld: annotations.Bool(false)},
	} {
		b, _ := json.Marshal(h.Annotations())
		fmt.Println(string(b))
	}
	// Output:
	// {"destructiveHint":true,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false}
	// {"idempotentHint":false,"openWorldHint":false,"readOnlyHint":true,"title":"List files"}
}

func ExampleIsHintKey() {
	for _, k := range []string{"readOnly", "readonly", "timeout"} {
		fmt.Println(k, annotations.IsHintKey(k))
	}
	// Output:
	// readOnly true
	// readonly false
	// timeout false
}

func ExampleSuggest() {
	for _, k := range []string{"readonly", "idempotnet", "titel", "rate"} {
		fmt.Printf("%s -> %q\n", k, annotations.Suggest(k, annotations.HintKeys))
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
