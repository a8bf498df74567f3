// Package doccheck holds the test that compiles every fenced Go block of
// README.md, CHANGELOG.md and docs/*.md, so that no snippet drifts from the
// API.
//
// A block is one of:
//
//   - a complete program (it starts with "package main"): built and run,
//     with no input, and it must exit 0 within 30 seconds — or, marked
//     ```go norun, only built: a program that needs what a test run has
//     not (an authorization server on the internet, the user's files);
//   - a file of another package (a package clause, not main): compiled;
//   - a test file (its package ends in _test, or it declares a TestXxx
//     function after a package clause): run with go test;
//   - a fragment, marked in its info string: ```go fragment (GitHub still
//     highlights it as Go). A fragment is compiled inside a wrapper — as
//     top-level declarations, as struct fields, or as statements in a
//     function, whichever parses — with the imports its qualified names
//     need. Names the fragment uses without declaring (reg, ctx, a type of
//     the surrounding text) are allowed; everything else must compile:
//     every qualified name must exist and every call must type-check
//     against what its arguments are known to be. "{ ... }" and a line of
//     "..." stand for elided code.
//
// An unmarked block that is not a complete program or test fails the test.
package doccheck
