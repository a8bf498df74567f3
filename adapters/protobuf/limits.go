package mcpproto

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Limits bounds what the calls of [Front] may cost the MCP server, whatever
// the fronted server does: answer never, answer a response whose decoding
// costs far more memory than its bytes on the wire (a list of a million
// empty strings is 2 bytes an element on the wire and some 40 in memory,
// before it is encoded again as JSON), or answer many calls at once. A call
// that meets a bound ends with an isError result that names it. A zero
// field takes its default; a negative one means no bound.
type Limits struct {
	// Timeout bounds each call to the server, from sending the request to
	// reading the response. Default 30s.
	Timeout time.Duration
	// MaxResponseBytes bounds a response's size on the wire. Default 4 MiB
	// (gRPC's own default).
	MaxResponseBytes int
	// MaxResponseValues bounds the values a response holds, counted on the
	// wire before it is decoded: every field, every element of a repeated
	// field (packed ones too) and every map entry counts one, at any depth.
	// Default 100,000.
	MaxResponseValues int
	// MaxInFlight caps the calls to the server running at once, over all
	// the methods one Front registered; a call over the cap is refused
	// with a result asking to retry. Default 32.
	MaxInFlight int
}

// defaultLimits are the [Limits] of [Front] when no [WithLimits] changes
// them, as their doc comments say.
var defaultLimits = Limits{Timeout: 30 * time.Second, MaxResponseBytes: 4 << 20, MaxResponseValues: 100_000, MaxInFlight: 32}

// WithLimits sets the bounds of the fronted calls: its non-zero fields
// replace the defaults.
func WithLimits(l Limits) FrontOption {
	return func(c *frontConfig) {
		if l.Timeout != 0 {
			c.limits.Timeout = l.Timeout
		}
		if l.MaxResponseBytes != 0 {
			c.limits.MaxResponseBytes = l.MaxResponseBytes
		}
		if l.MaxResponseValues != 0 {
			c.limits.MaxResponseValues = l.MaxResponseValues
		}
		if l.MaxInFlight != 0 {
			c.limits.MaxInFlight = l.MaxInFlight
		}
	}
}

// frontCalls is what the methods of one Front share: their limits and the
// slots of the calls in flight.
type frontCalls struct {
	limits Limits
	slots  chan struct{} // nil without a cap
}

func newFrontCalls(l Limits) *frontCalls {
	fc := &frontCalls{limits: l}
	if l.MaxInFlight > 0 {
		fc.slots = make(chan struct{}, l.MaxInFlight)
	}
	return fc
}

// invoke sends one call of method (its output described by out) within the
// limits; an error is the server's status, the caller's context error, or
// a user error naming the bound the call met.
func (fc *frontCalls) invoke(ctx context.Context, conn grpc.ClientConnInterface, method string, out protoreflect.MessageDescriptor, req, resp proto.Message) error {
	l := fc.limits
	name := strings.TrimPrefix(method, "/")
	if fc.slots != nil {
		select {
		case fc.slots <- struct{}{}:
			defer func() { <-fc.slots }()
		default:
			return mcptool.Errorf("%s: the server is already answering %d calls (mcpproto.Limits.MaxInFlight): retry in a moment", name, l.MaxInFlight)
		}
	}
	callCtx := ctx
	if l.Timeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, l.Timeout)
		defer cancel()
	}
	codec := &boundedCodec{max: l.MaxResponseValues, out: out}
	opts := []grpc.CallOption{grpc.ForceCodecV2(codec)}
	if l.MaxResponseBytes > 0 {
		opts = append(opts, grpc.MaxCallRecvMsgSize(l.MaxResponseBytes))
	}
	err := conn.Invoke(callCtx, method, req, resp, opts...)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err() // the caller's cancellation, not the server's answer
	case codec.over:
		return mcptool.Errorf("%s: the server's response holds more than %d values (mcpproto.Limits.MaxResponseValues)", name, l.MaxResponseValues)
	case callCtx.Err() != nil || passed(callCtx):
		return mcptool.Errorf("%s: the server did not answer within %s (mcpproto.Limits.Timeout)", name, l.Timeout)
	}
	if s, ok := status.FromError(err); ok && s.Code() == codes.ResourceExhausted && l.MaxResponseBytes > 0 &&
		strings.HasPrefix(s.Message(), "grpc: received message") && strings.Contains(s.Message(), "larger than max") {
		return mcptool.Errorf("%s: the server's response is larger than %d bytes (mcpproto.Limits.MaxResponseBytes)", name, l.MaxResponseBytes)
	}
	return err
}

// passed reports whether ctx's deadline has passed, which gRPC may see (and
// answer DeadlineExceeded for, the server having cut the stream) a moment
// before ctx's timer sets ctx.Err.
func passed(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !d.After(time.Now())
}

// boundedCodec is gRPC's protobuf codec, but that it counts the values of
// a response on the wire before decoding it, and refuses one with more
// than max.
type boundedCodec struct {
	max  int
	out  protoreflect.MessageDescriptor
	over bool
}

var protoCodec = encoding.GetCodecV2("proto")

func (c *boundedCodec) Name() string { return protoCodec.Name() }

func (c *boundedCodec) Marshal(v any) (mem.BufferSlice, error) { return protoCodec.Marshal(v) }

func (c *boundedCodec) Unmarshal(data mem.BufferSlice, v any) error {
	if c.max <= 0 {
		return protoCodec.Unmarshal(data, v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	left := c.max
	if err := countValues(buf.ReadOnlyData(), c.out, &left, 0); err != nil {
		c.over = true
		return err
	}
	m, ok := v.(proto.Message)
	if !ok {
		return fmt.Errorf("mcpproto: cannot decode into %T", v)
	}
	return proto.Unmarshal(buf.ReadOnlyData(), m)
}

// errTooManyValues stops countValues.
var errTooManyValues = fmt.Errorf("too many values")

// countValues counts the values of the message md encoded in b against
// *left: every field on the wire, every element of a packed repeated
// field, and the values inside every message (map entries included).
func countValues(b []byte, md protoreflect.MessageDescriptor, left *int, depth int) error {
	if depth > 10_000 { // protobuf's own recursion limit
		return errTooManyValues
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil // malformed: proto.Unmarshal says so
		}
		b = b[n:]
		if *left--; *left < 0 {
			return errTooManyValues
		}
		var fd protoreflect.FieldDescriptor
		if md != nil {
			fd = md.Fields().ByNumber(num)
		}
		if typ != protowire.BytesType || fd == nil {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return nil
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil
		}
		b = b[n:]
		switch fd.Kind() {
		case protoreflect.MessageKind:
			if err := countValues(v, fd.Message(), left, depth+1); err != nil {
				return err
			}
		case protoreflect.StringKind, protoreflect.BytesKind:
		default: // a packed repeated scalar
			if *left -= packedLen(v, fd.Kind()) - 1; *left < 0 {
				return errTooManyValues
			}
		}
	}
	return nil
}

// packedLen is the number of elements of a packed field of kind k.
func packedLen(v []byte, k protoreflect.Kind) int {
	switch k {
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return len(v) / 4
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return len(v) / 8
	}
	n := 0
	for _, c := range v {
		if c < 0x80 {
			n++
		}
	}
	return n
}
