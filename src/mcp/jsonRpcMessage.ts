/**
 * One line a client sent, read as JSON-RPC 2.0 (https://www.jsonrpc.org/specification) with
 * MCP's rules on top (the SDK's `JSONRPCMessageSchema`: `jsonrpc` "2.0", an `id` that is a string
 * or an integer, never null; `params` an object): a message to hand on, a batch (a JSON array),
 * or the error response the line gets instead:
 * - not JSON: Parse error (−32700), id null;
 * - JSON that is not a valid message (not an object, `jsonrpc` not "2.0", `method` not a string,
 *   `params` not an object, an id of a wrong type, an empty array): Invalid Request (−32600) with
 *   the message's id when it can be read (a string, or an integer within ±(2^53 − 1), which
 *   JavaScript holds exactly), else null; its message says which member is wrong and what is
 *   valid;
 * - a malformed answer (a `result` or `error` and no `method`): no response (JSON-RPC never
 *   answers a response), only the reason.
 * Plain Node, no `vscode` import.
 */
import { errorMessage } from '../common/errorMessage';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { quoteInput } from '../common/quoteInput';

/** What one element of a line (the line, or one element of a batch) is. */
export type ReadElement =
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  /** Not a valid message: `response` is what the client gets (undefined: nothing, for a malformed answer); `why` says what is wrong. */
  | { readonly kind: 'invalid'; readonly response: JSONRPCErrorResponse | undefined; readonly why: string };

/** What a line is: one element, or a batch of them (a non-empty JSON array). */
export type ReadLine = ReadElement | { readonly kind: 'batch'; readonly elements: readonly ReadElement[] };

/** An error response with `id` (null when it cannot be read). */
function errorResponse(code: number, message: string, id: RequestId | null): JSONRPCErrorResponse {
  // MCP's type has no null id; JSON-RPC 2.0 requires it where the id cannot be read.
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message } };
}

/** The id of `value` when it is one the window can answer with exactly: a string or a safe integer. */
export function usableId(value: unknown): RequestId | undefined {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value)) ? value : undefined;
}

/** Reads one line (its text without the newline); see the module comment. */
export function readLine(text: string): ReadLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const why = `Parse error: the message is not valid JSON (${errorMessage(e)}); send one JSON-RPC 2.0 message per line`;
    return { kind: 'invalid', response: errorResponse(ErrorCode.ParseError, why, null), why };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      const why = 'Invalid Request: an empty array is neither a message nor a batch; send a JSON-RPC 2.0 message object';
      return { kind: 'invalid', response: errorResponse(ErrorCode.InvalidRequest, why, null), why };
    }
    return { kind: 'batch', elements: value.map(readElement) };
  }
  return readElement(value);
}

/** Reads one parsed element (a line's value, or one element of a batch). */
function readElement(value: unknown): ReadElement {
  const parsed = typeof value === 'object' && value !== null && !Array.isArray(value) ? JSONRPCMessageSchema.safeParse(value) : undefined;
  if (parsed?.success) return { kind: 'message', message: parsed.data };
  const why = `Invalid Request: ${problemOf(value)}`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (!('method' in v) && ('result' in v || 'error' in v))
      return { kind: 'invalid', response: undefined, why: `a malformed answer was not read: ${why}` };
    return { kind: 'invalid', response: errorResponse(ErrorCode.InvalidRequest, why, usableId(v.id) ?? null), why };
  }
  return { kind: 'invalid', response: errorResponse(ErrorCode.InvalidRequest, why, null), why };
}

/** What is wrong with `value` as a JSON-RPC 2.0 message under MCP's rules, as a sentence. */
function problemOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `a message is a JSON object, not ${quoteInput(value)}`;
  const v = value as Record<string, unknown>;
  if (v.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0" (got ${'jsonrpc' in v ? quoteInput(v.jsonrpc) : 'nothing'})`;
  if ('id' in v && usableId(v.id) === undefined) {
    return `"id" must be a string or an integer within ±(2^53 − 1), which the answer can repeat exactly; MCP allows no null id (got ${quoteInput(v.id)})`;
  }
  if ('method' in v) {
    if (typeof v.method !== 'string') return `"method" must be a string naming the method (got ${quoteInput(v.method)})`;
    if ('params' in v && (typeof v.params !== 'object' || v.params === null || Array.isArray(v.params)))
      return `"params" must be an object (MCP passes parameters by name; got ${quoteInput(v.params)})`;
    return 'the message does not have the form of a JSON-RPC 2.0 request or notification';
  }
  if (!('id' in v)) return 'a message needs a "method" (a request or a notification) or an "id" with a "result" or an "error" (an answer)';
  return 'a request needs a "method": a string naming the method';
}
