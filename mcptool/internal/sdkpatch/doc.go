// Package sdkpatch holds what mcptool does because go-sdk v1.8.0 drops or
// mishandles something, and nothing else. Each patch names the go-sdk
// behaviour it depends on, has a test that pins that behaviour (so that a
// go-sdk upgrade that changes it fails a test, not a user), and says which
// upstream change would retire it.
//
// Everything else mcptool does with go-sdk goes through go-sdk's public API
// as go-sdk documents it.
package sdkpatch
