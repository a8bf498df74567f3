// Package browsertest loads the HTML tool catalogue (package
// mcptool/catalog) in headless Chromium: the demo's docs/tools.html, a page
// of hostile descriptions and one of 10,000 tools. Its tests type in the
// search box, take and check screenshots, run axe-core and time the search.
// It also renders the Markdown catalogue and mcpgen diff's report of
// hostile tools through a CommonMark renderer with GitHub's extensions
// (goldmark), raw HTML passed through, and checks that nothing of the
// tools' texts became markup.
//
// TestInspectorOAuth runs MCP Inspector's CLI against the demo with its
// development issuer and opens the authorization URL Inspector prints in
// the browser, as a user does: registration, authorization code with PKCE,
// the token, the tools, and the step-up after a 403; then Inspector's web
// UI, driven in the browser through the same login (docs/auth.md).
//
// It is a module of its own so that the core module does not depend on a
// browser driver (chromedp) or a Markdown renderer. The tests need the
// chromium program, the npm package axe-core, and for TestInspectorOAuth MCP Inspector
// ($MCPGEN_INSPECTOR) with Node 22.19 or later ($MCPGEN_NODE or PATH);
// ci.sh installs them all. Without them they skip, unless
// MCPGEN_REQUIRE_BROWSER=1, as in CI, makes them fail.
package browsertest
