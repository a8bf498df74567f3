package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

type searchArgs struct {
	_     struct{} `mcp:"readOnly,openWorld=false"`
	Query string   `json:"query" jsonschema_description:"What to look for in the records" validate:"required,min=2,max=200"`
	Limit int      `json:"limit,omitempty" jsonschema:"default=10" jsonschema_description:"How many records to return" validate:"omitempty,min=1,max=100"`
	Sort  string   `json:"sort,omitempty" validate:"omitempty,oneof=relevance date name"`
	Tags  []string `json:"tags,omitempty" validate:"omitempty,max=5,dive,max=20"`
}

type hit struct {
	ID    string  `json:"id" jsonschema_description:"The record's id"`
	Score float64 `json:"score,omitempty"`
}

type hits struct {
	Items []hit `json:"items"`
	Total int   `json:"total"`
}

// writePage writes the HTML catalogue of reg to a file and returns its path.
func writePage(t *testing.T, reg *mcptool.Registry, title string) (string, time.Duration) {
	t.Helper()
	c, err := reg.Catalog()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "tools.html")
	f, err := os.Create(path)
	require.NoError(t, err)
	start := time.Now()
	require.NoError(t, c.Write(f, "html", title))
	took := time.Since(start)
	require.NoError(t, f.Close())
	return path, took
}

// TestLargeCatalogue loads the catalogue of 10,000 tools, records how long
// Chromium takes to load it and times the search in the page: from each key
// press to the frame after the page handled it, measured in the page with
// performance.now().
//
// The target is 100 ms per key press (issue 28). Each key's figure is its
// best of five rounds, as a benchmark would take it; the test fails when
// the worst key's figure is over the target on a quiet machine
// (MCPGEN_QUIET=1, with MCPGEN_REQUIRE_BROWSER=1), and over a looser bound
// (regression) everywhere else, as a machine shared with other builds (CI,
// 2 cores) can slow any frame down.
func TestLargeCatalogue(t *testing.T) {
	const (
		target     = 100 * time.Millisecond // what a search answers in
		regression = 200 * time.Millisecond // what it answers in on a busy machine
	)
	if testing.Short() {
		t.Skip("a 50 MB page")
	}
	chromium(t)
	quiet := os.Getenv("MCPGEN_QUIET") == "1" && os.Getenv("MCPGEN_REQUIRE_BROWSER") == "1"
	reg := mcptool.NewRegistry()
	const n = 10000
	for i := range n {
		require.NoError(t, reg.Add(fmt.Sprintf("tool_%05d", i), func(context.Context, searchArgs) (hits, error) { return hits{}, nil },
			mcptool.Description(fmt.Sprintf("Searches the records of collection %d by text, newest first.", i))))
	}
	path, took := writePage(t, reg, "10,000 tools")
	st, err := os.Stat(path)
	require.NoError(t, err)
	t.Logf("wrote %d tools, %.1f MB, in %v (BenchmarkWriteHTML10k in mcptool/catalog is the measurement)", n, float64(st.Size())/1e6, took)
	keys := searchKeys(t, path)
	require.Len(t, keys, n)

	start := time.Now()
	tb := open(t, path, 1280, 900)
	tb.poll(t, `document.readyState === "complete"`)
	load := eval[[]float64](t, tb, `(() => {
		const nav = performance.getEntriesByType("navigation")[0], fcp = performance.getEntriesByName("first-contentful-paint")[0];
		return [nav.domContentLoadedEventEnd, nav.loadEventEnd, fcp ? fcp.startTime : -1];
	})()`)
	t.Logf("Chromium loaded the page in %v: first contentful paint at %.0f ms, DOMContentLoaded at %.0f ms, load at %.0f ms", time.Since(start).Round(time.Millisecond), load[2], load[0], load[1])
	index, _ := tb.shown(t)
	require.Len(t, index, n)

	// A probe records, for each key press, the time from its keydown to the
	// frame after the page handled it (a task posted from that frame's
	// animation callback runs after the frame is drawn), and what the page
	// says it shows then: the count must already be the search's, so that
	// work put off past the frame (a debounce) fails the test rather than
	// flatter it.
	eval[bool](t, tb, `window.lat = []; window.counts = []; window.inputs = 0;
	(q => {
		q.addEventListener("input", () => window.inputs++, true);
		q.addEventListener("keydown", () => {
			const t0 = performance.now(), inputs = window.inputs;
			requestAnimationFrame(() => setTimeout(() => {
				window.lat.push(window.inputs > inputs ? performance.now() - t0 : -1);
				window.counts.push(document.getElementById("count").textContent);
			}, 0));
		}, true);
	})(document.getElementById("q")); true`)
	tb.do(t, chromedp.Focus(chromedp.CSS("#q")))
	const query = "tool_09999"
	var presses []rune
	var want []string // the count after each key press
	for i, r := range query {
		presses = append(presses, r)
		want = append(want, fmt.Sprintf("%d of %d tools", len(matching(keys, query[:i+1])), n))
	}
	for i := range query {
		presses = append(presses, '\b')
		if i == len(query)-1 {
			want = append(want, fmt.Sprintf("%d tools", n))
		} else {
			want = append(want, fmt.Sprintf("%d of %d tools", len(matching(keys, query[:len(query)-1-i])), n))
		}
	}
	const rounds = 5
	best := make([]float64, len(presses))
	pressed := 0
	for round := range rounds {
		for i, r := range presses {
			tb.press(t, r)
			pressed++
			tb.poll(t, fmt.Sprintf("window.lat.length >= %d", pressed))
			if i == len(query)-1 {
				index, sections := tb.shown(t)
				assert.Equal(t, []string{"tool_09999"}, index)
				assert.Equal(t, []string{"tool_09999"}, sections)
				// What the search leaves out takes no room: the one tool
				// found is the first thing in the index and in the page.
				top := eval[[]float64](t, tb, `[document.querySelector("#index a[href='#tool-tool_09999']").getBoundingClientRect().top,
					document.getElementById("tool-tool_09999").getBoundingClientRect().top, document.querySelector("header.top").getBoundingClientRect().bottom]`)
				assert.Less(t, top[0], top[2]+50, "the index entry is at the top of the index")
				assert.Less(t, top[1], top[2]+50, "the section is at the top of the page")
				if round == 0 {
					tb.screenshot(t, "large-search")
				}
			}
		}
		index, sections := tb.shown(t)
		assert.Len(t, index, n, "an empty search shows every tool in the index")
		assert.Len(t, sections, n, "an empty search shows every tool")
		lat := eval[[]float64](t, tb, `window.lat`)[round*len(presses):]
		counts := eval[[]string](t, tb, `window.counts`)[round*len(presses):]
		require.Equal(t, want, counts, "the frame after each key press shows the search's result")
		require.NotContains(t, lat, -1.0, "each key press changed the search box")
		t.Logf("round %d: key press to next frame (ms): %.1f", round+1, lat)
		for i, l := range lat {
			if round == 0 || l < best[i] {
				best[i] = l
			}
		}
	}
	worst := 0.0
	for _, l := range best {
		worst = max(worst, l)
	}
	t.Logf("search in %d tools: best of %d rounds per key (ms): %.1f; worst key %.1f ms (target %v)", n, rounds, best, worst, target)
	if quiet {
		assert.LessOrEqual(t, worst, float64(target.Milliseconds()), "each key press is answered within %v (MCPGEN_QUIET=1)", target)
	} else {
		if worst > float64(target.Milliseconds()) {
			t.Logf("over the %v target (asserted with MCPGEN_QUIET=1 on a quiet machine)", target)
		}
		assert.LessOrEqual(t, worst, float64(regression.Milliseconds()), "each key press is answered within %v", regression)
	}
	tb.clean(t)
}

