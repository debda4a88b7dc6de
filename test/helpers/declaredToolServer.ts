// The window's MCP server over the declared tools, for tests of what reaches a tool: a call that
// passes validation is recorded in `calls` and answers "ran".
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createToolServer } from '../../src/mcp/toolServer';
import { TOOL_DECLARATIONS } from '../../src/tools/toolDeclarations';

/** A factory of the declared tools' MCP server; each call that reaches a tool pushes its name onto `calls`. */
export function declaredToolServer(calls: string[]): () => Server {
  return () =>
    createToolServer({
      name: 'dsh-bridge',
      version: '0',
      declarations: TOOL_DECLARATIONS,
      call: async (declaration) => {
        calls.push(declaration.name);
        return { content: [{ type: 'text', text: 'ran' }] };
      },
    });
}
