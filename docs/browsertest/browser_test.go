package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolsHTML is the demo's catalogue, checked in (cmd/mcpgen-demo keeps it
// current).
const toolsHTML = "../tools.html"

// need returns the path of a program or file the browser tests need, or
// skips the test when it is absent, unless MCPGEN_REQUIRE_BROWSER=1 (CI)
// makes that a failure.
func need(t *testing.T, what, path, hint string) string {
	t.Helper()
	if path != "" {
		if _, err := os.Stat(path); err == nil {
			return path
		}
	}
	msg := fmt.Sprintf("%s not found (%s)", what, hint)
	if os.Getenv("MCPGEN_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + "; MCPGEN_REQUIRE_BROWSER=1 requires it")
	}
	t.Skip(msg + "; the browser tests are skipped (docs/browsertest/ci.sh installs what they need)")
	return ""
}

// chromium finds the browser: $MCPGEN_CHROMIUM, or chromium on PATH.
func chromium(t *testing.T) string {
	path := os.Getenv("MCPGEN_CHROMIUM")
	if path == "" {
		path, _ = exec.LookPath("chromium")
	}
	return need(t, "chromium", path, "apt-get install chromium, or set MCPGEN_CHROMIUM")
}

// axeSource reads axe-core: $MCPGEN_AXE_JS, or node_modules/axe-core.
func axeSource(t *testing.T) string {
	path := os.Getenv("MCPGEN_AXE_JS")
	if path == "" {
		path = filepath.Join("node_modules", "axe-core", "axe.min.js")
	}
	path = need(t, "axe-core", path, "npm install axe-core in docs/browsertest, or set MCPGEN_AXE_JS")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// startChromium starts a headless Chromium with a new profile, the options
// every test gives it and extra, and opens a tab: its context is returned,
// ended by timeout, by stop, or when the test ends.
func startChromium(t *testing.T, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) (tabCtx context.Context, stop context.CancelFunc) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
	)
	opts = append(opts, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	require.NoError(t, chromedp.Do(bctx)) // starts the browser and opens the tab
	return bctx, func() { bcancel(); acancel(); cancel() }
}

// tab is a browser tab on a page, with what the page did that a test checks.
type tab struct {
	ctx context.Context
	mu  sync.Mutex
	// fetched lists the requests for anything but the page itself.
	fetched []string
	// dialogs and exceptions are alert() calls and uncaught script errors.
	dialogs, exceptions []string
}

// open starts Chromium (a new profile, no network of its own) and loads the
// file at path, with the viewport width x height. A path may end in a
// #fragment, which is opened as a deep link into the page.
func open(t *testing.T, path string, width, height int64) *tab {
	t.Helper()
	path, fragment, _ := strings.Cut(path, "#")
	if fragment != "" {
		fragment = "#" + fragment
	}
	abs, err := filepath.Abs(path)
	require.NoError(t, err)
	bctx, _ := startChromium(t, 4*time.Minute,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(int(width), int(height)),
	)
	tb := &tab{ctx: bctx}
	url := "file://" + abs
	require.NoError(t, chromedp.Listen(bctx, func(ev any) {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			if ev.Request.URL != url {
				tb.fetched = append(tb.fetched, ev.Request.URL)
			}
		case *page.EventJavascriptDialogOpening:
			tb.dialogs = append(tb.dialogs, ev.Message)
			go chromedp.Call(bctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{}) //nolint:errcheck // the test fails on the dialog anyway
		case *runtime.EventExceptionThrown:
			tb.exceptions = append(tb.exceptions, ev.ExceptionDetails.Text)
		}
	}))
	_, err = chromedp.Call(bctx, network.Enable, network.EnableParams{})
	require.NoError(t, err)
	_, err = chromedp.Call(bctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: width, Height: height, DeviceScaleFactor: 1, Mobile: width < 600})
	require.NoError(t, err)
	tb.do(t, chromedp.Navigate(url+fragment), chromedp.WaitReady(chromedp.CSS("#q")))
	return tb
}

// do runs actions that return nothing.
func (tb *tab) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	require.NoError(t, chromedp.Do(tb.ctx, actions...))
}

// eval evaluates a script, awaiting a promise, into out.
func eval[T any](t *testing.T, tb *tab, js string) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	require.NoError(t, err, js)
	return v
}

// poll waits until the script is true, for at most a minute.
func (tb *tab) poll(t *testing.T, js string) {
	t.Helper()
	_, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(time.Minute)))
	require.NoError(t, err, js)
}

// scheme emulates prefers-color-scheme.
func (tb *tab) scheme(t *testing.T, scheme string) {
	t.Helper()
	_, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
	require.NoError(t, err)
}

