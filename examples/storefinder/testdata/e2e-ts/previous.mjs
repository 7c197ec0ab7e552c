// Independent MCP client for the storefinder's previous-version test: a
// Platform on 2026-08-21 discovers its profile through the current one's
// supported_versions, connects to that profile's MCP endpoint with the
// official TypeScript SDK, and calls both tools there. It prints one JSON
// summary line that the Go test checks. Exits non-zero on any failure.
//
//   node previous.mjs http://127.0.0.1:PORT ITEM_ID
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [base, item] = process.argv.slice(2);
if (!base || !item) {
  console.error("usage: node previous.mjs http://127.0.0.1:PORT ITEM_ID");
  process.exit(2);
}
const version = "2026-08-21";

async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`GET ${url}: ${r.status}`);
  return r.json();
}

const current = await getJSON(`${base}/.well-known/ucp`);
const leafURL = current.ucp.supported_versions?.[version];
if (!leafURL) throw new Error(`no supported_versions[${version}] in ${JSON.stringify(current.ucp)}`);
const leaf = await getJSON(leafURL);
const endpoint = leaf.ucp.services["dev.ucp.common"].find((s) => s.transport === "mcp").endpoint;
const currentEndpoint = current.ucp.services["dev.ucp.common"].find((s) => s.transport === "mcp").endpoint;

const meta = { "ucp-agent": { profile: "https://platform.example/profiles/agent.json" } };
const connect = async (url) => {
  const c = new Client({ name: "ucpgen-ts-e2e-previous", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  await c.listTools(); // the SDK checks later results against these outputSchemas
  return c;
};

const client = await connect(endpoint);
const tools = await client.listTools();
const searchTool = tools.tools.find((t) => t.name === "search_locations");
const filterKeys = Object.keys(searchTool.inputSchema.properties.location.properties.filters.properties).sort();

const near = { center: { latitude: 40.7128, longitude: -74.006 }, max: 30000 };
const search = await client.callTool({ name: "search_locations", arguments: { meta, location: { distance: near, pagination: { limit: 5 } } } });
const inventory = await client.callTool({
  name: "search_locations",
  arguments: { meta, location: { filters: { inventory: [{ id: item, availability_status: "in_stock" }] }, pagination: { limit: 5 } } },
});
const ids = (search.structuredContent.locations ?? []).map((l) => l.id);
const lookup = await client.callTool({ name: "lookup_locations", arguments: { meta, location: { ids: [...ids, "no-such-store"] } } });
let itemsError = null;
try {
  await client.callTool({ name: "search_locations", arguments: { meta, location: { filters: { items: [item] } } } });
} catch (e) {
  itemsError = { code: e.code, message: String(e.message) };
}
await client.close();

const cur = await connect(currentEndpoint);
const currentSearch = await cur.callTool({ name: "search_locations", arguments: { meta, location: { distance: near, pagination: { limit: 5 } } } });
await cur.close();

console.log(JSON.stringify({
  leafVersion: leaf.ucp.version,
  endpoint,
  filterKeys,
  search: search.structuredContent,
  inventory: inventory.structuredContent,
  lookup: lookup.structuredContent,
  itemsError,
  current: currentSearch.structuredContent,
}));
