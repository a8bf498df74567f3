// Package mcpproto makes protobuf messages, and the gRPC and Connect
// services built on them, MCP tools: a registry made with
// mcptool.NewRegistry(mcpproto.Types()) describes, decodes and encodes every
// proto.Message argument and result from its descriptor, so that
// Registry.AddMethods works unchanged on a gRPC server implementation
// (func (s *S) GetBook(ctx, *pb.GetBookRequest) (*pb.Book, error)) or a
// Connect handler implementation (*connect.Request[T] / *connect.Response[T]).
//
// # Schemas
//
// The input and output schemas say what protojson reads and writes:
// properties by JSON name only (protojson reads the original .proto names
// too; a call that uses one is refused, naming the JSON name, so that what
// the schema says is what is taken), null for an unset field, enums by
// value name or number, numbers as JSON numbers or strings ("14", "NaN"),
// each an anyOf branch of one type (never a type array, which some clients
// reject), a oneof's members mutually exclusive (one subschema per oneof),
// maps as objects, and the well-known
// types in their JSON forms (see wellknown.go: Timestamp as an RFC 3339
// string, Duration as "1.5s", Struct/Value/ListValue as JSON, wrappers as
// their value, FieldMask as its string, Empty as {}, Any as an object with
// "@type"). A recursive message is described once in "$defs".
//
// # Validation
//
// Arguments are decoded with protojson (unknown fields refused) and
// checked by protovalidate (buf.build/go/protovalidate), every rule, CEL
// included; violations are reported as mcpgen reports any, by JSON path:
// "invalid arguments:\n- bookId: value does not match regex pattern ...".
// protovalidate's standard rules are mirrored into the input schema where
// JSON Schema can say them (rules.go lists what is not).
//
// # Descriptions
//
// Generated Go code does not carry the .proto comments; a descriptor set
// written by protoc --include_source_info does (cmd/protogen writes one,
// descriptors.binpb, to embed with go:embed). Given to [SourceInfo], its
// comments of messages and fields describe the schemas (with AddMethods,
// AddService and Front alike); given to [Described], its rpc comments
// describe the tools [AddService] registers. AddMethods' tools are
// described by options (mcptool.Method(name, mcptool.Description(…))) or
// by the Go methods' doc comments (cmd/mcpgen).
package mcpproto