// search replaces the search box's text by typing q.
func (tb *tab) search(t *testing.T, q string) {
	t.Helper()
	eval[bool](t, tb, `(q => { q.value = ""; q.dispatchEvent(new Event("input")); return true })(document.getElementById("q"))`)
	if q != "" {
		tb.do(t, chromedp.SendKeys(chromedp.CSS("#q"), q))
	}
}

// clean fails the test when the page fetched anything, opened a dialog or
// threw.
func (tb *tab) clean(t *testing.T) {
	t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	assert.Empty(t, tb.fetched, "the page loads nothing")
	assert.Empty(t, tb.dialogs, "no script of the catalogue runs")
	assert.Empty(t, tb.exceptions, "the page's script throws nothing")
}

// shown returns the names of the tools the page shows, in the index and as
// sections: those that are rendered (not display: none, not the skipped
// content of content-visibility: hidden, not visibility: hidden), whether
// or not they are scrolled into view.
func (tb *tab) shown(t *testing.T) (index, sections []string) {
	t.Helper()
	index = eval[[]string](t, tb, `[...document.querySelectorAll("#index li")].filter(e => e.checkVisibility({visibilityProperty: true})).map(e => e.querySelector("a").textContent)`)
	sections = eval[[]string](t, tb, `[...document.querySelectorAll("#tools section.tool")].filter(e => e.checkVisibility({visibilityProperty: true})).map(e => e.id.slice(5))`)
	return index, sections
}

// searchKeys reads each tool's search text from the page's source.
func searchKeys(t *testing.T, path string) map[string]string {
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	keys := map[string]string{}
	for _, m := range regexp.MustCompile(`<li data-search="([^"]*)"><a href="#tool-([^"]*)">`).FindAllSubmatch(src, -1) {
		keys[html.UnescapeString(string(m[2]))] = html.UnescapeString(string(m[1]))
	}
	return keys
}

func matching(keys map[string]string, query string) []string {
	var out []string
	for name, key := range keys {
		ok := true
		for _, w := range strings.Fields(strings.ToLower(query)) {
			ok = ok && strings.Contains(key, w)
		}
		if ok {
			out = append(out, name)
		}
	}
	return out
}

// overflow lists the elements that stick out of the viewport and are not
// inside a scrolling box (tables and code scroll in their own boxes).
const overflow = `(() => {
  const W = document.documentElement.clientWidth, bad = [];
  if (document.documentElement.scrollWidth > W) bad.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + W);
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= W + 1 || !el.checkVisibility({visibilityProperty: true})) continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") { clipped = true; break; }
    }
    if (!clipped) bad.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + " ends at " + Math.round(r.right) + " > " + W);
    if (bad.length >= 10) break;
  }
  return bad;
})()`

// screenshot takes a screenshot of the viewport, saves it (under
// $MCPGEN_SCREENSHOTS when set) and checks that it is not blank: many
// pixels differ from the background, in many colours.
func (tb *tab) screenshot(t *testing.T, name string) {
	t.Helper()
	buf, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	dir := os.Getenv("MCPGEN_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, name+".png")
	require.NoError(t, os.WriteFile(path, buf, 0o644))
	t.Logf("screenshot: %s", path)
	img, err := png.Decode(bytes.NewReader(buf))
	require.NoError(t, err)
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Max.Y-1)
	colors := map[[4]uint32]bool{}
	differ := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := img.At(x, y)
			r, g, bl, a := c.RGBA()
			colors[[4]uint32{r >> 8, g >> 8, bl >> 8, a >> 8}] = true
			if c != bg {
				differ++
			}
		}
	}
	total := (b.Dx() / 2) * (b.Dy() / 2)
	assert.Greater(t, float64(differ)/float64(total), 0.03, "%s: the screenshot is not blank (%d of %d sampled pixels differ from the background)", name, differ, total)
	assert.Greater(t, len(colors), 50, "%s: the screenshot has text and colour, not one flat fill", name)
}

// axe runs axe-core on the page and fails on every serious or critical
// violation.
func (tb *tab) axe(t *testing.T, src, scheme string) {
	t.Helper()
	tb.scheme(t, scheme)
	require.True(t, eval[bool](t, tb, src+";typeof axe === 'object'"), "axe-core loads")
	reportAxe(t, scheme, eval[[]axeViolation](t, tb, axeRun))
}

// axeRun is the script that runs axe-core (loaded) on the document and
// answers its violations, each with its first five nodes.
const axeRun = `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({
	id: v.id, impact: v.impact || "", help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + ": " + (n.failureSummary || ""))})))`

