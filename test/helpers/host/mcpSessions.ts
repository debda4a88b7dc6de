// A test's terminal sessions over MCP, the way an agent outside Copilot has them: one approved MCP
// client for the describe block, and a fresh session for each test.
import * as vscode from 'vscode';
import { TERMINAL_TOOLS, waitForTools } from './lm';
import { McpTestClient, callTool, connectClient, terminalEndpointValue } from './mcp';
import { until } from '../wait';

/**
 * A tool call as a test makes it, through `vscode.lm.invokeTool` or over MCP alike: the result's
 * JSON and text; a tool error rejects.
 */
export type ToolCall = <T = Record<string, unknown>>(name: string, input: object) => Promise<{ json: T; text: string | undefined }>;

/**
 * Registers mocha hooks in the calling `describe`: before all, an MCP client named
 * `dsh-test-approved` connects once the terminal tools are registered and the extension is
 * active; before each test a session named `name` opens (dsh_terminal_open), after each it is
 * closed; after all the client closes. Returns the call over that client (a tool error rejects
 * with the error's first text) and the open session's id.
 */
export function mcpSessionPerTest(name: string): { call: ToolCall; sessionId: () => string } {
  let client: McpTestClient | undefined;
  let sessionId = '';
  const call: ToolCall = async <T>(tool: string, input: object) => {
    const r = await callTool<T>(client!, tool, input as { [key: string]: unknown });
    if (r.isError) throw new Error(r.first);
    return { json: r.json, text: r.text };
  };
  before(async () => {
    await waitForTools(TERMINAL_TOOLS);
    await until('activation', () => vscode.extensions.getExtension('dsh.dsh-bridge')!.isActive, 30_000);
    client = await connectClient('dsh-test-approved', await terminalEndpointValue());
  });
  after(async () => client?.close().catch(() => undefined));
  beforeEach(async () => {
    sessionId = (await call<{ sessionId: string }>('dsh_terminal_open', { name })).json.sessionId;
  });
  afterEach(async () => {
    if (client) await callTool(client, 'dsh_terminal_close', { sessionId }).catch(() => undefined);
  });
  return { call, sessionId: () => sessionId };
}
