"use strict";
(function () {
  var q = document.getElementById("q");
  var count = document.getElementById("count");
  var none = document.getElementById("none");
  // The page comes in chunks of tools (index and sections alike). A search
  // marks what it leaves out with the class "out" (page.css says why not
  // hidden): a chunk none of whose tools match, and, in the other chunks,
  // the tools that do not match (their index entries are hidden outright).
  var chunks = Array.prototype.slice.call(document.querySelectorAll("#index > .chunk"));
  var toolChunks = Array.prototype.slice.call(document.querySelectorAll("#tools > .chunk"));
  var items = [], chunkOf = [];
  chunks.forEach(function (ul, c) {
    Array.prototype.forEach.call(ul.children, function (li) { items.push(li); chunkOf.push(c); });
  });
  var tools = Array.prototype.slice.call(document.querySelectorAll("#tools section.tool"));
  var keys = items.map(function (li) { return li.getAttribute("data-search") || ""; });
  var total = items.length;
  // shownTool and shownChunk are what the page shows, so that a search
  // touches only what changes.
  var shownTool = new Uint8Array(total).fill(1);
  var shownChunk = new Uint8Array(chunks.length).fill(1);
  var match = new Uint8Array(total);
  // filter shows the tools whose search text holds every word typed. The
  // tools of a chunk that is left out are left as they are, so a search
  // touches only the chunks that show something.
  function filter() {
    var t0 = performance.now();
    var words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    var inChunk = new Int32Array(chunks.length);
    for (var i = 0; i < total; i++) {
      var k = keys[i], ok = 1;
      for (var j = 0; j < words.length; j++) {
        if (k.indexOf(words[j]) < 0) { ok = 0; break; }
      }
      match[i] = ok;
      shown += ok;
      inChunk[chunkOf[i]] += ok;
    }
    for (i = 0; i < total; i++) {
      if (inChunk[chunkOf[i]] > 0 && shownTool[i] !== match[i]) {
        shownTool[i] = match[i];
        items[i].hidden = !match[i];
        tools[i].classList.toggle("out", !match[i]);
      }
    }
    for (var c = 0; c < chunks.length; c++) {
      var show = inChunk[c] > 0 ? 1 : 0;
      if (shownChunk[c] !== show) {
        shownChunk[c] = show;
        chunks[c].classList.toggle("out", !show);
        toolChunks[c].classList.toggle("out", !show);
      }
    }
    var noun = total === 1 ? " tool" : " tools";
    count.textContent = (words.length ? shown + " of " + total : total) + noun;
    none.hidden = shown !== 0;
    count.setAttribute("data-ms", (performance.now() - t0).toFixed(1));
  }
  q.addEventListener("input", filter);
  if (q.value) filter();
  // A deep link (#tool-name) scrolls its tool to the top of the viewport,
  // under the sticky header, unless the tool keeps the header's height
  // clear above it (scroll-margin-top in page.css): --header is that
  // height, or 0 where the header does not stick (narrow screens).
  var header = document.querySelector("header.top");
  function headerHeight() {
    var h = getComputedStyle(header).position === "sticky" ? Math.ceil(header.getBoundingClientRect().height) : 0;
    document.documentElement.style.setProperty("--header", h + "px");
  }
  headerHeight();
  window.addEventListener("resize", headerHeight);
  function copied(button, text) {
    var label = button.querySelector(".label");
    label.textContent = text;
    setTimeout(function () { label.textContent = "Copy"; }, 1500);
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button.copy") : null;
    if (!button) return;
    var text = button.parentNode.querySelector("pre").textContent;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { copied(button, "Copied"); }, function () { fallback(button, text); });
    } else {
      fallback(button, text);
    }
  });
  // fallback copies through a selection, where the clipboard API is denied.
  function fallback(button, text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
    document.body.removeChild(area);
    copied(button, ok ? "Copied" : "Select and copy");
  }
})();
