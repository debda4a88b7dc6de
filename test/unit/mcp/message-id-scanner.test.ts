/**
 * The scanner that reads the top-level id of a message too long to read (src/mcp/messageIdScanner.ts):
 * the id wherever it lies, whatever the strings around it hold, however the bytes are cut; and
 * "incomplete" for anything that is not one JSON object.
 */
import * as assert from 'node:assert/strict';
import { MAX_CAPTURE_BYTES, MessageIdScanner, type ScannedMessage } from '../../../src/mcp/messageIdScanner';

/** What the scanner makes of `text` pushed in pieces of `size` bytes. */
function scan(text: string | Buffer, size = Infinity): ScannedMessage {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const scanner = new MessageIdScanner();
  for (let at = 0; at < bytes.length; at += size) scanner.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
  return scanner.result();
}

const request = (id: ScannedMessage['id']): ScannedMessage => ({ complete: true, id, hasMethod: true, isAnswer: false });

describe('MCP message id scanner', () => {
  const tricky = 'a"b\\c\u2028é{"id":1}\\';
  const cases: [string, string, ScannedMessage][] = [
    ['the id first', '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":[1,{"y":null}]}}', request(7)],
    // The TypeScript SDK's Client: `{ ...request, jsonrpc, id }`.
    [
      'the id last, after ids inside params and strings',
      `{"method":"tools/call","params":{"id":5,"text":${JSON.stringify(`"id":9,${tricky}`)},"arr":[{"id":6}]},"jsonrpc":"2.0","id":42}`,
      request(42),
    ],
    ['a string id with escapes', JSON.stringify({ jsonrpc: '2.0', id: tricky, method: 'm' }), request(tricky)],
    ['an escaped key', '{"method":"m","\\u0069d":3}', request(3)],
    ['a key that only starts like id', '{"method":"m","idx":3,"i":4}', request(undefined)],
    ['two ids: the last, as JSON.parse reads it', '{"id":1,"method":"m","id":"two"}', request('two')],
    ['white space and a CR', ' {\t"id" : -1.5e3 ,"method" :"m" }\r', request(-1500)],
    ['a null id', '{"id":null,"method":"m"}', request(null)],
    ['an object id', '{"id":{"a":1},"method":"m"}', request(null)],
    ['a number too large', '{"id":1e400,"method":"m"}', request(null)],
    ['a literal id', '{"id":true,"method":"m"}', request(null)],
    ['an id too long to keep', JSON.stringify({ id: 'i'.repeat(MAX_CAPTURE_BYTES + 1), method: 'm' }), request(null)],
    [
      'an id of exactly the room',
      JSON.stringify({ id: 'i'.repeat(MAX_CAPTURE_BYTES - 2) + '\\', method: 'm' }),
      request('i'.repeat(MAX_CAPTURE_BYTES - 2) + '\\'),
    ],
    ['a notification', '{"jsonrpc":"2.0","method":"notifications/progress","params":{"id":1}}', request(undefined)],
    ['an answer', '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}', { complete: true, id: 3, hasMethod: false, isAnswer: true }],
    ['an empty object', '{}', { complete: true, id: undefined, hasMethod: false, isAnswer: false }],
  ];
  for (const [what, text, expected] of cases) {
    it(`${what}: ${text.length > 90 ? text.slice(0, 90) + '…' : text}`, () => {
      for (const size of [1, 2, 3, 7, Infinity]) assert.deepEqual(scan(text, size), expected, `in pieces of ${size}`);
    });
  }

  it('anything but one JSON object is incomplete', () => {
    for (const text of [
      'x'.repeat(100),
      '{"id":1,"params":{"a":"b',
      '{"id":1}x',
      '{"id":1,"p":[}',
      '{"id":1,"p":{]}',
      '{"id":1,}',
      '{"id" 1}',
      '{"id":1 2}',
      '{"id":}',
      '[{"id":1}]',
      '{"id":1"x"}',
      '{"id":1}{"id":2}',
      '{"p":' + '['.repeat(2000) + ']'.repeat(2000) + ',"id":1}',
    ]) {
      for (const size of [1, 5, Infinity]) assert.equal(scan(text, size).complete, false, `${text.slice(0, 40)} in pieces of ${size}`);
    }
  });

  it('reads 16 MiB of escapes and brackets in time linear in the bytes', () => {
    const escapes = '\\"'.repeat(4 * 1024 * 1024); // every quote escaped: a quote and a backslash at every step
    const brackets = '[[1,2],{"a":[3]}],'.repeat(450_000); // stepped byte by byte
    const text = Buffer.from(`{"method":"m","params":{"text":"${escapes}","list":[${brackets}0]},"jsonrpc":"2.0","id":"end"}`);
    const before = process.cpuUsage();
    const result = scan(text, 65536);
    const used = process.cpuUsage(before);
    const ms = (used.user + used.system) / 1000;
    assert.deepEqual(result, request('end'));
    // About 0.1 s here; looking up each quote again after every backslash would take hours.
    assert.ok(ms < 5000, `${(text.length / 1048576).toFixed(1)} MiB took ${ms.toFixed(0)} ms of CPU`);
  });
});
