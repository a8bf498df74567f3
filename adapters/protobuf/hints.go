package mcpproto

import (
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/mcpgen/mcpgen/mcptool"
)

// methodHints reads the MCP hints a method's descriptor gives: protobuf's
// own idempotency_level option, which gRPC and Connect use for retries and
// GET requests, says as much as MCP's hints do —
//
//	rpc GetBook(GetBookRequest) returns (Book) {
//	  option idempotency_level = NO_SIDE_EFFECTS; // readOnlyHint
//	}
//	rpc DeleteBook(DeleteBookRequest) returns (google.protobuf.Empty) {
//	  option idempotency_level = IDEMPOTENT;      // idempotentHint
//	}
//
// Options given to AddService or Front for the method win over these.
func methodHints(md protoreflect.MethodDescriptor) []mcptool.Option {
	opts, _ := md.Options().(*descriptorpb.MethodOptions)
	switch opts.GetIdempotencyLevel() {
	case descriptorpb.MethodOptions_NO_SIDE_EFFECTS:
		return []mcptool.Option{mcptool.ReadOnly(true)}
	case descriptorpb.MethodOptions_IDEMPOTENT:
		return []mcptool.Option{mcptool.Idempotent(true)}
	}
	return nil
}
