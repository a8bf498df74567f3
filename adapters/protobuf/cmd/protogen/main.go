// Command protogen regenerates the Go code of a directory's .proto files
// with protoc (Debian's protobuf-compiler) and the plugins this module
// requires (protoc-gen-go, protoc-gen-go-grpc, protoc-gen-connect-go, at the
// versions of go.mod, built into a temporary directory), and writes
// descriptors.binpb: the files' descriptor set with source info, from which
// mcpproto reads the .proto comments (protoc-gen-go drops them).
//
// Imports of buf/validate/validate.proto come from the protovalidate Go
// module's compiled descriptor (its .proto is not in the module), handed to
// protoc with --descriptor_set_in.
//
// In this module: //go:generate go run ../../cmd/protogen. In another
// (the demo's), with -grpc=false when only messages are wanted:
//
//	//go:generate go run github.com/mcpgen/mcpgen/adapters/protobuf/cmd/protogen -grpc=false
//
// The module that runs it must require the plugins' modules
// (google.golang.org/protobuf; for -grpc also google.golang.org/grpc/cmd/protoc-gen-go-grpc
// and connectrpc.com/connect, e.g. as tool directives).
package main

import (
	"flag"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

var plugins = map[string]string{
	"protoc-gen-go":         "google.golang.org/protobuf/cmd/protoc-gen-go",
	"protoc-gen-go-grpc":    "google.golang.org/grpc/cmd/protoc-gen-go-grpc",
	"protoc-gen-connect-go": "connectrpc.com/connect/cmd/protoc-gen-connect-go",
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("protogen: ")
	grpcOut := flag.Bool("grpc", true, "generate gRPC and Connect service code")
	flag.Parse()
	protos, err := filepath.Glob("*.proto")
	if err != nil || len(protos) == 0 {
		log.Fatalf("no .proto files in the current directory")
	}
	tmp, err := os.MkdirTemp("", "protogen")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for name, pkg := range plugins {
		if name == "protoc-gen-go" || *grpcOut {
			run("go", "build", "-o", filepath.Join(tmp, name), pkg)
		}
	}
	deps := filepath.Join(tmp, "deps.binpb")
	writeDeps(deps, validate.File_buf_validate_validate_proto)

	args := []string{
		"--plugin=protoc-gen-go=" + filepath.Join(tmp, "protoc-gen-go"),
		"--go_out=.", "--go_opt=paths=source_relative",
		"--descriptor_set_in=" + deps,
		"-I.",
	}
	if *grpcOut {
		args = append(args,
			"--plugin=protoc-gen-go-grpc="+filepath.Join(tmp, "protoc-gen-go-grpc"),
			"--go-grpc_out=.", "--go-grpc_opt=paths=source_relative",
			"--plugin=protoc-gen-connect-go="+filepath.Join(tmp, "protoc-gen-connect-go"),
			"--connect-go_out=.", "--connect-go_opt=paths=source_relative")
	}
	run("protoc", append(args, protos...)...)
	// The descriptor set with source info, for the comments.
	run("protoc", append([]string{"--descriptor_set_in=" + deps, "-I.", "--include_source_info", "--descriptor_set_out=descriptors.binpb"}, protos...)...)
}

// writeDeps writes the descriptor set of fd and everything it imports.
func writeDeps(path string, fds ...protoreflect.FileDescriptor) {
	var set descriptorpb.FileDescriptorSet
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range fds {
		add(fd)
	}
	b, err := proto.Marshal(&set)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		log.Fatal(err)
	}
}

func run(name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
}
