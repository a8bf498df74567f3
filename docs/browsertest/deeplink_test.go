package browsertest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// landing is where a deep link left the page: the target tool's heading
// and the sticky header, in viewport coordinates, after the page settled.
type landing struct {
	HeadingTop, HeadingBottom float64
	HeaderTop, HeaderBottom   float64
	Viewport                  float64
	Visible, Sticky           bool
}

// landed waits until the page has stopped scrolling (the same scroll
// position over several frames) and measures where the heading of the
// section with id landed.
func landed(t *testing.T, tb *tab, id string) landing {
	t.Helper()
	return eval[landing](t, tb, fmt.Sprintf(`new Promise(done => {
  let last = -1, same = 0;
  const frame = () => {
    if (scrollY === last && ++same >= 10) {
      const h = document.querySelector("#" + CSS.escape(%q) + " h2").getBoundingClientRect();
      const top = document.querySelector("header.top").getBoundingClientRect();
      const el = document.querySelector("#" + CSS.escape(%q) + " h2");
      done({headingTop: h.top, headingBottom: h.bottom, headerTop: top.top, headerBottom: top.bottom,
        viewport: innerHeight, sticky: getComputedStyle(document.querySelector("header.top")).position === "sticky", visible: el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})});
      return;
    }
    if (scrollY !== last) same = 0;
    last = scrollY;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`, id, id))
}

// assertLanded checks that a deep link shows its target: the tool's heading
// is drawn in the viewport, below the sticky header, and the header is at
// the top of the viewport.
func assertLanded(t *testing.T, tb *tab, id string) {
	t.Helper()
	l := landed(t, tb, id)
	assert.True(t, l.Visible, "#%s: the heading is rendered", id)
	if l.Sticky {
		assert.Zero(t, l.HeaderTop, "#%s: the header is at the top of the viewport: %+v", id, l)
		assert.GreaterOrEqual(t, l.HeadingTop, l.HeaderBottom, "#%s: the heading is below the header: %+v", id, l)
	} else {
		assert.LessOrEqual(t, l.HeaderBottom, 0.0, "#%s: the header, which does not stick, is scrolled away: %+v", id, l)
		assert.GreaterOrEqual(t, l.HeadingTop, 0.0, "#%s: the heading is at the top of the viewport: %+v", id, l)
		assert.Less(t, l.HeadingTop, 60.0, "#%s: the heading is at the top of the viewport: %+v", id, l)
	}
	assert.LessOrEqual(t, l.HeadingBottom, l.Viewport, "#%s: the heading is in the viewport: %+v", id, l)
}

// TestDeepLink opens the demo's catalogue at a tool (#tool-delete_file),
// then follows a link to another tool in the page, on a wide and on a
// narrow viewport (where the header does not stick). The browser
// scrolls the target to the top of the viewport, where the sticky header
// covers its heading, unless the section keeps the header's height clear
// (scroll-margin-top).
//
// (A blank screenshot of a deep link from chromium --headless --screenshot
// is that mode's: it draws any page opened at a fragment, even one without
// content-visibility, blank.)
func TestDeepLink(t *testing.T) {
	for _, size := range [][2]int64{{1280, 900}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tb := open(t, toolsHTML+"#tool-delete_file", size[0], size[1])
			assertLanded(t, tb, "tool-delete_file")
			tb.screenshot(t, fmt.Sprintf("demo-deep-link-%d", size[0]))
			eval[bool](t, tb, `location.hash = "#tool-analyze_csv", true`)
			assertLanded(t, tb, "tool-analyze_csv")
			tb.clean(t)
		})
	}
}

// TestDeepLinkGenerated opens a generated catalogue of 1,000 tools (ten
// chunks) at tools in its first, middle and last chunk.
func TestDeepLinkGenerated(t *testing.T) {
	chromium(t)
	reg := mcptool.NewRegistry()
	for i := range 1000 {
		require.NoError(t, reg.Add(fmt.Sprintf("tool_%04d", i), func(context.Context, searchArgs) (hits, error) { return hits{}, nil },
			mcptool.Description(fmt.Sprintf("Searches the records of collection %d by text, newest first.", i))))
	}
	path, _ := writePage(t, reg, "1,000 tools")
	tb := open(t, path+"#tool-tool_0512", 1280, 900)
	assertLanded(t, tb, "tool-tool_0512")
	for _, id := range []string{"tool-tool_0999", "tool-tool_0003", "tool-tool_0250"} {
		eval[bool](t, tb, fmt.Sprintf(`location.hash = %q, true`, "#"+id))
		assertLanded(t, tb, id)
	}
	tb.clean(t)
}
