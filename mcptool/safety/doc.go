// Package safety holds helpers tool authors reuse to follow the MCP
// specification's security advice: file access confined to a directory
// ([Root], on os.Root: no "..", no symlink escape), programs run without a
// shell from an allowlist, each with an argument policy ([Program]: the
// options it accepts, which arguments are paths) whose paths are resolved in
// a Root, with a timeout and an output cap ([Runner]), and
// URLs checked against a scheme allowlist and, optionally, refused when they
// reach loopback or private addresses ([URLPolicy], checked again when the
// connection is made, so DNS rebinding does not get around it).
//
// Errors that describe the caller's input (a path outside the root, a
// program not on the list) are marked with mcptool.UserError, so a tool can
// return them as they are and the model reads them.
package safety
