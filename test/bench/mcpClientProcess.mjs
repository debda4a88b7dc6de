// @ts-check
// An MCP client in a process of its own, as an agent outside VS Code is (Claude Code, Codex CLI):
// the SDK's real Client launches the shipped stdio bridge to the window's endpoint, and the bench
// in the extension host drives it over stdin/stdout, one JSON line each way:
//   {"op":"burst","calls":[{"name":"…","arguments":{…}},…]}  every call at once; answers
//       {"results":[{"took":ms,"isError":bool,"first":"the first text item","json":{…}|null},…]},
//       each call timed here (ms, from sending it to its answer);
//   {"op":"close"}  closes the client (its sessions close with its connection) and exits.
// Started with: node mcpClientProcess.mjs BRIDGE_PATH CLIENT_NAME, in the environment the bridge
// gets (PATH, the endpoint variable). Plain Node, for the limits part of bench:host
// (hostLimits.ts): the caller's own work stays off the host thread.
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [bridge, name] = process.argv.slice(2);
if (!bridge || !name) throw new Error('usage: node mcpClientProcess.mjs BRIDGE_PATH CLIENT_NAME');

const client = new Client({ name, version: '0.0.1' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [bridge],
    env: /** @type {Record<string, string>} */ (process.env),
    stderr: 'inherit',
  }),
);

/**
 * One timed call: its answer's first text item, parsed as JSON when it is not an error; a call
 * that throws (a protocol error, such as a message over the window's limit) counts as refused.
 * @param {{ name: string, arguments: Record<string, unknown> }} call
 */
async function timed(call) {
  const start = performance.now();
  try {
    const r = await client.callTool(call, undefined, { timeout: 120_000 });
    const texts = /** @type {{ type: string, text?: string }[]} */ (r.content).filter((p) => p.type === 'text');
    const first = texts[0]?.text ?? '';
    return { took: performance.now() - start, isError: r.isError === true, first, json: r.isError ? null : JSON.parse(first) };
  } catch (e) {
    return { took: performance.now() - start, isError: true, first: e instanceof Error ? e.message : String(e), json: null };
  }
}

process.stdout.write(JSON.stringify({ ready: true }) + '\n');
for await (const line of createInterface({ input: process.stdin })) {
  const command = /** @type {{ op: 'burst', calls: { name: string, arguments: Record<string, unknown> }[] } | { op: 'close' }} */ (
    JSON.parse(line)
  );
  if (command.op === 'close') break;
  const results = await Promise.all(command.calls.map(timed));
  process.stdout.write(JSON.stringify({ results }) + '\n');
}
await client.close();
process.exit(0);
