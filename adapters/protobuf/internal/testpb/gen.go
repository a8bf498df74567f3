// Package testpb holds the messages and the service of mcpproto's tests,
// generated from its .proto files.
package testpb

//go:generate go run ../../cmd/protogen

import _ "embed"

// Descriptors is the descriptor set of this package's .proto files with
// their source info (their comments), written by protogen.
//
//go:embed descriptors.binpb
var Descriptors []byte
