// The test host of the view tests (views_test.go): ext-apps' own host-side bridge,
// AppBridge, bundled by ci.sh with esbuild into node_modules/.mcpgen/host.js.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

window.mcpgenHost = {
  calls: [],
  links: [],
  sizes: [],
  // mount shows a view's page (its resources/read text) in a sandboxed iframe, as a
  // host does, and feeds it a tool call's arguments and result once it initialized.
  // Its tool calls go to /call, which the test answers through the demo server.
  async mount(html, args, result, theme) {
    const host = window.mcpgenHost;
    document.getElementById("views").replaceChildren();
    const iframe = document.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.title = "tool view";
    document.getElementById("views").appendChild(iframe);
    const bridge = new AppBridge(null, { name: "mcpgen-browsertest", version: "1" }, { openLinks: {}, serverTools: {} }, {
      hostContext: { theme: theme, displayMode: "inline", platform: "web" },
    });
    bridge.oncalltool = async (params) => {
      host.calls.push(params);
      const res = await fetch("/call", { method: "POST", body: JSON.stringify(params) });
      return await res.json();
    };
    bridge.onopenlink = async ({ url }) => {
      host.links.push(url);
      return {};
    };
    bridge.onsizechange = ({ height }) => {
      host.sizes.push(height);
      if (height) iframe.style.height = height + "px";
    };
    host.initialized = false;
    bridge.oninitialized = async () => {
      await bridge.sendToolInput({ arguments: args });
      await bridge.sendToolResult(result);
      host.initialized = true;
    };
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    iframe.srcdoc = html;
    return true;
  },
};
