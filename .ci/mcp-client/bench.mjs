// The figures of `storectl mcp` in the client (scripts/bench-mcp.sh runs
// it): start to first answer, warm tool calls, idle memory.
//
// Usage: node bench.mjs STORECTL_BINARY EMAIL STARTS CALLS
//   start      STARTS servers, each timed from spawning it to the answer of
//              its first find_submissions call (initialize included)
//   warm       CALLS calls each of find_submissions by e-mail and demand by
//              product and by variant on one server, after 5 unmeasured
//   idle RSS   that server's resident memory (VmRSS) after 2 s idle
// Prints "name median min max" lines, in milliseconds and MiB.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, email, starts, calls] = process.argv.slice(2);
const find = { name: "find_submissions", arguments: { email } };

async function connect() {
  const transport = new StdioClientTransport({ command: bin, args: ["mcp"], env: { ...process.env }, stderr: "ignore" });
  const client = new Client({ name: "storectl-bench", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

async function call(client, req) {
  const res = await client.callTool(req);
  if (res.isError) throw new Error(`${req.name}: ${res.content?.[0]?.text}`);
  return res;
}

function line(name, values, unit = "") {
  const v = [...values].sort((a, b) => a - b);
  const f = (x) => x.toFixed(2);
  console.log(`${name} ${f(v[Math.floor((v.length - 1) / 2)])} ${f(v[0])} ${f(v[v.length - 1])}${unit}`);
}

const first = [];
for (let i = 0; i < Number(starts); i++) {
  const t0 = performance.now();
  const { client } = await connect();
  await call(client, find);
  first.push(performance.now() - t0);
  await client.close();
}
line("start-to-first-answer", first);

const { client, transport } = await connect();
const warm = { "find-email": find, "demand-product": { name: "demand", arguments: {} }, "demand-variant": { name: "demand", arguments: { by: "variant" } } };
for (const req of Object.values(warm)) {
  for (let i = 0; i < 5; i++) await call(client, req);
}
const times = Object.fromEntries(Object.keys(warm).map((k) => [k, []]));
for (let i = 0; i < Number(calls); i++) {
  for (const [k, req] of Object.entries(warm)) {
    const t0 = performance.now();
    await call(client, req);
    times[k].push(performance.now() - t0);
  }
}
for (const [k, v] of Object.entries(times)) line(`warm-${k}`, v);

await new Promise((r) => setTimeout(r, 2000));
const status = readFileSync(`/proc/${transport.pid}/status`, "utf8");
const mib = (field) => (Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024).toFixed(1);
console.log(`idle-rss-mib ${mib("VmRSS")} (anonymous ${mib("RssAnon")}, file ${mib("RssFile")}; peak ${mib("VmHWM")})`);
await client.close();
