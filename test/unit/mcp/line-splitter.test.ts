/**
 * The MCP transport's line splitter (src/mcp/lineSplitter.ts): lines split at `\n` however the
 * bytes are cut into chunks, and a line past the bound, newline or not, given to its watcher and
 * never held.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { LineSplitter, OverlongLine } from '../../../src/mcp/lineSplitter';

/** A watcher that keeps the digest and length of what it was given. */
class Digest {
  readonly hash = createHash('sha256');
  bytes = 0;
  push(piece: Buffer): void {
    this.hash.update(piece);
    this.bytes += piece.length;
  }
}

/** Every complete line `splitter` holds, as text (`<N bytes>` for an overlong one). */
function drain(splitter: LineSplitter<Digest>): string[] {
  const lines: string[] = [];
  for (let line = splitter.next(); line !== undefined; line = splitter.next())
    lines.push(line instanceof OverlongLine ? `<${line.bytes} bytes>` : line.toString('utf8'));
  return lines;
}

describe('MCP line splitter', () => {
  const text = 'first\n\nsecond ééé\r\n{"a":"' + 'x'.repeat(5000) + '"}\nunfinished';
  const bytes = Buffer.from(text);
  const expected = ['first', '', 'second ééé\r', '{"a":"' + 'x'.repeat(5000) + '"}'];

  for (const size of [1, 2, 3, 7, 4096, bytes.length]) {
    it(`finds the same lines in chunks of ${size} byte${size === 1 ? '' : 's'} (characters and CRLF cut too)`, () => {
      const splitter = new LineSplitter(1 << 20, () => new Digest());
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

  it('takes a line of exactly the bound; one byte more, within a chunk or across chunks, makes an overlong line in its place', () => {
    const at = (bytes: number) => Buffer.alloc(bytes, 'y'.charCodeAt(0));
    const splitter = new LineSplitter(10, () => new Digest());
    splitter.push(Buffer.concat([at(10), Buffer.from('\n')]));
    assert.deepEqual(drain(splitter), ['y'.repeat(10)]);
    splitter.push(Buffer.concat([Buffer.from('a\n'), at(11), Buffer.from('\nb\n')]));
    assert.deepEqual(drain(splitter), ['a', '<11 bytes>', 'b']);
    splitter.push(at(6));
    splitter.push(at(5)); // no newline yet: past the bound, nothing held
    assert.equal(splitter.unfinishedBytes, 11);
    assert.equal(splitter.heldBytes, 0);
    splitter.push(Buffer.from('yy\r\nnext'));
    const line = splitter.next() as OverlongLine<Digest>;
    assert.equal(line.bytes, 14);
    assert.equal(line.watcher.bytes, 14, 'the watcher got every byte of it, the \\r too');
    assert.equal(
      line.watcher.hash.digest('hex'),
      createHash('sha256')
        .update('y'.repeat(13) + '\r')
        .digest('hex'),
    );
    assert.equal(splitter.next(), undefined);
    assert.equal(splitter.unfinishedBytes, 4);
  });

  it('holds at most the bound of a 10 MiB line arriving in reads of 64 KiB; its watcher sees each byte once', () => {
    const bound = 2 * 1024 * 1024;
    let watchers = 0;
    const splitter = new LineSplitter(bound, () => (watchers++, new Digest()));
    const line = Buffer.alloc(10 * 1024 * 1024, 'z'.charCodeAt(0));
    const stream = Buffer.concat([Buffer.from('first\n'), line, Buffer.from('\nlast\n')]);
    let most = 0;
    const lines: (string | OverlongLine<Digest>)[] = [];
    for (let at = 0; at < stream.length; at += 65536) {
      splitter.push(stream.subarray(at, at + 65536));
      most = Math.max(most, splitter.heldBytes);
      for (let l = splitter.next(); l !== undefined; l = splitter.next()) lines.push(l instanceof OverlongLine ? l : l.toString());
    }
    assert.ok(most <= bound, `held ${most} bytes`);
    assert.equal(watchers, 1);
    assert.equal(lines.length, 3);
    assert.equal(lines[0], 'first');
    assert.equal(lines[2], 'last');
    const overlong = lines[1] as OverlongLine<Digest>;
    assert.equal(overlong.bytes, line.length);
    assert.equal(overlong.watcher.bytes, line.length);
    assert.equal(overlong.watcher.hash.digest('hex'), createHash('sha256').update(line).digest('hex'));
  });

  it('refuses a bound that is not a positive whole number of bytes', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity])
      assert.throws(() => new LineSplitter(bad, () => new Digest()), /maxLineBytes must be an integer ≥ 1, in bytes \(got /);
  });
});
