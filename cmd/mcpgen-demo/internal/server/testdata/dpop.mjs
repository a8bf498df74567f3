// Calls the demo with -auth-dpop as a DPoP client (RFC 9449) would, with
// panva's dpop package making the proofs and the TypeScript SDK's client
// making the calls: a token request with a proof gets a token bound to the
// client's key; every request the SDK sends carries a fresh proof for its
// method and URL; the same proof sent again, a proof for another URL and
// the token sent as Bearer are refused with the DPoP challenge.
import * as DPoP from "dpop";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, issuer] = process.argv.slice(2);
const report = {};
try {
  const keypair = await DPoP.generateKeyPair("ES256");

  // No token: the challenge says DPoP and its algorithms; so does the
  // metadata.
  const none = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
  report.noTokenStatus = none.status;
  report.noTokenChallenge = none.headers.get("www-authenticate");
  const metaURL = /resource_metadata="([^"]+)"/.exec(report.noTokenChallenge)?.[1];
  const meta = await (await fetch(metaURL)).json();
  report.dpopRequired = meta.dpop_bound_access_tokens_required;
  report.dpopAlgs = meta.dpop_signing_alg_values_supported;

  // A demo:read token bound to the key (RFC 9449 §5).
  const tokenURL = issuer + "/token";
  const tok = await (await fetch(tokenURL, { method: "POST",
    headers: { DPoP: await DPoP.generateProof(keypair, tokenURL, "POST") },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "demo:read", resource: url }) })).json();
  report.tokenType = tok.token_type;

  // The SDK's client; each request with a fresh proof of its own.
  let last;
  const dpopFetch = async (input, init = {}) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    headers.set("authorization", `DPoP ${tok.access_token}`);
    headers.set("dpop", await DPoP.generateProof(keypair, u.origin + u.pathname, method, undefined, tok.access_token));
    if (method === "POST") last = { url: u.href, headers: new Headers(headers), body: init.body };
    return fetch(input, { ...init, headers });
  };
  const client = new Client({ name: "dpop-e2e", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: dpopFetch }));
  report.tools = (await client.listTools()).tools.length;
  const sum = await client.callTool({ name: "calculate_sum", arguments: { a: 2, b: 3 } });
  report.sum = sum.structuredContent?.sum;

  // The SDK's last POST again, proof and all: a replay.
  const replay = await fetch(last.url, { method: "POST", headers: last.headers, body: last.body });
  report.replayStatus = replay.status;
  report.replayChallenge = replay.headers.get("www-authenticate");

  // A fresh proof, but for another URL.
  const elsewhere = new Headers(last.headers);
  elsewhere.set("dpop", await DPoP.generateProof(keypair, new URL("/other", url).href, "POST", undefined, tok.access_token));
  const other = await fetch(last.url, { method: "POST", headers: elsewhere, body: last.body });
  report.otherURLStatus = other.status;
  report.otherURLChallenge = other.headers.get("www-authenticate");

  // The bound token as a bearer token.
  const bearer = new Headers(last.headers);
  bearer.set("authorization", `Bearer ${tok.access_token}`);
  bearer.delete("dpop");
  const asBearer = await fetch(last.url, { method: "POST", headers: bearer, body: last.body });
  report.bearerStatus = asBearer.status;
  report.bearerChallenge = asBearer.headers.get("www-authenticate");
  await client.close();
} catch (e) {
  report.error = String(e?.stack ?? e);
}
console.log(JSON.stringify(report));
