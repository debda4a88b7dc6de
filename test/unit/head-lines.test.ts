// headLines: the lines a preview may need, without splitting a huge document whole.
import * as assert from 'node:assert/strict';
import { headLines } from '../../src/lsp/headLines';
import { splitLines } from '../../src/lsp/position';

describe('headLines', () => {
  it('equals splitLines within the bounds (LF, CRLF, CR, empty, trailing terminator)', () => {
    for (const t of ['', 'a', 'a\n', 'a\r\nb\rc\n', 'x\r\n'.repeat(10)]) assert.deepEqual(headLines(t), splitLines(t));
  });
  it('keeps whole lines before the first bound: a line count, or a size (a CRLF is not cut in two)', () => {
    assert.deepEqual(headLines('a\nb\nc\nd', 100, 2), ['a', 'b']);
    assert.deepEqual(headLines('ab\ncd\nef', 4), ['ab']);
    assert.deepEqual(headLines('ab\r\ncd', 3), ['ab']);
    assert.deepEqual(headLines('abcdef', 3), []);
  });
  it('an 8 MiB note of short lines gives its first 50 000 lines', () => {
    const lines = headLines('# h\n'.repeat(2 * 1024 * 1024));
    assert.equal(lines.length, 50_000);
    assert.equal(lines[49_999], '# h');
  });
});
