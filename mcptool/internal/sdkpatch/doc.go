// Package sdkpatch holds what mcptool does because go-sdk v1.8.0 drops or
// mishandles something, and nothing else. Each patch names the go-sdk
// behaviour it depends on, has a test that pins that behaviour (so that a
// go-sdk upgrade that changes it fails a test, not a user), and says which
// upstream change would retire it (in its file's comment):
//
//   - WithResultType: the resultType of a tools/call result served from
//     middleware (go-sdk sets it only for its own tools;
//     TestWithResultTypeCopiesEveryField);
//   - ToolsChanged: notifications/tools/list_changed for tools go-sdk does
//     not hold (a placeholder tool in and out; TestToolsChangedNotifies);
//   - Notify and Unwrap: a notification go-sdk cannot send (the tasks
//     extension's), wrapped in a progress notification for the stdio
//     connection to unwrap (TestNotifyThroughProgress);
//   - SameHeader: the calls of one POST to go-sdk's stateful HTTP handler,
//     found by the header map go-sdk hands their handlers, for mcptool to
//     cancel when their client goes away, which go-sdk does not do
//     (TestStatefulCallOutlivesItsRequest);
//   - LiftParam, SetMeta and DropMeta: params go-sdk drops (the 2025-11-25
//     task of tools/call, the taskIds of subscriptions/listen), carried in
//     _meta, which it keeps (TestGoSDKDropsWhatTransportsCarry);
//   - WithCapability and WithToolField: result members go-sdk has no field
//     for (capabilities.tasks, a tool's execution), added to its JSON
//     (TestGoSDKLacksResultFields, TestGoSDKSendsMiddlewareResults);
//   - WithTokenInfo: the verified TokenInfo handed to go-sdk's handler
//     without its bearer check, which refused a token inside the
//     verifier's leeway with a bare 401 (TestWithTokenInfoNeverRefuses);
//   - Drop: a notification kept from some sessions (the
//     resources/list_changed go-sdk sends everyone when a view's page comes
//     or goes, which clients without the extension do not see;
//     TestDropKeepsANotification);
//   - MethodNotFound and ResponseCode: a -32601 whose message go-sdk would
//     replace, and a JSON-RPC code for the errors go-sdk sends with code 0
//     (TestGoSDKErrorWording);
//   - DecodeMessage: go-sdk's DecodeMessage without the 32 KB decoder
//     buffer it allocates twice per message, which brought a garbage
//     collection to most stdio cold starts' first answer
//     (TestDecodeMessageAsGoSDK, FuzzDecodeMessageAsGoSDK).
//
// TestGoSDKDropsDuplicateCallID pins one more, whose code is the stdio
// transport's own bookkeeping of the calls in flight (mcptool's
// stdio.go, inFlight): go-sdk drops a call whose id is in flight unanswered.
//
// The patches know nothing of mcptool's types. Everything else mcptool
// does with go-sdk goes through go-sdk's public API as go-sdk documents it.
package sdkpatch
