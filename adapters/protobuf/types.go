package mcpproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"buf.build/go/protovalidate"
	"github.com/invopop/jsonschema"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Option configures [Types].
type Option func(*handler)

// SourceInfo gives the .proto comments of descriptor sets written with
// protoc --include_source_info (serialized google.protobuf.FileDescriptorSet
// messages, such as the descriptors.binpb cmd/protogen writes, embedded
// with go:embed): the comments of messages and fields become the
// descriptions of their schemas. Generated Go code does not carry
// comments; descriptors that do (protoreflect's SourceLocations) are read
// without it. The tools' descriptions from rpc comments: [Described].
func SourceInfo(sets ...[]byte) Option {
	return func(h *handler) {
		for _, s := range sets {
			if err := h.docs.addSet(s); err != nil {
				h.err = errors.Join(h.err, fmt.Errorf("mcpproto.SourceInfo: %w", err))
			}
		}
	}
}

// Types is the registry option that makes protobuf messages tools'
// arguments and results, described, decoded and encoded the protobuf way:
//
//	reg := mcptool.NewRegistry(mcpproto.Types())
//	err := reg.AddMethods(&libraryServer{}) // a gRPC or Connect service implementation
//
// Every argument or result type that is a proto.Message (or a connect-go
// *connect.Request[T] / *connect.Response[T] of one) gets the JSON Schema of
// its descriptor, as protojson reads and writes it, with protovalidate's
// standard rules mirrored where JSON Schema can say them; arguments are
// decoded with protojson (unknown fields refused) and then checked with
// protovalidate, every rule (CEL included); results are encoded with
// protojson as structuredContent.
func Types(opts ...Option) mcptool.RegistryOption {
	return mcptool.Types(newHandler(opts...))
}

// handler is the [mcpreflect.TypeHandler] of protobuf messages.
type handler struct {
	docs      *docs
	validator protovalidate.Validator
	err       error    // from the options, reported at registration
	infos     sync.Map // reflect.Type → *typeInfo
}

func newHandler(opts ...Option) *handler {
	h := &handler{docs: &docs{}}
	for _, o := range opts {
		o(h)
	}
	v, err := protovalidate.New()
	if err != nil {
		h.err = errors.Join(h.err, err)
	}
	h.validator = v
	return h
}

// typeInfo is what the handler knows of one Go type it owns.
type typeInfo struct {
	msg      reflect.Type // the message's pointer type, *pb.Book
	md       protoreflect.MessageDescriptor
	envelope bool // a connect.Request[M] or connect.Response[M]: the message is its Msg field

	once    sync.Once
	aliases [][]byte // the quoted .proto names that differ from the JSON names, in every message reachable

	mu     sync.Mutex // guards input and output, derived on first use
	input  *inputSchema
	output *jsonschema.Schema
}

var messageType = reflect.TypeFor[proto.Message]()

// info returns what t is to the handler, nil when it is not its.
func (h *handler) info(t reflect.Type) *typeInfo {
	if i, ok := h.infos.Load(t); ok {
		return i.(*typeInfo)
	}
	ti := classify(t)
	if ti == nil {
		return nil
	}
	i, _ := h.infos.LoadOrStore(t, ti)
	return i.(*typeInfo)
}

func classify(t reflect.Type) *typeInfo {
	base := t
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if base.Kind() != reflect.Struct {
		return nil
	}
	if p := reflect.PointerTo(base); p.Implements(messageType) {
		return &typeInfo{msg: p, md: reflect.Zero(p).Interface().(proto.Message).ProtoReflect().Descriptor()}
	}
	if base.NumField() == 1 && base.Field(0).Type == dynamicType && base.Name() == "" {
		// A fronted method's argument or result (front.go).
		md, err := remoteDescriptor(base)
		if err != nil {
			return nil
		}
		return &typeInfo{msg: dynamicType, md: md, envelope: true}
	}
	if base.PkgPath() == "connectrpc.com/connect" && (strings.HasPrefix(base.Name(), "Request[") || strings.HasPrefix(base.Name(), "Response[")) {
		if f, ok := base.FieldByName("Msg"); ok && f.Type.Kind() == reflect.Pointer && f.Type.Implements(messageType) {
			return &typeInfo{msg: f.Type, md: reflect.Zero(f.Type).Interface().(proto.Message).ProtoReflect().Descriptor(), envelope: true}
		}
	}
	return nil
}