// axeViolation is one violation axeRun answers.
type axeViolation struct {
	ID, Impact, Help string
	Nodes            []string
}

// reportAxe fails t on every serious or critical violation of vs, found
// in the colour scheme scheme, and logs the others.
func reportAxe(t *testing.T, scheme string, vs []axeViolation) {
	t.Helper()
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("axe-core (%s): %s violation %s: %s\n  %s", scheme, v.Impact, v.ID, v.Help, strings.Join(v.Nodes, "\n  "))
		} else {
			t.Logf("axe-core (%s): %s violation %s: %s", scheme, v.Impact, v.ID, v.Help)
		}
	}
}

// TestDemoCatalogue loads the demo's docs/tools.html as a reviewer would.
func TestDemoCatalogue(t *testing.T) {
	axe := axeSource(t)
	keys := searchKeys(t, toolsHTML)
	// As many tools as the Markdown catalogue of the same registry has sections.
	md, err := os.ReadFile("../tools.md")
	require.NoError(t, err)
	tools := len(regexp.MustCompile(`(?m)^## `).FindAll(md, -1))
	require.Len(t, keys, tools)
	tb := open(t, toolsHTML, 1280, 900)

	index, sections := tb.shown(t)
	assert.Len(t, index, tools)
	assert.Len(t, sections, tools)

	// Typing filters the list: the index and the sections show the tools
	// whose name, title, description, hints or arguments hold every word.
	assert.ElementsMatch(t, []string{"delete_file", "delete_page"}, matching(keys, "delete"))
	for _, q := range []string{"delete", "csv sum", "open world"} {
		tb.search(t, q)
		want := matching(keys, q)
		require.NotEmpty(t, want, q)
		index, sections := tb.shown(t)
		assert.ElementsMatch(t, want, index, "index for %q", q)
		assert.ElementsMatch(t, want, sections, "sections for %q", q)
		count, err := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS("#count")))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("%d of %d tools", len(want), tools), count)
	}
	tb.search(t, "zzzz")
	index, _ = tb.shown(t)
	assert.Empty(t, index)
	assert.True(t, eval[bool](t, tb, `!document.getElementById("none").hidden`), "an empty search says no tool matches")

	// Schemas are collapsed, open on a click, and the copy button copies
	// the schema (the clipboard is the page's, replaced to read it back).
	tb.search(t, "delete")
	assert.Zero(t, eval[int](t, tb, `document.querySelectorAll("details[open]").length`))
	tb.do(t, chromedp.Click(chromedp.CSS("#tool-delete_file details summary")))
	assert.Equal(t, 1, eval[int](t, tb, `document.querySelectorAll("#tool-delete_file details[open]").length`))
	eval[bool](t, tb, `navigator.clipboard.writeText = text => { window.copied = text; return Promise.resolve(); }, true`)
	tb.do(t, chromedp.Click(chromedp.CSS("#tool-delete_file details[open] button.copy")))
	tb.poll(t, `document.querySelector("#tool-delete_file details[open] button.copy .label").textContent === "Copied"`)
	copied := eval[string](t, tb, `window.copied`)
	assert.Equal(t, eval[string](t, tb, `document.querySelector("#tool-delete_file details[open] pre").textContent`), copied, "the input schema was copied")
	assert.True(t, json.Valid([]byte(copied)), "the copied schema is JSON")

	for _, scheme := range []string{"light", "dark"} {
		tb.scheme(t, scheme)
		bg := eval[string](t, tb, `getComputedStyle(document.body).backgroundColor`)
		if scheme == "dark" {
			assert.Equal(t, "rgb(13, 17, 23)", bg)
		} else {
			assert.Equal(t, "rgb(255, 255, 255)", bg)
		}
		tb.screenshot(t, "demo-search-"+scheme)
		assert.Empty(t, eval[[]string](t, tb, overflow), "nothing overflows the viewport")
		tb.axe(t, axe, scheme)
	}
	tb.search(t, "")
	tb.scheme(t, "light")
	tb.screenshot(t, "demo-all-light")
	tb.clean(t)
}

// TestDemoCatalogueNarrow checks the page on a phone-sized viewport.
func TestDemoCatalogueNarrow(t *testing.T) {
	axe := axeSource(t)
	tb := open(t, toolsHTML, 390, 844)
	tb.do(t, chromedp.ScrollIntoView(chromedp.CSS("#tool-analyze_csv table")))
	tb.screenshot(t, "demo-narrow")
	assert.Empty(t, eval[[]string](t, tb, overflow), "nothing overflows the viewport")
	tb.axe(t, axe, "light")
	tb.clean(t)
}
