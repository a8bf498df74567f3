// mcpgenView.show(result, el[, schema]): renders a tool result into el, guided by the
// tool's output schema when there is one (the default view embeds it): an object as
// labelled fields (titles and descriptions from the schema), an array of objects as a
// table that sorts and filters, an array of strings or numbers as a list, numbers with
// their units, images and links shown, nested objects collapsible. Values only ever
// become text (textContent) or the src and href of elements made here: never markup.
// A result that carries the HTML a template view rendered on the server
// (_meta["mcpgen/html"], escaped there by html/template) shows that.
(function () {
  "use strict";
  var view = window.mcpgenView;
  var META = "mcpgen/html";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function humanize(key) {
    var s = String(key)
      .replace(/[_-]+/g, " ")
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .trim();
    return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  }
  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }

  // resolve follows a local $ref ("#/$defs/X") against the root schema.
  function resolve(s, root) {
    for (var i = 0; s && s.$ref && i < 16; i++) {
      var m = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref);
      if (!m || !root[m[1]]) return {};
      s = root[m[1]][decodeURIComponent(m[2]).replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    return s || {};
  }

  var UNITS = {
    percent: "%",
    degrees: "°",
    seconds: "s",
    milliseconds: "ms",
    bytes: "B",
    meters: "m",
    metres: "m",
    kilometers: "km",
    kilometres: "km",
  };
  // unitOf is the unit of a number: the schema's x-unit, else what its description
  // says after "in": a unit ("in percent"), or the path of a string of the result
  // that holds it ("in units.temperature").
  function unitOf(s, rootValue) {
    var u = s["x-unit"];
    if (typeof u === "string") return u;
    var d = typeof s.description === "string" ? s.description : "";
    var m = /\bin ([A-Za-z_]\w*(?:\.\w+)+)/.exec(d);
    if (m) {
      var v = rootValue;
      m[1].split(".").forEach(function (k) {
        v = isObject(v) ? v[k] : undefined;
      });
      if (typeof v === "string" && v.length <= 16) return v;
    }
    m = /\bin (percent|degrees|seconds|milliseconds|bytes|meters|metres|kilometers|kilometres)\b/.exec(d);
    return m ? UNITS[m[1]] : "";
  }

  function formatNumber(n) {
    return typeof n === "number" ? n.toLocaleString(undefined, { maximumFractionDigits: 6 }) : String(n);
  }

  function isImage(s, v) {
    return (
      typeof v === "string" &&
      (/^data:image\/(png|jpeg|gif|webp);base64,/.test(v) || (/^image\//.test(s.contentMediaType || "") && /^https?:/.test(v)))
    );
  }
  function isLink(v) {
    return typeof v === "string" && /^https?:\/\/\S+$/.test(v);
  }

  function link(href, text) {
    var a = el("a", "", text || href);
    a.href = href;
    a.rel = "noopener noreferrer";
    return a;
  }

  // value renders v (with schema s) as an element.
  function value(v, s, ctx, label) {
    s = resolve(s || {}, ctx.root);
    if (v === null || v === undefined) return el("span", "null", "—");
    if (Array.isArray(v)) {
      if (v.length > 0 && v.every(isObject)) return table(v, resolve(s.items || {}, ctx.root), ctx, label);
      var ul = el("ul", "list");
      v.forEach(function (x) {
        var li = el("li");
        li.appendChild(value(x, s.items || {}, ctx));
        ul.appendChild(li);
      });
      if (v.length === 0) ul.appendChild(el("li", "null", "none"));
      return ul;
    }
    if (isObject(v)) return fields(v, s, ctx);
    if (typeof v === "number") {
      var span = el("span", "num", formatNumber(v));
      var u = unitOf(s, ctx.value);
      if (u) span.appendChild(el("span", "unit", (/^[%°]/.test(u) ? "" : "\u00a0") + u));
      return span;
    }
    if (typeof v === "boolean") return el("span", "bool", v ? "yes" : "no");
    if (isImage(s, v)) {
      var img = el("img", "image");
      img.src = v;
      img.alt = label || s.title || "image";
      return img;
    }
    if (isLink(v)) return link(v);
    return el("span", "text", String(v));
  }

  // fields renders an object as a description list, in the schema's order.
  function fields(obj, s, ctx) {
    var props = (s && s.properties) || {};
    var keys = Object.keys(props).filter(function (k) {
      return k in obj;
    });
    Object.keys(obj).forEach(function (k) {
      if (keys.indexOf(k) < 0) keys.push(k);
    });
    var dl = el("dl", "fields");
    keys.forEach(function (k) {
      var ps = resolve(props[k] || {}, ctx.root);
      var title = ps.title || humanize(k);
      var v = obj[k];
      var nested = isObject(v) || (Array.isArray(v) && v.length > 0 && v.every(isObject));
      if (nested) {
        var det = el("details", "nested");
        det.open = true;
        var sum = el("summary", "", title);
        if (ps.description) sum.title = ps.description;
        det.appendChild(sum);
        det.appendChild(value(v, ps, ctx, title));
        var wrap = el("div", "field wide");
        wrap.appendChild(el("dt", "hidden-label", title)); // the summary shows it
        var ddn = el("dd");
        ddn.appendChild(det);
        wrap.appendChild(ddn);
        dl.appendChild(wrap);
        return;
      }
      var row = el("div", "field");
      var dt = el("dt", "", title);
      if (ps.description) dt.title = ps.description;
      var dd = el("dd");
      dd.appendChild(value(v, ps, ctx, title));
      row.appendChild(dt);
      row.appendChild(dd);
      dl.appendChild(row);
    });
    return dl;
  }

  // isList reports whether v is an array of plain values (strings, numbers, ...):
  // shown as a list, in a field as in a table's cell.
  function isList(v) {
    return (
      Array.isArray(v) &&
      v.every(function (x) {
        return x === null || typeof x !== "object";
      })
    );
  }
  function cellText(v) {
    if (v === null || v === undefined) return "";
    if (isList(v)) return v.map(cellText).join(", ");
    if (typeof v === "object") return JSON.stringify(v);
    return String(v);
  }

  var tables = 0;
  // table renders an array of objects as a table: a click on a column's header sorts
  // by it (again: the other way), the filter box keeps the rows containing its text.
  function table(rows, s, ctx, label) {
    var props = s.properties || {};
    var cols = Object.keys(props);
    rows.slice(0, 50).forEach(function (r) {
      Object.keys(r).forEach(function (k) {
        if (cols.indexOf(k) < 0) cols.push(k);
      });
    });
    var id = "mcpgen-table-" + ++tables;
    var box = el("div", "table");
    var filterLabel = el("label", "filter", "Filter ");
    var filter = el("input");
    filter.type = "search";
    filter.setAttribute("aria-controls", id);
    filterLabel.appendChild(filter);
    var count = el("span", "count");
    count.setAttribute("aria-live", "polite");
    var tools = el("div", "tools");
    tools.appendChild(filterLabel);
    tools.appendChild(count);
    box.appendChild(tools);
    var scroll = el("div", "scroll");
    var t = el("table");
    t.id = id;
    // Named for assistive technology only: the summary above it shows the name.
    if (label) t.setAttribute("aria-label", label);
    var thead = el("thead");
    var hr = el("tr");
    var tbody = el("tbody");
    var body = rows.map(function (r) {
      var tr = el("tr");
      cols.forEach(function (c) {
        var td = el("td");
        var cs = resolve(props[c] || {}, ctx.root);
        var v = r[c];
        if (v !== null && typeof v === "object" && !isList(v)) td.textContent = cellText(v);
        else td.appendChild(value(v, cs, { root: ctx.root, value: r }, c));
        if (typeof v === "number") td.className = "num";
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
      return { tr: tr, row: r, text: cols.map(function (c) { return cellText(r[c]); }).join(" ").toLowerCase() };
    });
    var sortCol = -1, dir = 1;
    cols.forEach(function (c, i) {
      var cs = resolve(props[c] || {}, ctx.root);
      var th = el("th");
      th.scope = "col";
      var b = el("button", "sort", cs.title || humanize(c));
      b.type = "button";
      if (cs.description) b.title = cs.description;
      b.addEventListener("click", function () {
        dir = sortCol === i ? -dir : 1;
        sortCol = i;
        hr.querySelectorAll("th").forEach(function (h) {
          h.removeAttribute("aria-sort");
        });
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        body.sort(function (x, y) {
          var a = x.row[c], bb = y.row[c];
          if (typeof a === "number" && typeof bb === "number") return (a - bb) * dir;
          return cellText(a).localeCompare(cellText(bb), undefined, { numeric: true }) * dir;
        });
        body.forEach(function (r) {
          tbody.appendChild(r.tr);
        });
      });
      th.appendChild(b);
      hr.appendChild(th);
    });
    function applyFilter() {
      var q = filter.value.trim().toLowerCase();
      var shown = 0;
      body.forEach(function (r) {
        var ok = q === "" || r.text.indexOf(q) >= 0;
        r.tr.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown === body.length ? body.length + " rows" : shown + " of " + body.length + " rows";
    }
    filter.addEventListener("input", applyFilter);
    applyFilter();
    thead.appendChild(hr);
    t.appendChild(thead);
    t.appendChild(tbody);
    scroll.appendChild(t);
    box.appendChild(scroll);
    return box;
  }

  // content renders a result's content blocks: text, images, resource links.
  function content(blocks, out) {
    (blocks || []).forEach(function (b) {
      if (!b) return;
      if (b.type === "text") out.appendChild(el("p", "content-text", b.text));
      else if (b.type === "image" && /^image\/(png|jpeg|gif|webp)$/.test(b.mimeType) && typeof b.data === "string") {
        var img = el("img", "image");
        img.src = "data:" + b.mimeType + ";base64," + b.data;
        img.alt = (b.annotations && b.annotations.title) || "image";
        out.appendChild(img);
      } else if (b.type === "resource_link") {
        var p = el("p", "content-link");
        p.appendChild(/^https?:/.test(b.uri) ? link(b.uri, b.title || b.name || b.uri) : el("span", "", b.title || b.name || b.uri));
        if (b.description) p.appendChild(el("span", "desc", " — " + b.description));
        out.appendChild(p);
      }
    });
  }

  // fragment parses server-rendered HTML (escaped by html/template) into nodes. The
  // view's Content-Security-Policy runs no script and no inline handler in it.
  function fragment(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var f = document.createDocumentFragment();
    Array.prototype.slice.call(doc.body.childNodes).forEach(function (n) {
      f.appendChild(document.adoptNode(n));
    });
    return f;
  }

  view.show = function (result, into, schema) {
    into.replaceChildren();
    result = result || {};
    var meta = result._meta || {};
    if (result.isError) {
      var err = el("div", "error");
      err.setAttribute("role", "alert");
      content(result.content, err);
      into.appendChild(err);
    } else if (typeof meta[META] === "string") {
      into.appendChild(fragment(meta[META]));
    } else if (result.structuredContent !== undefined && result.structuredContent !== null) {
      var root = schema || {};
      var sc = result.structuredContent;
      // A result that is not an object comes wrapped, {"result": value}: the page's
      // heading names it, so the value shows on its own.
      var own = root.properties || { result: {} };
      if (isObject(sc) && Object.keys(sc).length === 1 && "result" in sc && Object.keys(own).length === 1 && own.result) {
        into.appendChild(value(sc.result, own.result, { root: root, value: sc }));
      } else {
        into.appendChild(value(sc, root, { root: root, value: sc }));
      }
      var extra = el("div", "extra");
      content(
        (result.content || []).filter(function (b) {
          return b && b.type !== "text";
        }),
        extra,
      );
      if (extra.childNodes.length) into.appendChild(extra);
    } else {
      content(result.content, into);
    }
  };

  // The default view and template views show each result in <main>.
  var main = document.getElementById("mcpgen-view");
  if (main) {
    var schemaEl = document.getElementById("mcpgen-schema");
    var schema = schemaEl ? JSON.parse(schemaEl.textContent) : undefined;
    var status = document.getElementById("mcpgen-status");
    view.onInput(function () {
      if (status) status.textContent = "Running…";
    });
    view.onCancelled(function (reason) {
      if (status) status.textContent = "Cancelled" + (reason ? ": " + reason : "");
    });
    view.onResult(function (res) {
      if (status) status.textContent = "";
      view.show(res, main, schema);
    });
  }
})();
