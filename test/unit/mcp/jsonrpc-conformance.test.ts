/**
 * JSON-RPC 2.0 as specified on the MCP endpoint's socket (src/mcp/socketTransport.ts,
 * src/mcp/jsonRpcMessage.ts, src/mcp/toolServer.ts): each malformed message gets its error code
 * with the id when it can be read and null when not, nothing is left unanswered, and the
 * connection answers `tools/list` after each. Real Unix socket, real SDK server, raw lines.
 */
import * as assert from 'node:assert/strict';
import { TOOL_DECLARATIONS } from '../../../src/tools/toolDeclarations';
import { TOOL_INPUT_MESSAGE } from '../../../src/tools/inputError';
import { LineClient, lineClient } from '../../helpers/mcpLineClient';
import { declaredToolServer } from '../../helpers/declaredToolServer';

type ErrorAnswer = { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: unknown } };

/** Asserts `answer` is an error response with `code` and `id` and a message matching `message`. */
function isError(answer: unknown, code: number, id: unknown, message: RegExp): void {
  const a = answer as ErrorAnswer;
  assert.equal(a.jsonrpc, '2.0', JSON.stringify(answer));
  assert.ok(Object.hasOwn(a, 'id'), `the answer has an id member: ${JSON.stringify(answer)}`);
  assert.equal(a.id, id, JSON.stringify(answer));
  assert.equal(a.error?.code, code, JSON.stringify(answer));
  assert.match(a.error.message, message);
}

/** A 30-digit id: a JSON number beyond 2^53, which JavaScript cannot hold exactly. */
const THIRTY_DIGITS = '123456789012345678901234567890';

/** Each malformed message, the code it gets, the id the answer carries, and what the message says. */
const MALFORMED: { what: string; line: string; code: number; id: unknown; message: RegExp }[] = [
  {
    what: 'jsonrpc "1.0"',
    line: '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
    code: -32600,
    id: 1,
    message: /"jsonrpc" must be "2\.0" \(got "1\.0"\)/,
  },
  {
    what: 'jsonrpc missing',
    line: '{"id":2,"method":"tools/list"}',
    code: -32600,
    id: 2,
    message: /"jsonrpc" must be "2\.0" \(got nothing\)/,
  },
  {
    what: 'jsonrpc numeric',
    line: '{"jsonrpc":2,"id":"three","method":"tools/list"}',
    code: -32600,
    id: 'three',
    message: /"jsonrpc" must be "2\.0" \(got 2\)/,
  },
  {
    what: 'an id of 30 digits',
    line: `{"jsonrpc":"2.0","id":${THIRTY_DIGITS},"method":"tools/list"}`,
    code: -32600,
    id: null,
    message: /"id" must be a string or an integer within ±\(2\^53 − 1\)/,
  },
  {
    what: 'an id of 1e308',
    line: '{"jsonrpc":"2.0","id":1e308,"method":"tools/list"}',
    code: -32600,
    id: null,
    message: /"id" must be a string or an integer .*got 1e\+308/,
  },
  {
    what: '"method": 42',
    line: '{"jsonrpc":"2.0","id":7,"method":42}',
    code: -32600,
    id: 7,
    message: /"method" must be a string naming the method \(got 42\)/,
  },
  {
    what: '"params": "x"',
    line: '{"jsonrpc":"2.0","id":8,"method":"tools/list","params":"x"}',
    code: -32600,
    id: 8,
    message: /"params" must be an object .*got "x"/,
  },
  { what: 'invalid JSON', line: 'this is not JSON', code: -32700, id: null, message: /^Parse error: the message is not valid JSON/ },
  { what: 'truncated JSON', line: '{"jsonrpc":"2.0","id":10,"method":"tools/li', code: -32700, id: null, message: /^Parse error/ },
  { what: 'an empty array', line: '[]', code: -32600, id: null, message: /an empty array is neither a message nor a batch/ },
  {
    what: 'an object id',
    line: '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}',
    code: -32600,
    id: null,
    message: /"id" must be .*got \{"a":1\}/,
  },
  {
    what: 'a null id',
    line: '{"jsonrpc":"2.0","id":null,"method":"tools/list"}',
    code: -32600,
    id: null,
    message: /MCP allows no null id \(got null\)/,
  },
  {
    what: 'a string that is valid JSON',
    line: '"tools/list"',
    code: -32600,
    id: null,
    message: /a message is a JSON object, not "tools\/list"/,
  },
  {
    what: 'tools/call with arguments as a string',
    line: '{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"dsh_terminal_list","arguments":"x"}}',
    code: -32602,
    id: 14,
    message: /^dsh_terminal_list: `arguments` is not an object \(got "x"\); valid: an empty object \{\}/,
  },
  {
    what: 'tools/call with params as an array',
    line: '{"jsonrpc":"2.0","id":15,"method":"tools/call","params":["dsh_terminal_list"]}',
    code: -32600,
    id: 15,
    message: /"params" must be an object/,
  },
  {
    what: 'tools/call without a name',
    line: '{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"arguments":{}}}',
    code: -32602,
    id: 16,
    message: /^tools\/call params\.name must be the name of a tool \(a string\), not undefined; tools: dsh_run, /,
  },
];

