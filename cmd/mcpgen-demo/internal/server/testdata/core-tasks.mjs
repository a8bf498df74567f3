// Drives mcpgen's 2025-11-25 experimental core tasks with the TypeScript
// SDK's client (client.experimental.tasks) over a 2025-11-25 HTTP session.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const url = process.argv[2];
const report = { events: [] };
const client = new Client({ name: "core-tasks-e2e", version: "1" }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  report.elicitedFor = request.params._meta?.["io.modelcontextprotocol/related-task"]?.taskId ?? "";
  return { action: "accept", content: { confirm: true } };
});
const transport = new StreamableHTTPClientTransport(new URL(url));
try {
  await client.connect(transport);
  report.protocolVersion = transport.protocolVersion;
  report.capabilities = client.getServerCapabilities()?.tasks ?? null;
  const { tools } = await client.listTools();
  report.taskSupport = Object.fromEntries(
    tools.filter((t) => t.execution?.taskSupport).map((t) => [t.name, t.execution.taskSupport]));

  // A task with progress: created, polled, its result fetched.
  for await (const m of client.experimental.tasks.callToolStream({ name: "slow_compute", arguments: { seconds: 1, label: "core" } })) {
    if (m.type === "taskCreated") { report.taskId = m.task.taskId; report.events.push("created"); }
    else if (m.type === "taskStatus") report.events.push(m.task.status);
    else if (m.type === "result") report.text = m.result.content[0].text;
    else if (m.type === "error") throw m.error;
  }
  // A task that asks the user: input_required, then tasks/result carries
  // the elicitation and the result.
  for await (const m of client.experimental.tasks.callToolStream({ name: "confirm_delete", arguments: { filename: "a.txt" } })) {
    if (m.type === "taskCreated") report.deleteTaskId = m.task.taskId;
    else if (m.type === "result") report.deleteText = m.result.content[0].text;
    else if (m.type === "error") throw m.error;
  }
  // A long task, listed and cancelled.
  const created = await client.request(
    { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 30, label: "long" }, task: { ttl: 60000 } } },
    CreateTaskResultSchema);
  const listed = await client.experimental.tasks.listTasks();
  report.listed = listed.tasks.map((t) => t.taskId);
  report.cancelStatus = (await client.experimental.tasks.cancelTask(created.task.taskId)).status;
  report.afterCancel = (await client.experimental.tasks.getTask(created.task.taskId)).status;
} catch (e) {
  report.error = String(e?.stack ?? e);
} finally {
  await client.close();
}
console.log(JSON.stringify(report));
