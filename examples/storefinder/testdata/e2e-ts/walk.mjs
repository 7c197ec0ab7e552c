// The Platform walk with the official TypeScript SDK: search with the
// request given as the second argument, follow every page's cursor to the
// last page, then look up the ids found, ten per call. Prints one JSON line,
// {pages, lookups}, each entry a structuredContent as the SDK returned it
// (after checking it against the tool's outputSchema, which listTools
// gives the SDK). The Go test compares it with what the go-sdk client saw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, requestJSON] = process.argv.slice(2);
if (!url || !requestJSON) {
  console.error("usage: node walk.mjs http://127.0.0.1:PORT/ucp/mcp '{\"query\":...}'");
  process.exit(2);
}

const meta = { "ucp-agent": { profile: "https://platform.example/profile.json" } };
const client = new Client({ name: "ucpgen-ts-walk", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
await client.listTools();

async function call(name, location) {
  const r = await client.callTool({ name, arguments: { meta, location } });
  if (r.isError || !r.structuredContent) {
    throw new Error(`${name}: ${JSON.stringify(r)}`);
  }
  return r.structuredContent;
}

const request = JSON.parse(requestJSON);
const pages = [];
const ids = [];
for (let cursor = null; ; ) {
  const location = structuredClone(request);
  if (cursor !== null) {
    location.pagination = { ...location.pagination, cursor };
  }
  const page = await call("search_locations", location);
  pages.push(page);
  ids.push(...page.locations.map((l) => l.id));
  if (!page.pagination?.has_next_page) break;
  if (pages.length > 1000) throw new Error("the walk did not end after 1000 pages");
  cursor = page.pagination.cursor;
}
const lookups = [];
for (let i = 0; i < ids.length; i += 10) {
  lookups.push(await call("lookup_locations", { ids: ids.slice(i, i + 10) }));
}
console.log(JSON.stringify({ pages, lookups }));
await client.close();
