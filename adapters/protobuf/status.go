package mcpproto

import (
	"errors"

	"connectrpc.com/connect"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// shownCodes are the status codes whose message the model reads, as
// "NotFound: no order ord-99": what the caller asked for was wrong, is not
// there, is not allowed, or cannot be done now, and the message says so
// to the one who can change the call. The codes not listed — Internal,
// Unknown, DataLoss — say the server failed: their message is for its
// operators, and the model reads "internal error (ref …)" while the error
// goes to the registry's log. Unavailable is shown by its code alone: its
// message is often the transport's (an address that did not answer).
var shownCodes = map[codes.Code]bool{
	codes.InvalidArgument:    true,
	codes.NotFound:           true,
	codes.AlreadyExists:      true,
	codes.PermissionDenied:   true,
	codes.FailedPrecondition: true,
	codes.OutOfRange:         true,
	codes.Unauthenticated:    true,
	codes.ResourceExhausted:  true,
	codes.Aborted:            true,
	codes.Unimplemented:      true,
	codes.DeadlineExceeded:   true,
	codes.Canceled:           true,
	codes.Unavailable:        true,
}

// statusText is the one mapping of a gRPC or Connect status error to what
// the model reads, for the methods of an implementation (AddMethods,
// AddService) and of a fronted server (Front) alike: the code's gRPC name
// and the message for a code in shownCodes, and false for any other error.
func statusText(err error) (string, bool) {
	var code codes.Code
	var msg string
	var ce *connect.Error
	if errors.As(err, &ce) {
		code, msg = codes.Code(ce.Code()), ce.Message()
	} else if s, ok := status.FromError(err); ok && s != nil {
		code, msg = s.Code(), s.Message()
	} else {
		return "", false
	}
	switch {
	case !shownCodes[code]:
		return "", false
	case code == codes.Unavailable:
		return "Unavailable: the service cannot be reached now; try again later", true
	case msg == "":
		return code.String(), true
	}
	return code.String() + ": " + msg, true
}

// ErrorText makes h an [mcpreflect.ErrorTexter]: a status error of a
// method whose argument is a protobuf message reaches the model as
// statusText says.
//
// [mcpreflect.ErrorTexter]: https://pkg.go.dev/github.com/mcpgen/mcpgen/reflect#ErrorTexter
func (h *handler) ErrorText(err error) (string, bool) { return statusText(err) }
