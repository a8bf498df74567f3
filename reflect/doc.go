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
// [Cache.Plan] walks an argument struct once: the json, jsonschema, validate
// and mcp tags of every field become schema keywords, and the keywords of the
// final, published schema are compiled into the checks [Plan.Decode] runs.
// What the schema forbids, the decoder rejects; what it allows, the decoder
// accepts. Validator rules that JSON Schema cannot say (startswith, eqfield,
// ...) run after decoding through github.com/go-playground/validator/v10
// ([Validator]). [Cache.Output] compiles a result type into an [Output].
// Plans are cached by type, in [DefaultCache] unless a caller keeps its own
// [Cache], so registering a type twice costs a map lookup.
//
// A bad tag is a [*DefinitionError] naming the Go type, the field and the
// tag; a type with several reports them all. A bad call is a
// [*ArgumentsError] listing every offending argument path and the rule it
// broke, all at once.
//
// # Types of other type systems
//
// A [TypeHandler] given in [Options].Types describes, decodes and encodes
// the argument and result types it owns instead of this package's
// reflection: the protobuf adapter's handler owns every proto.Message. A
// protobuf message met without one is a [*DefinitionError] naming the
// option that handles it.
//
// # Generated code
//
// cmd/mcpgen writes, per package, a file whose init calls
// [RegisterGenerated] with the package's doc comments (which become
// descriptions, see [FuncDoc] and [MethodDoc]) and a [GeneratedType] per
// argument and result type: the plans precomputed, so registration reads no
// tag. generated.go holds this runtime; [DumpGenerated] is what the
// generator runs to write it.
package mcpreflect
