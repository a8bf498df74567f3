package mcpproto

import (
	"fmt"
	"reflect"
	"slices"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/mcpgen/mcpgen/mcptool"
)

// AddService registers the unary methods of the service sd that impl
// implements as tools, as [mcptool.Registry.AddMethods] does (named in
// snake_case, options by Go method name), for when the Go type alone does
// not lead to the service (impl may implement several services, or one in
// part), or to describe each tool by its method's .proto comment. The
// comments are in sd when it carries source info: a descriptor from
// [Described] does, one from generated Go code does not. An option
// (mcptool.Method(name, mcptool.Description(…))) wins over the comment. The
// method's idempotency_level option gives its hints (NO_SIDE_EFFECTS:
// read-only; IDEMPOTENT: idempotent). Streaming methods are skipped, with a
// note in the registry's log when impl declares them. The
// registry must have been made with [Types]. Each tool's group is the
// service's full name (library.v1.Library), unless an option says otherwise.
func AddService(reg *mcptool.Registry, sd protoreflect.ServiceDescriptor, impl any, opts ...mcptool.MethodsOption) error {
	t := reflect.TypeOf(impl)
	if t == nil {
		return fmt.Errorf("mcpproto.AddService(%s): nil implementation", sd.FullName())
	}
	var include []string
	var described []mcptool.MethodsOption
	unary := 0
	methods := sd.Methods()
	for i := 0; i < methods.Len(); i++ {
		md := methods.Get(i)
		name := string(md.Name())
		if md.IsStreamingClient() || md.IsStreamingServer() {
			if _, ok := t.MethodByName(name); ok {
				include = append(include, name) // AddMethods skips it with a note in the log
			}
			continue
		}
		unary++
		if _, ok := t.MethodByName(name); !ok {
			return fmt.Errorf("mcpproto.AddService(%s): %s has no method %s", sd.FullName(), t, name)
		}
		include = append(include, name)
		described = append(described, mcptool.Method(name, mcptool.Group(string(sd.FullName()))))
		if h := methodHints(md); h != nil {
			described = append(described, mcptool.Method(name, h...))
		}
		if loc := md.ParentFile().SourceLocations().ByDescriptor(md); loc.LeadingComments != "" || loc.TrailingComments != "" {
			described = append(described, mcptool.Method(name, mcptool.Description(comment(loc.LeadingComments, loc.TrailingComments))))
		}
	}
	if unary == 0 {
		return fmt.Errorf("mcpproto.AddService(%s): no unary method", sd.FullName())
	}
	all := append([]mcptool.MethodsOption{mcptool.Include(include...)}, described...)
	return reg.AddMethods(impl, append(all, opts...)...)
}

// Described returns the service sd as the descriptor sets describe it,
// with their source info: the .proto comments, which [AddService] makes
// the tools' descriptions. Generated Go code carries no comments
// (protoc-gen-go leaves them out), so sd — typically from generated code,
// pb.File_library_proto.Services().ByName("Library") — is looked up by
// name in sets: serialized google.protobuf.FileDescriptorSet messages
// written by protoc --include_source_info (cmd/protogen writes one,
// descriptors.binpb, to embed), the same sets [SourceInfo] takes for the
// fields' descriptions. The files they import and do not hold come from
// the program's registry (protoregistry.GlobalFiles).
func Described(sd protoreflect.ServiceDescriptor, sets ...[]byte) (protoreflect.ServiceDescriptor, error) {
	var all descriptorpb.FileDescriptorSet
	have := map[string]bool{}
	for _, raw := range sets {
		var set descriptorpb.FileDescriptorSet
		if err := proto.Unmarshal(raw, &set); err != nil {
			return nil, fmt.Errorf("mcpproto.Described(%s): %w", sd.FullName(), err)
		}
		for _, f := range set.GetFile() {
			if !have[f.GetName()] {
				have[f.GetName()] = true
				all.File = append(all.File, f)
			}
		}
	}
	// The imports the sets do not hold, from the program's registry
	// (NewFiles takes the files in any order).
	var add func(path string)
	add = func(path string) {
		if have[path] {
			return
		}
		fd, err := protoregistry.GlobalFiles.FindFileByPath(path)
		if err != nil {
			return // NewFiles names it
		}
		have[path] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).Path())
		}
		all.File = append([]*descriptorpb.FileDescriptorProto{protodesc.ToFileDescriptorProto(fd)}, all.File...)
	}
	for _, f := range slices.Clone(all.File) {
		for _, dep := range f.GetDependency() {
			add(dep)
		}
	}
	files, err := protodesc.NewFiles(&all)
	if err != nil {
		return nil, fmt.Errorf("mcpproto.Described(%s): %w", sd.FullName(), err)
	}
	d, err := files.FindDescriptorByName(sd.FullName())
	if err != nil {
		return nil, fmt.Errorf("mcpproto.Described(%s): the descriptor sets have no such service", sd.FullName())
	}
	out, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("mcpproto.Described(%s): not a service in the descriptor sets", sd.FullName())
	}
	return out, nil
}
