package library

//go:generate go run github.com/mcpgen/mcpgen/adapters/protobuf/cmd/protogen -grpc=false

import _ "embed"

// descriptors is library.proto's descriptor set with its comments, written
// by protogen: they become the tools' and fields' descriptions.
//
//go:embed descriptors.binpb
var descriptors []byte
