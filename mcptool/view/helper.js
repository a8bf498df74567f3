// mcpgenView: the view side of the MCP Apps protocol (io.modelcontextprotocol/ui),
// JSON-RPC 2.0 over postMessage with the host that frames the view. Every view mcpgen
// serves embeds it; a page of your own (view.Page) gets it too, as window.mcpgenView:
//
//   mcpgenView.onResult(fn)     fn(result) for each tool result the host sends
//                               (ui/notifications/tool-result; the latest one at once
//                               if it came before fn was registered)
//   mcpgenView.onInput(fn)      fn(arguments) of the call (ui/notifications/tool-input)
//   mcpgenView.onContext(fn)    fn(hostContext) at the handshake and on each change
//   mcpgenView.callTool(n, a)   tools/call through the host: a Promise of the result
//   mcpgenView.openLink(url)    ui/open-link: the host opens url
//   mcpgenView.show(result, el) renders a result into el (render.js)
//   mcpgenView.ready            a Promise of the host's ui/initialize answer
//
// Declaratively, a click on an element with data-mcpgen-call="tool" calls that tool
// with the JSON object of its data-mcpgen-args, and each data-mcpgen-arg-NAME="value"
// as the string argument NAME (attribute names are lower case), and shows the result
// in the element whose id its data-mcpgen-target names; a click on a link asks the
// host to open it.
//
// The helper follows the host's theme: data-theme on <html> and the host's CSS
// variables. It reports the view's size (ui/notifications/size-changed) as it changes.
// Nothing the host or a tool sends is ever turned into markup here.
(function () {
  "use strict";
  var host = window.parent;
  var nextID = 1;
  var pending = new Map();
  var listeners = { result: [], input: [], context: [], cancelled: [] };
  var last = {};
  var hostContext = {};

  function send(msg) {
    host.postMessage(msg, "*");
  }
  function request(method, params) {
    var id = nextID++;
    return new Promise(function (resolve, reject) {
      pending.set(id, { resolve: resolve, reject: reject });
      send({ jsonrpc: "2.0", id: id, method: method, params: params || {} });
    });
  }
  function notify(method, params) {
    send({ jsonrpc: "2.0", method: method, params: params || {} });
  }
  function emit(kind, value) {
    last[kind] = { value: value };
    listeners[kind].forEach(function (fn) {
      fn(value);
    });
  }
  function on(kind) {
    return function (fn) {
      listeners[kind].push(fn);
      if (last[kind]) fn(last[kind].value);
    };
  }

  function applyContext(ctx) {
    var root = document.documentElement;
    if (ctx.theme === "light" || ctx.theme === "dark") {
      root.dataset.theme = ctx.theme;
      root.style.colorScheme = ctx.theme;
    }
    var vars = ctx.styles && ctx.styles.variables;
    if (vars && typeof vars === "object") {
      Object.keys(vars).forEach(function (k) {
        if (k.indexOf("--") === 0 && typeof vars[k] === "string") root.style.setProperty(k, vars[k]);
      });
    }
  }
  function mergeContext(ctx) {
    if (!ctx || typeof ctx !== "object") return;
    Object.keys(ctx).forEach(function (k) {
      hostContext[k] = ctx[k];
    });
    applyContext(hostContext);
    emit("context", hostContext);
  }

  window.addEventListener("message", function (ev) {
    if (ev.source !== host) return;
    var m = ev.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined) {
      var p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message || "error " + m.error.code));
      else p.resolve(m.result);
      return;
    }
    if (m.id !== undefined) {
      // A request of the host's.
      if (m.method === "ping" || m.method === "ui/resource-teardown") {
        send({ jsonrpc: "2.0", id: m.id, result: {} });
      } else {
        send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } });
      }
      return;
    }
    var params = m.params || {};
    switch (m.method) {
      case "ui/notifications/tool-input":
        emit("input", params.arguments || {});
        break;
      case "ui/notifications/tool-result":
        emit("result", params);
        break;
      case "ui/notifications/tool-cancelled":
        emit("cancelled", params.reason || "");
        break;
      case "ui/notifications/host-context-changed":
        mergeContext(params);
        break;
    }
  });

  var size = { width: 0, height: 0 };
  function reportSize() {
    var el = document.documentElement;
    var w = Math.ceil(el.scrollWidth), h = Math.ceil(el.scrollHeight);
    if (w === size.width && h === size.height) return;
    size = { width: w, height: h };
    notify("ui/notifications/size-changed", size);
  }

  var view = {
    onResult: on("result"),
    onInput: on("input"),
    onContext: on("context"),
    onCancelled: on("cancelled"),
    hostContext: function () {
      return hostContext;
    },
    callTool: function (name, args) {
      return request("tools/call", { name: name, arguments: args || {} });
    },
    openLink: function (url) {
      return request("ui/open-link", { url: String(url) });
    },
  };
  view.ready = request("ui/initialize", {
    appInfo: { name: document.title || "mcpgen view", version: "1" },
    appCapabilities: {},
    protocolVersion: "2026-01-26",
  }).then(function (res) {
    mergeContext((res && res.hostContext) || {});
    notify("ui/notifications/initialized", {});
    if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.documentElement);
    reportSize();
    return res;
  });

  document.addEventListener("click", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    var caller = t.closest("[data-mcpgen-call]");
    if (caller) {
      ev.preventDefault();
      var args = {};
      try {
        args = JSON.parse(caller.getAttribute("data-mcpgen-args") || "{}");
      } catch (e) {
        args = {};
      }
      Array.prototype.forEach.call(caller.attributes, function (a) {
        if (a.name.indexOf("data-mcpgen-arg-") === 0) args[a.name.slice(16)] = a.value;
      });
      var target = document.getElementById(caller.getAttribute("data-mcpgen-target") || "") || null;
      if (target) {
        target.setAttribute("aria-busy", "true");
      }
      view.callTool(caller.getAttribute("data-mcpgen-call"), args).then(
        function (res) {
          if (target) {
            target.removeAttribute("aria-busy");
            view.show(res, target);
          }
        },
        function (err) {
          if (target) {
            target.removeAttribute("aria-busy");
            view.show({ isError: true, content: [{ type: "text", text: String(err.message || err) }] }, target);
          }
        },
      );
      return;
    }
    var link = t.closest("a[href]");
    if (link && /^https?:/i.test(link.href)) {
      ev.preventDefault();
      view.openLink(link.href);
    }
  });

  window.mcpgenView = view;
})();
