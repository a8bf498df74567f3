// Package sdkpatch holds what mcptool does because go-sdk v1.8.0 drops or
// mishandles something, and nothing else. Each patch names the go-sdk
// behaviour it depends on, has a test that pins that behaviour (so that a
// go-sdk upgrade that changes it fails a test, not a user), and says which
// upstream change would retire it:
//
//   - WithResultType: the resultType of a tools/call result served from
//     middleware (go-sdk sets it only for its own tools);
//   - ToolsChanged: notifications/tools/list_changed for tools go-sdk does
//     not hold (a placeholder tool in and out);
//   - Notify and Unwrap: a notification go-sdk cannot send (the tasks
//     extension's), wrapped in a progress notification for the stdio
//     connection to unwrap;
//   - CancelledNotification: the cancel go-sdk's stateful HTTP handler does
//     not do when a call's client goes away.
//
// TestGoSDKDropsWhatTransportsCarry pins two more, whose code is mcptool's
// own because it reads mcptool's types: the 2025-11-25 task param of
// tools/call lifted into _meta (liftTaskParam) and the taskIds of
// subscriptions/listen handed to the task middleware (tasklisten.go).
//
// Everything else mcptool does with go-sdk goes through go-sdk's public API
// as go-sdk documents it.
package sdkpatch
