// Previews of a big file decode only its start: headText gives what headLines reads (the same
// lines for any text, multi-byte characters split across chunks included) without decoding an
// 8 MiB note whole on the extension host thread.
import * as assert from 'node:assert/strict';
import { headLines, headText } from '../../src/lsp/headLines';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('preview text: only the start of a big file is decoded', () => {
  it('the same head lines as decoding the whole file, for ASCII, multi-byte characters across chunks, a BOM, small files', () => {
    const cases = [
      '# h\n'.repeat(2 * 1024 * 1024),
      `${'é😀 line\n'.repeat(300_000)}`,
      `\ufeff# Title\r\n${'x'.repeat(100)}\r\n`,
      '',
      'one line without a break',
    ];
    for (const text of cases) {
      const whole = new TextDecoder('utf-8').decode(bytes(text));
      const head = headText(bytes(text));
      assert.deepEqual(headLines(head), headLines(whole), text.slice(0, 20));
      assert.ok(whole.startsWith(head), 'a prefix of the text');
    }
  });

  it('an 8 MiB note: about 1 MiB of it is decoded, not 8', () => {
    const head = headText(bytes('# h\n'.repeat(2 * 1024 * 1024)));
    assert.ok(head.length > 1 << 20 && head.length <= (1 << 20) + 256 * 1024, `decoded ${head.length} code units`);
    assert.equal(headText(bytes('abc'), 1), 'abc');
  });
});
