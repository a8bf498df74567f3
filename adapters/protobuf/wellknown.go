package mcpproto

import (
	"github.com/invopop/jsonschema"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// wellKnown returns the schema maker of a well-known type with a JSON form
// of its own (protojson's), nil for any other message.
//
//   - Timestamp: an RFC 3339 date-time string ("2026-07-28T10:00:00Z"),
//     years 0001 to 9999;
//   - Duration: seconds with up to nine fractional digits and an "s"
//     ("1.5s", "-3s");
//   - Struct: any JSON object; Value: any JSON; ListValue: any JSON array;
//   - the wrappers (StringValue, Int64Value, ...): the wrapped value's JSON
//     (null is the field unset);
//   - FieldMask: its paths in lowerCamelCase, joined by commas
//     ("title,authors");
//   - Empty: {};
//   - Any: an object whose "@type" names the message type
//     ("type.googleapis.com/pkg.Message"), with that message's fields (or,
//     for a well-known type, a "value" member holding its JSON). Decoding it
//     needs the named type linked into the program; the schema cannot say
//     which types those are.
func wellKnown(md protoreflect.MessageDescriptor) func(output bool) *jsonschema.Schema {
	if md.ParentFile() == nil || md.ParentFile().Package() != "google.protobuf" {
		return nil
	}
	switch md.Name() {
	case "Timestamp":
		return func(bool) *jsonschema.Schema {
			return &jsonschema.Schema{Type: "string", Format: "date-time",
				Pattern: `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$`}
		}
	case "Duration":
		return func(bool) *jsonschema.Schema {
			return &jsonschema.Schema{Type: "string", Pattern: `^-?[0-9]+(\.[0-9]{1,9})?s$`}
		}
	case "Struct":
		return func(bool) *jsonschema.Schema { return &jsonschema.Schema{Type: "object"} }
	case "Value":
		return func(bool) *jsonschema.Schema { return &jsonschema.Schema{Extras: map[string]any{}} }
	case "ListValue":
		return func(bool) *jsonschema.Schema { return &jsonschema.Schema{Type: "array"} }
	case "FieldMask":
		return func(bool) *jsonschema.Schema {
			return &jsonschema.Schema{Type: "string", Pattern: `^([A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*(,[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*)*)?$`}
		}
	case "Empty":
		return func(bool) *jsonschema.Schema {
			return &jsonschema.Schema{Type: "object", AdditionalProperties: jsonschema.FalseSchema}
		}
	case "Any":
		return func(bool) *jsonschema.Schema {
			p := jsonschema.NewProperties()
			p.Set("@type", &jsonschema.Schema{Type: "string", Description: "The message type, e.g. type.googleapis.com/google.protobuf.Duration."})
			return &jsonschema.Schema{Type: "object", Properties: p, Required: []string{"@type"},
				Description: "Any message: \"@type\" names its type; its fields follow (a well-known type's JSON goes in \"value\")."}
		}
	case "DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value", "BoolValue", "StringValue", "BytesValue":
		return func(output bool) *jsonschema.Schema { return scalarSchema(md.Fields().ByName("value").Kind(), output) }
	}
	return nil
}
