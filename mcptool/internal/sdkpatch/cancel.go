package sdkpatch

import (
	"net/http"
	"reflect"
)

// Cancelling the calls of a 2025-era client that went away. go-sdk v1.8.0's
// stateful streamable HTTP handler runs a call on its session's context,
// not on the context of the POST that carried it: when that request ends
// early (the client dropped the connection) the call runs on, and closing
// the session waits for its calls to return. mcptool's registry keeps a
// cancel func for each call on a session and cancels them itself, those of
// one POST found by the header go-sdk hands their handler: a call's
// RequestExtra.Header is the header map of the POST that carried it, the
// same map, not a copy (TestStatefulCallOutlivesItsRequest).
//
// Retire when go-sdk cancels a call whose request ends early (as its
// stateless handler does with PropagateRequestCancellation) and the calls
// of a session it closes.

// SameHeader reports whether a and b are one header map (not two equal
// ones): whether a call whose RequestExtra.Header is a was carried by the
// HTTP request whose Header is b. Two nil headers are not the same.
func SameHeader(a, b http.Header) bool {
	return a != nil && b != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
