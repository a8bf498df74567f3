// Drives discovery mode with the TypeScript SDK's client over HTTP: list,
// search_tools, call_tool, and a direct call of the tool found.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.argv[2];
const report = {};
const client = new Client({ name: "discovery-e2e", version: "1" });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  report.listed = tools.map((t) => t.name);
  report.callToolReadOnly = tools.find((t) => t.name === "call_tool")?.annotations?.readOnlyHint ?? null;
  report.writeDestructive = tools.find((t) => t.name === "call_write_tool")?.annotations?.destructiveHint ?? null;

  const search = await client.callTool({ name: "search_tools", arguments: { query: "statistics of the columns of a csv file", limit: 3 } });
  const found = JSON.parse(search.content[0].text);
  report.found = found.tools.map((t) => t.name);
  report.foundHasSchema = !!found.tools[0]?.inputSchema?.properties;

  const viaProxy = await client.callTool({ name: "call_tool", arguments: { name: found.tools[0].name, arguments: { filepath: "sales.csv" } } });
  report.proxyError = !!viaProxy.isError;
  report.proxyRows = viaProxy.structuredContent?.rows ?? null;

  const direct = await client.callTool({ name: found.tools[0].name, arguments: { filepath: "sales.csv" } });
  report.directError = !!direct.isError;
  report.directRows = direct.structuredContent?.rows ?? null;

  const refused = await client.callTool({ name: "call_tool", arguments: { name: "delete_file", arguments: { filepath: "sales.csv" } } });
  report.refused = refused.isError ? refused.content[0].text : "";
} catch (e) {
  report.error = String(e?.stack ?? e);
}
await client.close().catch(() => {});
console.log(JSON.stringify(report));
