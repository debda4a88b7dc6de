import { strict as assert } from 'node:assert';
import { terminalTailByBytes } from '../../src/terminal/output/byteTail';
import { UnreadTail } from '../../src/terminal/session/unreadTail';

describe('unread output of a background job (UnreadTail)', () => {
  it('hands out everything since the last take while it fits, then nothing', () => {
    const tail = new UnreadTail(64);
    tail.push('first ');
    tail.push('');
    tail.push('second');
    assert.deepEqual(tail.take(), { text: 'first second', droppedBytes: 0 });
    assert.deepEqual(tail.take(), { text: '', droppedBytes: 0 });
  });

  it('past its bound hands out what cutting after every chunk would: the clean newest tail, every byte left out counted', () => {
    // SGR sequences and 2-, 3- and 4-byte characters, in chunks of several sizes (counted in code
    // points, as output decoded from UTF-8 arrives) so chunk ends and cuts fall everywhere, inside
    // sequences too.
    const unit = '\x1b[38;5;196mé€😀x\r\n';
    const all = unit.repeat(3000);
    const points = Array.from(all);
    for (const max of [100, 1000, 4096]) {
      for (const size of [1, 7, 64, 999, 5000]) {
        const tail = new UnreadTail(max);
        let expected = '';
        let dropped = 0;
        for (let i = 0; i < points.length; i += size) {
          const chunk = points.slice(i, i + size).join('');
          tail.push(chunk);
          const cut = terminalTailByBytes(expected + chunk, max);
          expected = cut.text;
          dropped += cut.dropped;
        }
        const got = tail.take();
        assert.ok(Buffer.byteLength(got.text) <= max, `max ${max}, chunks of ${size}: ${Buffer.byteLength(got.text)} bytes`);
        assert.equal(
          got.droppedBytes + Buffer.byteLength(got.text),
          Buffer.byteLength(all),
          `max ${max}, chunks of ${size}: bytes lost or counted twice`,
        );
        assert.ok(all.endsWith(got.text));
        assert.match(
          got.text,
          /^(\x1b\[38;5;196m|é|€|😀|x|\r)/,
          `max ${max}, chunks of ${size}: starts with ${JSON.stringify(got.text.slice(0, 12))}`,
        );
        // Never shorter than cutting after every chunk leaves, and no more than one unit longer.
        assert.ok(got.text.length >= expected.length && got.text.length - expected.length <= unit.length, `max ${max}, chunks of ${size}`);
      }
    }
  });

  it('a take resets the count of bytes left out', () => {
    const tail = new UnreadTail(10);
    tail.push('0123456789abcdefghij0123456789');
    const first = tail.take();
    assert.deepEqual(first, { text: '0123456789', droppedBytes: 20 });
    tail.push('z');
    assert.deepEqual(tail.take(), { text: 'z', droppedBytes: 0 });
  });
});
