// Package mcpreflect is mcpgen's reflection layer. It turns a Go function and
// its argument and result types into a compiled plan: the JSON Schema a
// client sees, and a decoder that checks each call's arguments against that
// same schema before the function runs.
//
// The package lives in the directory reflect/ but is named mcpreflect so it
// never shadows the standard library's reflect in code that imports both.
//
// # Plans
//
// [PlanFor] walks an argument struct once: the json, jsonschema, validate and
// mcp tags of every field become schema keywords, and the keywords of the
// final, published schema are compiled into the checks the decoder runs. What
// the schema forbids, the decoder rejects; what it allows, the decoder
// accepts. Validator rules that JSON Schema cannot say (startswith, eqfield,
// ...) run after decoding through github.com/go-playground/validator/v10.
// Plans are cached by type in a [Cache] ([DefaultCache] unless a caller
// keeps its own), so registering a type twice costs a map lookup. Plans
// generated ahead of time by cmd/mcpgen ([RegisterGenerated]) replace the
// reflection over tags.
//
// A bad tag is a [*DefinitionError] naming the Go type, the field and the tag.
// A bad call is a [*ArgumentsError] listing every offending argument path and
// the rule it broke, all at once.
package mcpreflect