// press presses and releases the key of r (a printable character, or '\b'
// for Backspace) in the focused element, as a keyboard does: one keyDown
// that carries the text, so that keydown, keypress and input are one task
// of the page, then keyUp. (chromedp's SendKeys sends the text in a separate
// char event, a round trip later, which a timing would count.)
func (tb *tab) press(t *testing.T, r rune) {
	t.Helper()
	k, ok := kb.Keys[r]
	require.True(t, ok, "no key for %q", r)
	down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: k.Key, Code: k.Code, WindowsVirtualKeyCode: k.Windows, NativeVirtualKeyCode: k.Native}
	if k.Print {
		down.Text, down.UnmodifiedText = k.Text, k.Unmodified
	}
	up := down
	up.Type, up.Text, up.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
	for _, ev := range []input.DispatchKeyEventParams{down, up} {
		_, err := chromedp.Call(tb.ctx, input.DispatchKeyEvent, ev)
		require.NoError(t, err)
	}
}

// TestHostileCatalogue loads a catalogue whose every text is HTML and
// script: none of it runs or becomes an element.
func TestHostileCatalogue(t *testing.T) {
	const hostile = `</script><script>alert(1)</script><img src=x onerror=alert(2)>"'><svg onload=alert(3)><iframe src="https://example.com"></iframe>`
	type evil struct {
		Note string `json:"note" jsonschema_description:"</textarea><script>alert(4)</script>" validate:"required"`
	}
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("evil", func(context.Context, evil) (string, error) { return "", nil }, mcptool.Description(hostile), mcptool.Title(hostile)))
	c, err := reg.Catalog()
	require.NoError(t, err)
	c.Tools[0].Scopes = []string{hostile}
	path := filepath.Join(t.TempDir(), "evil.html")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, c.Write(f, "html", hostile))
	require.NoError(t, f.Close())

	tb := open(t, path, 1280, 900)
	assert.Equal(t, hostile, eval[string](t, tb, `document.title`), "the title is text")
	assert.Equal(t, hostile, eval[string](t, tb, `document.querySelector("#tool-evil .desc").textContent`), "the description is text")
	assert.Zero(t, eval[int](t, tb, `document.querySelectorAll("img, svg, iframe, textarea").length`), "no element came from the catalogue's text")
	assert.Equal(t, 1, eval[int](t, tb, `document.scripts.length`), "only the page's own script")
	tb.screenshot(t, "hostile")
	tb.clean(t)
}
