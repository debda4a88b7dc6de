// The position a navigation tool uses and shows (src/lsp/usedPosition.ts): what the model sees of
// the line is bounded, also on a minified file whose one line is a megabyte.
import * as assert from 'node:assert/strict';
import { splitLines } from '../../../src/lsp/position';
import { anchorToSymbol } from '../../../src/lsp/symbolAnchor';
import { LspError } from '../../../src/lsp/types';
import { resolveModelPosition } from '../../../src/lsp/usedPosition';

/** What the model sees of a line: at most 200 UTF-16 code units, plus a '…' marker at each cut end. */
const BOUND = 202;

/** A minified line of about 1 MB: `var a0=0;var a1=1;…`, with `target` in the middle. */
function minifiedLine(): { text: string; column: number } {
  const head: string[] = [];
  for (let i = 0, length = 0; length < 500_000; i++) length += head[head.push(`var a${i}=${i};`) - 1]!.length;
  const before = head.join('');
  const text = `${before}var target=1;${before}`;
  return { text, column: Array.from(before).length + 5 };
}

describe('lsp seam: the used position a tool shows', () => {
  it('shows a short line whole, with no start column', () => {
    const { used } = resolveModelPosition(splitLines('export const value = 1;\n'), 1, 14);
    assert.deepEqual(used, { line: 1, column: 14, lineText: 'export const value = 1;', token: 'value' });
  });

  it('cuts a 1 MB line to a window around the column, with markers and the column where the window starts', () => {
    const { text, column } = minifiedLine();
    assert.ok(text.length > 1_000_000);
    const { used, position } = resolveModelPosition([text], 1, column);
    assert.equal(used.column, column, 'the column stays the column in the file');
    assert.equal(used.token, 'target');
    assert.ok(used.lineText.length <= BOUND, `lineText is ${used.lineText.length} UTF-16 code units`);
    assert.ok(used.lineText.startsWith('…') && used.lineText.endsWith('…'), 'both cut ends are marked');
    assert.equal(typeof used.lineTextStart, 'number');
    // The column is correct relative to what is shown: the shown text at (column - lineTextStart) is the token.
    const shown = Array.from(used.lineText.slice(1, -1));
    const at = column - used.lineTextStart!;
    assert.equal(shown.slice(at, at + 'target'.length).join(''), 'target');
    assert.equal(text.slice(position.character, position.character + 6), 'target');
  });

  it('keeps surrogate pairs whole at the window edges', () => {
    const text = '😀'.repeat(300) + ' x ' + '😀'.repeat(300);
    const { used } = resolveModelPosition([text], 1, 302);
    assert.equal(used.token, 'x');
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(used.lineText), 'no lone surrogate');
    const shown = Array.from(used.lineText.slice(1, -1));
    assert.equal(shown[302 - used.lineTextStart!], 'x');
  });

  it('symbol_not_found quotes a window of a 1 MB line, not the whole line', () => {
    const { text, column } = minifiedLine();
    assert.throws(
      () => anchorToSymbol(text, column, 'missing'),
      (e: LspError) => {
        assert.equal(e.code, 'symbol_not_found');
        assert.ok(e.message.length < 1000, `message is ${e.message.length} characters`);
        const details = e.details as { lineText: string; lineTextStart?: number };
        assert.ok(details.lineText.length <= BOUND, `details.lineText is ${details.lineText.length} UTF-16 code units`);
        assert.ok(details.lineText.includes('var target=1;'));
        assert.equal(typeof details.lineTextStart, 'number');
        return true;
      },
    );
    const { used } = resolveModelPosition([text], 1, column - 40, 'target');
    assert.equal(used.column, column, 're-anchored to the symbol');
    assert.ok(used.lineText.length <= BOUND);
  });

  it('a token of a 1 MB identifier is cut to the bound, in the token and in the keyword note', () => {
    const name = 'x'.repeat(1_000_000);
    const { used } = resolveModelPosition([`const ${name} = 1;`], 1, 3);
    assert.ok(used.token.length <= BOUND, `token is ${used.token.length} UTF-16 code units`);
    assert.ok(used.token.endsWith('…'));
    assert.ok((used.note ?? '').length < 1000, `note is ${(used.note ?? '').length} characters`);
    assert.equal(used.column, 7, 'snapped to the declared name');
  });

  it('refuses a symbol longer than 200 UTF-16 code units at once, saying the limit, and quotes only its start', () => {
    const line = 'a'.repeat(1_000_000);
    for (const symbol of ['a'.repeat(500_000), 'b'.repeat(201)]) {
      assert.throws(
        () => resolveModelPosition([line], 1, 1, symbol),
        (e: LspError) => {
          assert.equal(e.code, 'invalid_request');
          assert.match(e.message, /at most 200 UTF-16 code units/);
          assert.ok(e.message.length < 1000, `message is ${e.message.length} characters`);
          return true;
        },
      );
    }
    assert.equal(resolveModelPosition([`let ${'b'.repeat(200)} = 1;`], 1, 1, 'b'.repeat(200)).used.column, 5, '200 units is allowed');
  });

  it('a multi-line symbol is refused quoting at most the bound of it', () => {
    assert.throws(
      () => anchorToSymbol('a b', 1, `a\n${'c'.repeat(100_000)}`),
      (e: LspError) => e.code === 'invalid_request' && e.message.length < 1000,
    );
  });

  it('names at most ten other occurrences when the symbol is everywhere on a long line', () => {
    const { used } = resolveModelPosition(['x '.repeat(500_000)], 1, 2, 'x');
    assert.equal(used.column, 1);
    assert.ok((used.note ?? '').length < 1000, `note is ${(used.note ?? '').length} characters`);
    assert.match(used.note ?? '', /500000 occurrences/);
  });
});
