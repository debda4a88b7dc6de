/**
 * The MCP server of one connection (the official SDK's `Server`), serving the declared tools
 * (src/tools/toolDeclarations.ts): `tools/list` shows each declaration's name, description and
 * input schema; `tools/call` checks its params before the tool runs:
 * - `params` that are not an object, a `name` that is not a string, or `arguments` that are not
 *   an object: a JSON-RPC error Invalid Params (−32602) with one sentence naming the argument
 *   (for `arguments`, the tool input error shape, src/tools/inputError.ts, with its fields as
 *   `data`), as MCP's tools specification lists "invalid arguments" among protocol errors;
 * - `arguments` that are an object but not as the tool declares: a tool result with `isError` and
 *   the input error's message, so the model reads what to fix (MCP 2025-11-25: "input validation
 *   errors" are tool execution errors, which clients hand to the model).
 * Then the call goes to `call`, with the arguments as validated. Plain Node, no `vscode` import.
 *
 * The SDK's `Server` checks a `tools/call` request against its own schema before the handler and
 * answers a failure with the schema library's dump of issues; the handler here is registered on
 * the protocol layer underneath (`Protocol.setRequestHandler`) so that it is the one to answer.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResult, ErrorCode, ListToolsRequestSchema, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { quoteInput } from '../common/quoteInput';
import { inputJsonSchema } from '../tools/contribution';
import type { ToolDeclaration } from '../tools/declaration';
import { ToolInputError } from '../tools/inputError';
import { validateToolInput } from '../tools/validateInput';

/** What a request handler of the SDK gets besides the request. */
export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What {@link createToolServer} needs. */
export interface ToolServerOptions {
  /** The server's name and version (`initialize`'s `serverInfo`). */
  readonly name: string;
  readonly version: string;
  /** The tools served, in order. */
  readonly declarations: readonly ToolDeclaration[];
  /**
   * Runs the tool `declaration` with `input` (validated as declared) and answers it; a thrown
   * error becomes a JSON-RPC error (an Internal Error unless it carries a `code`).
   */
  call(declaration: ToolDeclaration, input: Record<string, unknown>, extra: RequestExtra): Promise<CallToolResult>;
  /**
   * The answer to a call of a tool not declared: by default a tool result with `isError` naming
   * the tools there are.
   */
  unknownTool?(name: string): CallToolResult;
}

/** The MCP `Tool` entries of `declarations`: name, description (the model's) and input schema. */
export function mcpToolList(declarations: readonly ToolDeclaration[]): Tool[] {
  return declarations.map((d) => ({
    name: d.name,
    description: d.modelDescription,
    inputSchema: inputJsonSchema(d) as Tool['inputSchema'],
  }));
}

/** A tool error as MCP reports it: an `isError` result whose text is the message. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A `tools/call` request as it comes, before its params are checked. */
const LooseCallToolRequestSchema = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });

/**
 * An Invalid Params error whose message is `sentence` as it is (the SDK's `McpError` puts "MCP
 * error -32602: " before it), with `data` when given: the SDK answers a thrown error with its
 * `code`, `message` and `data`.
 */
export class InvalidParamsError extends Error {
  readonly code = ErrorCode.InvalidParams;
  constructor(
    sentence: string,
    readonly data?: unknown,
  ) {
    super(sentence);
  }
}

function invalidParams(sentence: string, data?: unknown): InvalidParamsError {
  return new InvalidParamsError(sentence, data);
}

/** Builds the server (not connected yet); see the module comment. */
export function createToolServer(options: ToolServerOptions): Server {
  const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: {} } });
  const tools = mcpToolList(options.declarations);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  const byName = new Map(options.declarations.map((d) => [d.name, d]));
  const handler = async (request: z.output<typeof LooseCallToolRequestSchema>, extra: RequestExtra): Promise<CallToolResult> => {
    const params = request.params;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw invalidParams(`tools/call takes params {name, arguments}: an object naming the tool and its input, not ${quoteInput(params)}`);
    }
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string')
      throw invalidParams(
        `tools/call params.name must be the name of a tool (a string), not ${quoteInput(name)}; tools: ${[...byName.keys()].join(', ')}`,
      );
    const declaration = byName.get(name);
    if (!declaration)
      return options.unknownTool
        ? options.unknownTool(name)
        : errorResult(`no tool named ${quoteInput(name)}; tools: ${[...byName.keys()].join(', ')}`);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      // The input as a whole is `arguments` here; the message and data are the input error's.
      try {
        validateToolInput(declaration, args);
      } catch (e) {
        if (e instanceof ToolInputError) {
          const error = new ToolInputError({ ...e.toJSON(), property: 'arguments' });
          throw invalidParams(error.message, error.toJSON());
        }
        throw e;
      }
    }
    let input: Record<string, unknown>;
    try {
      input = validateToolInput<ToolDeclaration>(declaration, args ?? {});
    } catch (e) {
      if (e instanceof ToolInputError) return errorResult(e.message);
      throw e;
    }
    return options.call(declaration, input, extra);
  };
  // Beneath the Server's own check of tools/call (see the module comment).
  (Protocol.prototype.setRequestHandler as (this: Server, schema: typeof LooseCallToolRequestSchema, h: typeof handler) => void).call(
    server,
    LooseCallToolRequestSchema,
    handler,
  );
  return server;
}
