package sdkpatch

import "encoding/json"

// Cancelling the calls of a 2025-era client that went away. go-sdk v1.8.0's
// stateful streamable HTTP handler runs a call on its session's context,
// not on the context of the POST that carried it: when that request ends
// early (the client dropped the connection) or the session is deleted, the
// call runs on. It does cancel a call on notifications/cancelled, so
// mcptool's HTTP handler sends the session the notification its client
// would have sent.
//
// Retire when go-sdk cancels a call whose request ends early (as its
// stateless handler does with PropagateRequestCancellation) and when it
// deletes its session.

// CancelledNotification is the notifications/cancelled message for the call
// with the JSON id, giving reason.
func CancelledNotification(id json.RawMessage, reason string) ([]byte, error) {
	return json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"method":  "notifications/cancelled",
		"params":  map[string]any{"requestId": id, "reason": reason},
	})
}
