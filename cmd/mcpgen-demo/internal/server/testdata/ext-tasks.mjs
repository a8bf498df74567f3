// Drives mcpgen tasks with @modelcontextprotocol/ext-tasks over the
// 2026-07-28 stateless HTTP wire (a minimal session port on fetch).
import { withTasks, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";

const url = process.argv[2];
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "ext-tasks-e2e", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {
    elicitation: {},
    extensions: { "io.modelcontextprotocol/tasks": {} },
  },
};
let nextId = 0;

async function dispatch(request, options) {
  const params = { ...(request.params ?? {}), _meta: { ...(request.params?._meta ?? {}), ...meta } };
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "Mcp-Protocol-Version": "2026-07-28",
    "Mcp-Method": request.method,
    ...(options?.context?.headers ?? {}),
  };
  const name = request.method === "tools/call" ? params.name : params.taskId;
  if (typeof name === "string") headers["Mcp-Name"] = name;
  const res = await fetch(url, {
    method: "POST", headers, signal: options?.signal,
    body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method: request.method, params }),
  });
  let text = await res.text();
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
    text = data.findLast((d) => d.includes('"id"')) ?? "";
  }
  const msg = JSON.parse(text);
  return msg.error ? { kind: "error", error: msg.error } : { kind: "result", result: msg.result };
}

const port = {
  endpointId: "mcpgen-e2e",
  taskCapabilities: { generation: "v2", capabilities: {} },
  invalidated: false,
  dispatch,
  onServerRequest: () => () => {},
  onNotification: () => () => {},
  onInvalidated: () => () => {},
};

const report = {};
const session = withTasks(port, {
  // Input requests of a task reach the application here.
  onInputRequest: async (request) => {
    report.inputRequest = request;
    return { action: "accept", content: { confirm: true } };
  },
});
try {
  const steps = [];
  const ex = await session.callTool("slow_compute", { seconds: 1, label: "ext-tasks" });
  report.kind = ex.kind;
  for await (const ev of ex.updates()) {
    if (ev.type === "task") steps.push(ev.task.status + (ev.task.statusMessage ? ": " + ev.task.statusMessage : ""));
  }
  const { outcome } = await ex.settle();
  report.status = outcome.status;
  report.text = resultFromTaskOutcome(outcome).content[0].text;
  report.updates = steps;

  const del = await session.callTool("confirm_delete", { filename: "a.txt" });
  const settled = await del.settle();
  report.deleteStatus = settled.outcome.status;
  report.deleteText = resultFromTaskOutcome(settled.outcome).content[0].text;
} finally {
  await session.close();
}
console.log(JSON.stringify(report));
