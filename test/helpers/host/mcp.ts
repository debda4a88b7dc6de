// Helpers for driving DSH Bridge over MCP the way an agent outside Copilot does: the stdio bridge
// shipped in the VSIX, launched by the MCP SDK's real `Client` (StdioClientTransport), with the
// window's DSH_BRIDGE_MCP as a real integrated terminal of this window sees it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { until } from '../wait';

export const ENDPOINT_ENV = 'DSH_BRIDGE_MCP';

/** The bridge inside the installed extension. */
export function bridgePath(): string {
  return path.join(vscode.extensions.getExtension('dsh.dsh-bridge')!.extensionPath, 'dist', 'mcp-bridge.js');
}

/**
 * `DSH_BRIDGE_MCP` as a new integrated terminal of this window has it: a real terminal runs
 * `/bin/sh -c 'printf %s "$DSH_BRIDGE_MCP" > file'`. The collection reaches new terminals
 * asynchronously, so new terminals are tried until one has a value (`want: 'value'`) or none
 * (`want: 'none'`, returns ''), for up to `timeoutMs`.
 */
export async function terminalEndpointValue(want: 'value' | 'none' = 'value', timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let i = 0;
  const seen = await until(
    want === 'value' ? `${ENDPOINT_ENV} to reach the integrated terminals` : `${ENDPOINT_ENV} to leave new terminals`,
    async () => {
      const value = await valueInNewTerminal(i++, deadline - Date.now());
      return (want === 'value') === (value !== '') && { value };
    },
    timeoutMs,
    300,
  );
  return seen.value;
}

/** `DSH_BRIDGE_MCP` as a new integrated terminal (named `env probe <i>`, closed after) sees it. */
async function valueInNewTerminal(i: number, timeoutMs: number): Promise<string> {
  const out = path.join(os.tmpdir(), `dsh-mcp-env-${process.pid}-${i}`);
  fs.rmSync(out, { force: true });
  const terminal = vscode.window.createTerminal({
    name: `env probe ${i}`,
    shellPath: '/bin/sh',
    shellArgs: ['-c', `printf %s "$${ENDPOINT_ENV}" > '${out}.tmp' && mv '${out}.tmp' '${out}'`],
  });
  try {
    await until(`the integrated terminal env probe ${i} to run its command`, () => fs.existsSync(out), Math.max(timeoutMs, 0), 100);
    const value = fs.readFileSync(out, 'utf8');
    fs.rmSync(out, { force: true });
    return value;
  } finally {
    terminal.dispose();
  }
}

/** A connected MCP client plus its bridge's stderr. */
export interface McpTestClient {
  client: Client;
  stderr: () => string;
  transport: StdioClientTransport;
  close(): Promise<void>;
}

/** Connects the SDK `Client` named `name` through the bridge to the endpoint `value`. */
export async function connectClient(name: string, value: string): Promise<McpTestClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bridgePath()],
    env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1', [ENDPOINT_ENV]: value },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  const client = new Client({ name, version: '0.0.1' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/** A tool call's result: the JSON of the first text item, the second item's text, and isError. */
export interface McpCall<T = Record<string, unknown>> {
  json: T;
  text: string | undefined;
  isError: boolean;
  /** The first text item as is (the error message when isError). */
  first: string;
}

/** Calls tool `name` with `args` and parses the result like ./lm.ts does for invokeTool. */
export async function callTool<T = Record<string, unknown>>(
  c: McpTestClient,
  name: string,
  args: Record<string, unknown>,
): Promise<McpCall<T>> {
  const r = await c.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const texts = (r.content as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text ?? '');
  const first = texts[0] ?? '';
  let json = undefined as unknown as T;
  if (!r.isError) json = JSON.parse(first) as T;
  return { json, text: texts[1], isError: r.isError === true, first };
}
