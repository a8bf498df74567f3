// Drives the demo's authorization with the TypeScript SDK's OAuth client,
// headlessly, against the development issuer:
//  1. the interactive flow: 401, discovery, dynamic client registration,
//     the authorization code with PKCE (the "browser" here follows the
//     authorization URL and reads the code from the redirect), the token;
//  2. step-up: a client_credentials provider holding demo:read calls
//     delete_file; the 403 names demo:admin, and the provider asks for it
//     (the SDK passes the provider's configured scope to
//     prepareTokenRequest, so the provider remembers the challenge's).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const [url] = process.argv.slice(2);
const report = {};

// A provider that keeps everything in memory.
class MemoryProvider {
  constructor(metadata, redirectUrl) {
    this.metadata = metadata;
    this.redirect = redirectUrl;
    this.saved = {};
  }
  get redirectUrl() { return this.redirect; }
  get clientMetadata() { return this.metadata; }
  clientInformation() { return this.saved.client; }
  saveClientInformation(c) { this.saved.client = c; }
  tokens() { return this.saved.tokens; }
  saveTokens(t) { this.saved.tokens = t; }
  saveCodeVerifier(v) { this.saved.verifier = v; }
  codeVerifier() { return this.saved.verifier; }
  redirectToAuthorization(u) { this.authorizationUrl = u; }
}

// ChallengedScopeProvider gets client_credentials tokens for the scopes it
// holds plus those of the last insufficient_scope challenge: watch is the
// transport's fetch, which reads the challenges.
// docs/auth.md shows this class: TestAuthDocStepUpProvider keeps them the same.
class ChallengedScopeProvider {
  constructor(clientId, scope) {
    this.scopes = new Set(scope.split(" "));
    this.client = { client_id: clientId };
    this.watch = async (input, init) => { // the transport's fetch
      const res = await fetch(input, init);
      const challenge = res.headers.get("www-authenticate") ?? "";
      if (res.status === 403 && challenge.includes('error="insufficient_scope"')) {
        for (const s of /scope="([^"]*)"/.exec(challenge)?.[1].split(" ") ?? []) this.scopes.add(s);
      }
      return res;
    };
  }
  get redirectUrl() { return undefined; }
  get clientMetadata() { return { redirect_uris: [], grant_types: ["client_credentials"] }; }
  clientInformation() { return this.client; }
  tokens() { return this.saved; }
  saveTokens(t) { this.saved = t; }
  prepareTokenRequest() { // the scopes held and those challenged, not clientMetadata's
    return new URLSearchParams({ grant_type: "client_credentials", scope: [...this.scopes].join(" ") });
  }
}

try {
  // 1. Interactive.
  const provider = new MemoryProvider({ client_name: "auth-code-e2e", redirect_uris: ["http://127.0.0.1:1/callback"],
    grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none" }, "http://127.0.0.1:1/callback");
  let transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  let client = new Client({ name: "auth-code-e2e", version: "1" });
  try {
    await client.connect(transport);
    report.interactive = "connected without authorizing";
  } catch (e) {
    if (!(e instanceof UnauthorizedError)) throw e;
    report.registered = !!provider.saved.client?.client_id;
    const u = provider.authorizationUrl;
    report.authorizationScope = u.searchParams.get("scope");
    report.pkce = u.searchParams.get("code_challenge_method");
    const res = await fetch(u, { redirect: "manual" }); // the user's browser
    const back = new URL(res.headers.get("location"));
    await transport.finishAuth(back.searchParams.get("code"));
    transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    client = new Client({ name: "auth-code-e2e", version: "1" });
    await client.connect(transport);
    report.interactiveTools = (await client.listTools()).tools.length;
    await client.close();
  }

  // 2. Step-up.
  const stepUp = new ChallengedScopeProvider("dev-client", "demo:read");
  const t2 = new StreamableHTTPClientTransport(new URL(url), { authProvider: stepUp, fetch: stepUp.watch });
  const c2 = new Client({ name: "step-up-e2e", version: "1" });
  await c2.connect(t2);
  report.readTools = (await c2.listTools()).tools.length;
  const del = await c2.callTool({ name: "delete_file", arguments: { path: "nothing-here.csv" } });
  report.stepUpScopes = [...stepUp.scopes].sort();
  report.deleteText = del.content?.[0]?.text ?? "";
  report.deleteIsError = !!del.isError;
  await c2.close();
} catch (e) {
  report.error = String(e?.stack ?? e);
}
console.log(JSON.stringify(report));