// Schema implements [mcpreflect.TypeHandler]: an argument struct type gets
// its input schema, with protovalidate's rules; a result type (a pointer)
// its output schema, without them (rules constrain what a client sends).
func (h *handler) Schema(t reflect.Type) (*jsonschema.Schema, error) {
	ti := h.info(t)
	if ti == nil {
		return nil, nil
	}
	if h.err != nil {
		return nil, h.err
	}
	if t.Kind() == reflect.Pointer {
		ti.mu.Lock()
		defer ti.mu.Unlock()
		if ti.output == nil {
			ti.output = newSchemaBuilder(ti.md, h.docs, h.validator, true).root(ti.md)
		}
		return ti.output, nil
	}
	in, err := h.inputOf(ti)
	if err != nil {
		return nil, err
	}
	return in.schema, nil
}

func (h *handler) inputOf(ti *typeInfo) (*inputSchema, error) {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	if ti.input != nil {
		return ti.input, nil
	}
	in, err := newInputSchema(ti.md, newSchemaBuilder(ti.md, h.docs, h.validator, false).root(ti.md))
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", ti.md.FullName(), err)
	}
	ti.input = in
	return in, nil
}

var unmarshal = protojson.UnmarshalOptions{}

// Decode implements [mcpreflect.TypeHandler]: protojson, then protovalidate.
func (h *handler) Decode(data []byte, dst any) error {
	rv := reflect.ValueOf(dst)
	ti := h.info(rv.Type().Elem())
	if ti == nil {
		return fmt.Errorf("mcpproto: %T is not a protobuf message", dst)
	}
	var m proto.Message
	if ti.envelope {
		var mv reflect.Value
		if ti.msg == dynamicType {
			mv = reflect.ValueOf(dynamicpb.NewMessage(ti.md))
		} else {
			mv = reflect.New(ti.msg.Elem())
		}
		rv.Elem().FieldByName("Msg").Set(mv)
		m = mv.Interface().(proto.Message)
	} else {
		m = dst.(proto.Message)
	}
	if ti.mayUseProtoNames(data) {
		// protojson reads a field by its .proto name too; the schema
		// publishes one spelling, the JSON name, and takes no other.
		in, serr := h.inputOf(ti)
		if serr != nil {
			return serr
		}
		if err := in.check(data); err != nil {
			return err
		}
	}
	if err := unmarshal.Unmarshal(data, m); err != nil {
		in, serr := h.inputOf(ti)
		if serr != nil {
			return serr
		}
		return in.violations(data, err)
	}
	if err := h.validator.Validate(m); err != nil {
		return validationViolations(ti.md, data, err)
	}
	return nil
}

var marshal = protojson.MarshalOptions{}

// Encode implements [mcpreflect.TypeHandler] with protojson.
func (h *handler) Encode(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct {
		if f := rv.Elem().FieldByName("Msg"); f.IsValid() && h.info(rv.Type()) != nil && h.info(rv.Type()).envelope {
			if f.IsNil() {
				return nil, errors.New("the tool returned a response without a message")
			}
			v = f.Interface()
		}
	}
	m, ok := v.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("mcpproto: %T is not a protobuf message", v)
	}
	b, err := marshal.Marshal(m)
	if err != nil {
		return nil, err
	}
	// protojson varies its whitespace from build to build on purpose: a
	// result is the same bytes every time.
	var out bytes.Buffer
	out.Grow(len(b))
	if err := json.Compact(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

var _ mcpreflect.TypeHandler = (*handler)(nil)
