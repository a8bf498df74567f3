package mcpproto

import (
	"fmt"
	"reflect"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mcpgen/mcpgen/mcptool"
)

// AddService registers the unary methods of the service sd that impl
// implements as tools, as [mcptool.Registry.AddMethods] does (named in
// snake_case, options by Go method name), for when the Go type alone does
// not lead to the service: impl may implement several services, or one in
// part. Each tool is described by its method's .proto comment when sd
// carries source info — a descriptor from protodesc.NewFiles over a
// descriptor set written by protoc --include_source_info does; one from
// generated Go code does not — unless an option describes it. The
// method's idempotency_level option gives its hints (NO_SIDE_EFFECTS:
// read-only; IDEMPOTENT: idempotent). Streaming methods are skipped. The registry must have been made with [Types].
func AddService(reg *mcptool.Registry, sd protoreflect.ServiceDescriptor, impl any, opts ...mcptool.MethodsOption) error {
	t := reflect.TypeOf(impl)
	if t == nil {
		return fmt.Errorf("mcpproto.AddService(%s): nil implementation", sd.FullName())
	}
	var include []string
	var described []mcptool.MethodsOption
	methods := sd.Methods()
	for i := 0; i < methods.Len(); i++ {
		md := methods.Get(i)
		if md.IsStreamingClient() || md.IsStreamingServer() {
			continue
		}
		name := string(md.Name())
		if _, ok := t.MethodByName(name); !ok {
			return fmt.Errorf("mcpproto.AddService(%s): %s has no method %s", sd.FullName(), t, name)
		}
		include = append(include, name)
		if h := methodHints(md); h != nil {
			described = append(described, mcptool.Method(name, h...))
		}
		if loc := md.ParentFile().SourceLocations().ByDescriptor(md); loc.LeadingComments != "" || loc.TrailingComments != "" {
			described = append(described, mcptool.Method(name, mcptool.Description(comment(loc.LeadingComments, loc.TrailingComments))))
		}
	}
	if len(include) == 0 {
		return fmt.Errorf("mcpproto.AddService(%s): no unary method", sd.FullName())
	}
	all := append([]mcptool.MethodsOption{mcptool.Include(include...)}, described...)
	return reg.AddMethods(impl, append(all, opts...)...)
}
