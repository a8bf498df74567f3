// Calls the demo with authorization on, as a client of the TypeScript SDK:
// without a token (401 and the metadata's address), then with a demo:read
// token from the issuer's token endpoint (a read-only tool works, a
// destructive one is refused with 403 insufficient_scope).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, issuer, audience] = process.argv.slice(2);
const report = {};
try {
  // No token: the server answers 401 and says where its metadata is.
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "auth-e2e", version: "1" } } }) });
  report.noTokenStatus = res.status;
  report.challenge = res.headers.get("www-authenticate");
  const metaURL = /resource_metadata="([^"]+)"/.exec(report.challenge)?.[1];
  const meta = await (await fetch(metaURL)).json();
  report.authorizationServers = meta.authorization_servers;
  report.scopesSupported = meta.scopes_supported;

  // A token for demo:read, for this server (RFC 8707 resource).
  const tok = await (await fetch(issuer + "/token", { method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "demo:read", resource: audience }) })).json();

  const client = new Client({ name: "auth-e2e", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${tok.access_token}` } } });
  await client.connect(transport);
  report.tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const sum = await client.callTool({ name: "calculate_sum", arguments: { a: 2, b: 3 } });
  report.sum = sum.structuredContent?.sum;
  try {
    await client.callTool({ name: "delete_file", arguments: { path: "sales.csv" } });
    report.deleteError = "";
  } catch (e) {
    report.deleteError = String(e?.message ?? e);
    report.deleteCode = e?.code ?? 0;
  }
  await client.close();
} catch (e) {
  report.error = String(e?.stack ?? e);
}
console.log(JSON.stringify(report));
