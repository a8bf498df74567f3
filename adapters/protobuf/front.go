package mcpproto

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"google.golang.org/grpc"
	grpcmd "google.golang.org/grpc/metadata"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/mcpgen/mcpgen/mcptool"
)

// FrontOption configures [Front].
type FrontOption func(*frontConfig)

type frontConfig struct {
	metadata func(ctx context.Context) map[string]string
	prefix   string
	services []string
	toolOpts map[string][]mcptool.Option
	limits   Limits
}

// Metadata sets the gRPC metadata each call to the server carries: md is
// asked on every call, with the call's context (mcptool's context
// helpers work in it), and what it returns is sent. It is the MCP
// server's own outbound credentials and context, e.g. an "authorization"
// with a token the MCP server holds for the gRPC server, or the caller's
// subject from mcptool.Caller. Never the MCP client's token: the MCP
// authorization specification forbids passing it through, and the
// request's Authorization, Cookie and Proxy-Authorization headers do not
// reach md (mcptool.Request shows the headers without them).
func Metadata(md func(ctx context.Context) map[string]string) FrontOption {
	return func(c *frontConfig) { c.metadata = md }
}

// ToolPrefix puts prefix before every tool name.
func ToolPrefix(prefix string) FrontOption { return func(c *frontConfig) { c.prefix = prefix } }

// Services fronts only the named services (full names, "pkg.Library").
func Services(names ...string) FrontOption {
	return func(c *frontConfig) { c.services = append(c.services, names...) }
}

// MethodOptions gives the tool of one method ("pkg.Library/GetBook") its
// own options: hints, policies, a description.
func MethodOptions(method string, opts ...mcptool.Option) FrontOption {
	return func(c *frontConfig) {
		if c.toolOpts == nil {
			c.toolOpts = map[string][]mcptool.Option{}
		}
		c.toolOpts[method] = append(c.toolOpts[method], opts...)
	}
}

// Front makes a running gRPC server's unary methods tools that call it,
// with no generated code: it asks the server's reflection service
// (grpc.reflection.v1) for its services and their descriptors, and
// registers each unary method on reg — which must have been made with
// [Types] — as a tool named in snake_case (Library.GetBook becomes
// get_book), with the same schemas and protovalidate checks as a local
// method. Each call decodes the arguments into a dynamicpb message, sends
// it with conn.Invoke and returns the response. Streaming methods
// and the reflection service itself are skipped.
//
// A status error of the server reaches the model as it would from a local
// implementation (see the package's README: NotFound and the other codes
// a caller can act on are shown, Internal, Unknown and DataLoss masked).
// The calls are bounded (a timeout, the size and the number of values of
// a response, the calls in flight): see [Limits] for the defaults, and
// [WithLimits].
//
// Each tool's group is its service's full name ([mcptool.Group];
// MethodOptions can give another).
func Front(ctx context.Context, reg *mcptool.Registry, conn grpc.ClientConnInterface, opts ...FrontOption) error {
	cfg := frontConfig{limits: defaultLimits}
	for _, o := range opts {
		o(&cfg)
	}
	calls := newFrontCalls(cfg.limits)
	files, services, err := reflectServices(ctx, conn)
	if err != nil {
		return fmt.Errorf("mcpproto.Front: %w", err)
	}
	added := 0
	for _, name := range services {
		if strings.HasPrefix(name, "grpc.reflection.") || (cfg.services != nil && !contains(cfg.services, name)) {
			continue
		}
		d, err := files.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			return fmt.Errorf("mcpproto.Front: service %s: %w", name, err)
		}
		sd, ok := d.(protoreflect.ServiceDescriptor)
		if !ok {
			return fmt.Errorf("mcpproto.Front: %s is not a service", name)
		}
		set := fileSet(sd.ParentFile())
		for i := 0; i < sd.Methods().Len(); i++ {
			md := sd.Methods().Get(i)
			if md.IsStreamingClient() || md.IsStreamingServer() {
				continue
			}
			fn := remoteMethod(conn, md, set, cfg.metadata, calls)
			topts := append([]mcptool.Option{mcptool.Group(name)}, methodHints(md)...)
			if loc := md.ParentFile().SourceLocations().ByDescriptor(md); loc.LeadingComments != "" {
				topts = append(topts, mcptool.Description(comment(loc.LeadingComments, loc.TrailingComments)))
			}
			key := name + "/" + string(md.Name())
			topts = append(topts, cfg.toolOpts[key]...)
			if err := reg.Add(cfg.prefix+snake(string(md.Name())), fn, topts...); err != nil {
				return fmt.Errorf("mcpproto.Front: %s: %w", key, err)
			}
			added++
		}
	}
	if added == 0 {
		return errors.New("mcpproto.Front: the server has no unary method to front")
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// snake turns a method name into a tool name: GetBook becomes get_book.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// remoteTag marks the Go type of a fronted method's argument or result: a
// struct whose Msg is a dynamicpb message, its descriptor carried by the
// field's tag (a serialized FileDescriptorSet and the message's name), so
// that the [Types] handler of any registry describes it with no state
// shared between them.
const remoteTag = "mcpproto"

var dynamicType = reflect.TypeFor[*dynamicpb.Message]()

// remoteType is the Go type standing for message md.
func remoteType(md protoreflect.MessageDescriptor, set []byte) reflect.Type {
	tag := base64.StdEncoding.EncodeToString(set) + "#" + string(md.FullName())
	return reflect.StructOf([]reflect.StructField{{Name: "Msg", Type: dynamicType, Tag: reflect.StructTag(remoteTag + `:"` + tag + `"`)}})
}

// remoteDescriptor reads back the descriptor of a remoteType.
func remoteDescriptor(t reflect.Type) (protoreflect.MessageDescriptor, error) {
	tag, ok := t.Field(0).Tag.Lookup(remoteTag)
	if !ok {
		return nil, errors.New("no descriptor")
	}
	enc, name, ok := strings.Cut(tag, "#")
	if !ok {
		return nil, errors.New("malformed descriptor tag")
	}
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return nil, err
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &set); err != nil {
		return nil, err
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, err
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(name))
	if err != nil {
		return nil, err
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a message", name)
	}
	return md, nil
}