describe('MCP endpoint: JSON-RPC 2.0 conformance', function () {
  this.timeout(30_000);
  let client: LineClient;
  let calls: string[];
  beforeEach(async () => {
    calls = [];
    client = await lineClient(declaredToolServer(calls));
  });
  afterEach(() => client.dispose());

  for (const m of MALFORMED) {
    it(`${m.what}: error ${m.code} with id ${JSON.stringify(m.id)}, and the connection still answers tools/list`, async () => {
      const answer = client.next(`the answer to ${m.what}`);
      client.send(m.line);
      isError(await answer, m.code, m.id, m.message);
      const list = await client.listTools(100);
      assert.equal(list.id, 100);
      assert.equal((list.result as { tools: unknown[] }).tools.length, TOOL_DECLARATIONS.length);
      assert.equal(client.closed(), false);
      assert.deepEqual(calls, [], 'nothing ran');
    });
  }

  it('arguments as a string: the error data carries the input error fields', async () => {
    const answer = client.next('the answer');
    client.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dsh_run","arguments":"make"}}');
    const a = (await answer) as ErrorAnswer;
    assert.deepEqual(a.error.data, {
      tool: 'dsh_run',
      property: 'arguments',
      problem: 'is not an object',
      given: '"make"',
      valid: "an object of dsh_run's inputs: command, timeoutMs? (? optional)",
    });
    assert.match(a.error.message, TOOL_INPUT_MESSAGE);
  });

  /** Sends `initialize` asking for `version` and `notifications/initialized`; resolves once answered. */
  async function initialize(version: string): Promise<void> {
    const answer = client.next('the answer to initialize');
    client.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'conformance', version: '1' } },
      }),
    );
    const a = (await answer) as { result: { protocolVersion: string } };
    assert.equal(a.result.protocolVersion, version);
    client.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  const batch = JSON.stringify([
    { jsonrpc: '2.0', id: 'b1', method: 'tools/list' },
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    { jsonrpc: '2.0', id: 'b2', method: 'tools/call', params: { name: 'dsh_terminal_list', arguments: {} } },
    { jsonrpc: '1.0', id: 'b3', method: 'tools/list' },
  ]);

  it('a batch under MCP 2025-03-26 is answered as one array: a result per request, an error per invalid element, nothing for a notification', async () => {
    await initialize('2025-03-26');
    const answer = client.next('the batch answer');
    client.send(batch);
    const a = (await answer) as { id: string; result?: unknown; error?: { code: number } }[];
    assert.ok(Array.isArray(a), JSON.stringify(a).slice(0, 200));
    assert.deepEqual(a.map((r) => r.id).sort(), ['b1', 'b2', 'b3']);
    assert.equal(a.find((r) => r.id === 'b3')!.error!.code, -32600);
    assert.deepEqual(a.find((r) => r.id === 'b2')!.result, { content: [{ type: 'text', text: 'ran' }] });
    assert.equal((a.find((r) => r.id === 'b1')!.result as { tools: unknown[] }).tools.length, TOOL_DECLARATIONS.length);
    assert.deepEqual(calls, ['dsh_terminal_list']);
    assert.equal((await client.listTools(101)).id, 101);
  });

  for (const version of ['2025-06-18', '2025-11-25', undefined]) {
    it(`a batch ${version ? `under MCP ${version}` : 'before initialize'} is refused: an Invalid Request error for each request in it, and nothing in it runs`, async () => {
      if (version) await initialize(version);
      const answer = client.next('the batch answer');
      client.send(batch);
      const a = (await answer) as ErrorAnswer[];
      assert.ok(Array.isArray(a), JSON.stringify(a).slice(0, 200));
      assert.deepEqual(
        a.map((r) => r.id),
        ['b1', 'b2', 'b3'],
      );
      for (const r of a) assert.equal(r.error.code, -32600);
      assert.match(
        a[0]!.error.message,
        version
          ? new RegExp(`MCP ${version}, the protocol version of this connection, has no JSON-RPC batches`)
          : /a JSON-RPC batch before initialize/,
      );
      assert.deepEqual(calls, [], 'nothing in the refused batch ran');
      assert.equal((await client.listTools(102)).id, 102);
    });
  }

  it('a refused batch of notifications only gets one Invalid Request error with id null', async () => {
    await initialize('2025-06-18');
    const answer = client.next('the batch answer');
    client.send(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }]));
    isError(await answer, -32600, null, /has no JSON-RPC batches/);
    assert.equal((await client.listTools(103)).id, 103);
  });
});
