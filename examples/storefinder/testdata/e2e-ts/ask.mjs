// Independent MCP client for the Ask test Business (cmd/ucpgen's
// regeneration test): connects to the MCP endpoint given as the first
// argument with the official TypeScript SDK over streamable HTTP, lists the
// tools, calls ask_business with the idempotency key given as the second
// argument in meta, and search_locations, and prints one JSON summary line
// that the Go test checks. The SDK holds each structuredContent to the
// outputSchema that tools/list advertised. Exits non-zero on any failure.
//
//   node ask.mjs http://127.0.0.1:PORT/ucp/mcp IDEMPOTENCY_KEY
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, key] = process.argv.slice(2);
if (!url || !key) {
  console.error("usage: node ask.mjs http://127.0.0.1:PORT/ucp/mcp IDEMPOTENCY_KEY");
  process.exit(2);
}

const agent = { profile: "https://platform.example/profile.json" };
const client = new Client({ name: "ucpgen-ts-e2e-ask", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

// listTools first: the SDK checks later results against these outputSchemas.
const tools = await client.listTools();
const ask = await client.callTool({
  name: "ask_business",
  arguments: { meta: { "ucp-agent": agent, "idempotency-key": key }, ask: { query: "Do you gift-wrap?", ids: ["s1"] } },
});
const search = await client.callTool({
  name: "search_locations",
  arguments: { meta: { "ucp-agent": agent }, location: { pagination: { limit: 2 } } },
});
await client.close();

console.log(JSON.stringify({
  tools: tools.tools.map((t) => t.name).sort(),
  hasOutputSchema: tools.tools.filter((t) => t.outputSchema).map((t) => t.name).sort(),
  ask: ask.structuredContent,
  askIsError: ask.isError ?? false,
  askText: ask.content?.[0]?.text,
  search: search.structuredContent,
}));