// fileSet serializes f and everything it imports.
func fileSet(f protoreflect.FileDescriptor) []byte {
	var set descriptorpb.FileDescriptorSet
	seen := map[string]bool{}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			add(f.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(f))
	}
	add(f)
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(&set)
	return b
}

// remoteMethod is the tool function of one fronted method.
func remoteMethod(conn grpc.ClientConnInterface, md protoreflect.MethodDescriptor, set []byte, metadata func(context.Context) map[string]string, calls *frontCalls) any {
	in, out := remoteType(md.Input(), set), remoteType(md.Output(), set)
	fullMethod := "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
	ft := reflect.FuncOf([]reflect.Type{reflect.TypeFor[context.Context](), reflect.PointerTo(in)}, []reflect.Type{reflect.PointerTo(out), reflect.TypeFor[error]()}, false)
	outDesc := md.Output()
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		ctx := args[0].Interface().(context.Context)
		req := args[1].Elem().Field(0).Interface().(*dynamicpb.Message)
		if metadata != nil {
			ctx = withOutgoing(ctx, metadata(ctx))
		}
		resp := dynamicpb.NewMessage(outDesc)
		res := reflect.New(out)
		if err := calls.invoke(ctx, conn, fullMethod, outDesc, req, resp); err != nil {
			return []reflect.Value{res, reflect.ValueOf(err)}
		}
		res.Elem().Field(0).Set(reflect.ValueOf(resp))
		return []reflect.Value{res, reflect.Zero(reflect.TypeFor[error]())}
	}).Interface()
}

// reflectServices asks the server's reflection service for its services
// and the files that define them.
func reflectServices(ctx context.Context, conn grpc.ClientConnInterface) (*protoregistry.Files, []string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("reflection service: %w", err)
	}
	defer func() { _ = stream.CloseSend() }()
	ask := func(req *rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error) {
		if err := stream.Send(req); err != nil {
			return nil, fmt.Errorf("reflection service: %w", err)
		}
		resp, err := stream.Recv()
		if err != nil {
			return nil, fmt.Errorf("reflection service: %w", err)
		}
		if e := resp.GetErrorResponse(); e != nil {
			return nil, fmt.Errorf("reflection service: %s", e.GetErrorMessage())
		}
		return resp, nil
	}
	resp, err := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: "*"}})
	if err != nil {
		return nil, nil, err
	}
	var services []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		services = append(services, s.GetName())
	}
	protos := map[string]*descriptorpb.FileDescriptorProto{}
	addFiles := func(resp *rpb.ServerReflectionResponse) error {
		for _, b := range resp.GetFileDescriptorResponse().GetFileDescriptorProto() {
			var fd descriptorpb.FileDescriptorProto
			if err := proto.Unmarshal(b, &fd); err != nil {
				return err
			}
			protos[fd.GetName()] = &fd
		}
		return nil
	}
	for _, s := range services {
		if strings.HasPrefix(s, "grpc.reflection.") {
			continue
		}
		resp, err := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: s}})
		if err != nil {
			return nil, nil, err
		}
		if err := addFiles(resp); err != nil {
			return nil, nil, err
		}
	}
	// Ask for any import the server left out.
	for {
		var missing []string
		for _, fd := range protos {
			for _, dep := range fd.GetDependency() {
				if protos[dep] == nil {
					missing = append(missing, dep)
				}
			}
		}
		if len(missing) == 0 {
			break
		}
		for _, name := range missing {
			if protos[name] != nil {
				continue
			}
			resp, err := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileByFilename{FileByFilename: name}})
			if err != nil {
				return nil, nil, err
			}
			if err := addFiles(resp); err != nil {
				return nil, nil, err
			}
			if protos[name] == nil {
				return nil, nil, fmt.Errorf("reflection service: no file %s", name)
			}
		}
	}
	set := &descriptorpb.FileDescriptorSet{}
	for _, fd := range protos {
		set.File = append(set.File, fd)
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		return nil, nil, fmt.Errorf("the server's descriptors: %w", err)
	}
	return files, services, nil
}

// withOutgoing adds md to the outgoing gRPC metadata of ctx.
func withOutgoing(ctx context.Context, md map[string]string) context.Context {
	for k, v := range md {
		ctx = grpcmd.AppendToOutgoingContext(ctx, k, v)
	}
	return ctx
}
