// Drives `storectl --sandbox mcp` over stdio with the official MCP
// TypeScript SDK's client (its version pinned in package-lock.json):
// initialize, tools/list, a call of each read tool, each answer checked
// against the tool's output schema by the SDK and by hand here; a write
// tool called by name must be refused. Any failure exits 1.
//
// Usage: node client.mjs STORECTL_BINARY   (run.sh sets up its home)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const bin = process.argv[2];
if (!bin) {
  console.error("usage: node client.mjs STORECTL_BINARY");
  process.exit(2);
}

const readTools = {
  find_submissions: { email: "zoe.tanaka@example.com" },
  demand: { by: "variant", limit: 3 },
  report: { limit: 3 },
  preorder_winner: { variant_id: "45001234560091" },
  offers: { limit: 3 },
  comingsoon_rules: { limit: 3 },
  catalog_search: { term: "boots", limit: 3 },
  catalog_filter: { limit: 3 },
  mirror_status: {},
  mirror_sync: { lists: ["bis"] },
};

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

const transport = new StdioClientTransport({
  command: bin,
  args: ["--sandbox", "mcp"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "storectl-ci", version: "1.0.0" });
await client.connect(transport);
const server = client.getServerVersion();
check(server?.name === "storectl", `initialize: server ${server?.name} ${server?.version}`);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
check(JSON.stringify(names) === JSON.stringify(Object.keys(readTools).sort()), `tools/list: ${names.join(", ")}`);
for (const t of tools) {
  check(t.annotations?.readOnlyHint === true && t.outputSchema?.type === "object", `${t.name}: read-only, with an output schema`);
}

for (const [name, args] of Object.entries(readTools)) {
  try {
    // The SDK validates structuredContent against the tool's outputSchema.
    const res = await client.callTool({ name, arguments: args });
    const sc = res.structuredContent;
    const fine = !res.isError && sc && typeof sc.freshness === "string" && typeof sc.truncated === "boolean" &&
      ["mirror", "store", "catalog"].includes(sc.source) && "total" in sc &&
      (Array.isArray(sc.items) ? sc.items.length === sc.returned : typeof sc.data === "object");
    check(fine, `${name}: ${res.isError ? res.content?.[0]?.text : `${sc.returned} of ${sc.total} from the ${sc.source}, ${sc.freshness}`}`);
  } catch (err) {
    check(false, `${name}: ${err}`);
  }
}

const refused = await client.callTool({ name: "comingsoon_apply", arguments: { plan_id: "0123456789abcdef01234567" } });
check(refused.isError === true && /without --allow-writes/.test(refused.content?.[0]?.text ?? ""), "a write tool called by name is refused");

await client.close();
console.log(failures ? `${failures} check(s) failed` : "every check passed");
process.exit(failures ? 1 : 0);
