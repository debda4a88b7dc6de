/**
 * The MCP transport's line splitter (src/mcp/lineSplitter.ts): lines split at `\n` however the
 * bytes are cut into chunks, and the bound on a line's length, newline or not.
 */
import * as assert from 'node:assert/strict';
import { LineSplitter, LineTooLongError } from '../../src/mcp/lineSplitter';

/** Every complete line `splitter` holds, as text. */
function drain(splitter: LineSplitter): string[] {
  const lines: string[] = [];
  for (let line = splitter.next(); line !== undefined; line = splitter.next()) lines.push(line.toString('utf8'));
  return lines;
}

describe('MCP line splitter', () => {
  const text = 'first\n\nsecond ééé\r\n{"a":"' + 'x'.repeat(5000) + '"}\nunfinished';
  const bytes = Buffer.from(text);
  const expected = ['first', '', 'second ééé\r', '{"a":"' + 'x'.repeat(5000) + '"}'];

  for (const size of [1, 2, 3, 7, 4096, bytes.length]) {
    it(`finds the same lines in chunks of ${size} byte${size === 1 ? '' : 's'} (characters and CRLF cut too)`, () => {
      const splitter = new LineSplitter(1 << 20, 'test');
      const lines: string[] = [];
      for (let at = 0; at < bytes.length; at += size) {
        splitter.push(bytes.subarray(at, at + size));
        lines.push(...drain(splitter));
      }
      assert.deepEqual(lines, expected);
      assert.equal(splitter.unfinishedBytes, Buffer.byteLength('unfinished'));
      splitter.push(Buffer.from('\n'));
      assert.deepEqual(drain(splitter), ['unfinished']);
      assert.equal(splitter.unfinishedBytes, 0);
    });
  }

  it('takes a line of exactly the bound and refuses one byte more, within a chunk or across chunks', () => {
    const at = (bytes: number) => Buffer.alloc(bytes, 'y'.charCodeAt(0));
    const splitter = new LineSplitter(10, 'it is a test');
    splitter.push(Buffer.concat([at(10), Buffer.from('\n')]));
    assert.equal(drain(splitter)[0], 'y'.repeat(10));
    assert.throws(() => splitter.push(Buffer.concat([at(11), Buffer.from('\n')])), (e: unknown) => e instanceof LineTooLongError && e.message === 'a message of more than 10 bytes: it is a test');
    splitter.push(at(6));
    assert.throws(() => splitter.push(at(5)), LineTooLongError, 'no newline yet: refused as it passes the bound');
    assert.equal(splitter.unfinishedBytes, 0, 'emptied');
    assert.throws(() => new LineSplitter(2 * 1024 * 1024, 'why').push(Buffer.alloc(2 * 1024 * 1024 + 1)), /^Error: a message of more than 2097152 bytes \(2 MiB\): why$/);
  });

  it('refuses a bound that is not a positive whole number of bytes', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) assert.throws(() => new LineSplitter(bad, 'x'), /maxLineBytes must be a positive whole number of bytes, not /);
  });
});
