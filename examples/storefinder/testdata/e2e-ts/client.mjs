// Independent MCP client for the store-finder end-to-end test: connects to
// the URL given as the first argument with the official TypeScript SDK over
// streamable HTTP, lists the tools, calls both, and prints one JSON summary
// line that the Go test checks. Exits non-zero on any failure.
//
// The optional third argument is a server whose negotiation finds no common
// capability: its capabilities_incompatible outcome must pass the SDK's own
// check of structuredContent against the tool's outputSchema.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.argv[2];
if (!url) {
  console.error("usage: node client.mjs http://127.0.0.1:PORT/ucp/mcp");
  process.exit(2);
}

const meta = { "ucp-agent": { profile: "https://platform.example/profiles/agent.json" } };
const client = new Client({ name: "ucpgen-ts-e2e", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

const tools = await client.listTools();
const search = await client.callTool({
  name: "search_locations",
  arguments: { meta, location: { distance: { center: { latitude: 40.7128, longitude: -74.006 }, max: 20000 }, pagination: { limit: 5 } } },
});
const lookup = await client.callTool({
  name: "lookup_locations",
  arguments: { meta, location: { ids: [process.argv[3] ?? "store-0001", "no-such-store"] } },
});
let invalid = null;
try {
  await client.callTool({ name: "search_locations", arguments: { meta, location: { distance: { max: 5 } } } });
} catch (e) {
  invalid = { code: e.code, message: String(e.message) };
}

let incompatible = null;
if (process.argv[4]) {
  const other = new Client({ name: "ucpgen-ts-e2e-incompatible", version: "1.0.0" });
  await other.connect(new StreamableHTTPClientTransport(new URL(process.argv[4])));
  await other.listTools(); // the SDK validates later results against these outputSchemas
  try {
    const r = await other.callTool({
      name: "search_locations",
      arguments: { meta, location: { query: "coffee" } },
    });
    incompatible = { result: r.structuredContent, isError: r.isError ?? false };
  } catch (e) {
    incompatible = { thrown: { code: e.code ?? null, message: String(e.message) } };
  }
  await other.close();
}

console.log(JSON.stringify({
  tools: tools.tools.map((t) => t.name).sort(),
  inputSchemaTypes: tools.tools.map((t) => t.inputSchema.type),
  search: search.structuredContent,
  searchText: search.content?.[0]?.text,
  lookup: lookup.structuredContent,
  invalid,
  incompatible,
}));
await client.close();
