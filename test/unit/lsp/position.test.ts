// The one position converter (src/lsp/position.ts): model 1-based line + 1-based column in code
// points <-> seam 0-based line + 0-based UTF-16 character. Field cases L14–L17.
import * as assert from 'node:assert/strict';
import {
  characterToModelColumn,
  codePointLength,
  modelColumnToCharacter,
  splitLines,
  toLspPosition,
  toModelPosition,
} from '../../../src/lsp/position';
import { anchorToSymbol } from '../../../src/lsp/symbolAnchor';
import { isLspError, LspError } from '../../../src/lsp/types';

function roundTrip(text: string, model: { line: number; column: number }, lsp: { line: number; character: number }): void {
  const to = toLspPosition(text, model);
  assert.deepEqual(to.position, lsp, `model ${model.line}:${model.column} -> LSP`);
  assert.equal(to.clamped, false);
  assert.deepEqual(toModelPosition(text, lsp), model, `LSP ${lsp.line}:${lsp.character} -> model`);
}

describe('lsp seam: position converter', () => {
  it('L14: `🍋l` — model column 2 (the l) is LSP character 2, and back', () => {
    const line = '🍋l';
    assert.equal(line.length, 3, 'the lemon is two UTF-16 units');
    roundTrip(line, { line: 1, column: 2 }, { line: 0, character: 2 });
    roundTrip(line, { line: 1, column: 1 }, { line: 0, character: 0 });
    roundTrip(line, { line: 1, column: 3 }, { line: 0, character: 3 }); // end of line
    assert.equal(line[2], 'l');
  });

  it('L15: `  logic /*°C*/ clk;` — clk is model column 16 and LSP character 15 (not the UTF-8 byte offset 16)', () => {
    const line = '  logic /*°C*/ clk;';
    roundTrip(line, { line: 1, column: 16 }, { line: 0, character: 15 });
    assert.equal(line.slice(15, 18), 'clk');
    assert.equal(Buffer.byteLength(line.slice(0, 15), 'utf8'), 16, '° is two UTF-8 bytes: a byte count would be off by one');
  });

  it('L16: astral characters, code point <-> UTF-16 both ways (`"😀name"` and `"\\u{1F600}name"`)', () => {
    const line = '"\u{1F600}name"';
    assert.equal(line, '"😀name"');
    roundTrip(line, { line: 1, column: 3 }, { line: 0, character: 3 }); // n
    roundTrip(line, { line: 1, column: 2 }, { line: 0, character: 1 }); // the emoji
    roundTrip(line, { line: 1, column: 7 }, { line: 0, character: 7 }); // closing quote
    const escaped = '"\\u{1F600}name"'; // the escape written out is plain ASCII: one column per character
    roundTrip(escaped, { line: 1, column: 11 }, { line: 0, character: 10 });
    // several astral characters in a row
    const many = '𝑥𝑦😀🍋z';
    roundTrip(many, { line: 1, column: 5 }, { line: 0, character: 8 });
    assert.equal(codePointLength(many), 5);
  });

  it('L16: CJK characters are one column and one UTF-16 unit each', () => {
    const line = 'let 変数 = 関数();';
    roundTrip(line, { line: 1, column: 5 }, { line: 0, character: 4 });
    roundTrip(line, { line: 1, column: 10 }, { line: 0, character: 9 }); // 関
    assert.equal(line[9], '関');
  });

  it('L16: a tab is one column (no tab expansion)', () => {
    const text = '\t\tx = 1;';
    roundTrip(text, { line: 1, column: 3 }, { line: 0, character: 2 });
  });

  it('L16: CRLF files convert like LF files; `\\r` is never part of a line', () => {
    const crlf = 'first\r\n😀 second\r\nthird';
    const lf = crlf.replace(/\r\n/g, '\n');
    assert.deepEqual(splitLines(crlf), ['first', '😀 second', 'third']);
    for (const text of [crlf, lf]) {
      roundTrip(text, { line: 2, column: 3 }, { line: 1, character: 3 }); // s of second
      roundTrip(text, { line: 2, column: 9 }, { line: 1, character: 9 }); // end of line 2, before \r\n
      roundTrip(text, { line: 3, column: 1 }, { line: 2, character: 0 });
    }
    assert.deepEqual(
      splitLines('a\rb\nc\r\n'),
      ['a', 'b', 'c', ''],
      'lone \\r is a line break too (LSP); a trailing break adds an empty line',
    );
  });

  it('L17: line 0 and a line past the end are errors quoting the valid 1-based range', () => {
    const text = 'one\ntwo\nthree';
    for (const line of [0, 4, -1, 1.5]) {
      assert.throws(
        () => toLspPosition(text, { line, column: 1 }),
        (e: unknown) => {
          assert.ok(isLspError(e));
          assert.equal(e.code, 'line_out_of_range');
          assert.match(e.message, /lines are 1-based and this file has 3 lines; valid lines are 1\.\.3/);
          assert.deepEqual(e.details.validRange, [1, 3]);
          return true;
        },
      );
    }
    assert.throws(() => toModelPosition(text, { line: 3, character: 0 }), /valid lines are 1\.\.3/);
    assert.throws(() => toLspPosition('', { line: 2, column: 1 }), /this file has 1 line; valid lines are 1\.\.1/);
  });

  it('column 0 is an error; a column past the end of the line clamps to the end and says so', () => {
    assert.throws(
      () => toLspPosition('abc', { line: 1, column: 0 }),
      (e: LspError) => e.code === 'column_out_of_range' && /columns are 1-based .* valid columns on this line are 1\.\.4/.test(e.message),
    );
    const r = toLspPosition('a😀', { line: 1, column: 10 });
    assert.deepEqual(r, { position: { line: 0, character: 3 }, clamped: true, lineText: 'a😀' });
    assert.deepEqual(modelColumnToCharacter('a😀', 3), { character: 3, clamped: false });
    assert.deepEqual(modelColumnToCharacter('a😀', 4), { character: 3, clamped: true });
  });

  it('an LSP character past the end maps to the end; one inside a surrogate pair rounds down to the pair', () => {
    assert.equal(characterToModelColumn('a😀b', 99), 4);
    assert.equal(characterToModelColumn('a😀b', 2), 2, 'between the halves of 😀 -> the emoji itself');
    assert.equal(characterToModelColumn('a😀b', 3), 3);
    assert.throws(() => characterToModelColumn('x', -1), /character must be an integer ≥ 0, a 0-based LSP character/);
  });

  describe('anchorToSymbol (re-anchor a miscounted column to an identifier)', () => {
    it('moves a wrong column to the symbol on the line (L15 line)', () => {
      const line = '  logic /*°C*/ clk;';
      assert.deepEqual(anchorToSymbol(line, 3, 'clk'), { column: 16, occurrences: [16] });
      const pos = toLspPosition(line, { line: 1, column: anchorToSymbol(line, 3, 'clk').column });
      assert.equal(pos.position.character, 15);
    });

    it('matches whole identifiers only, with Unicode boundaries', () => {
      assert.deepEqual(anchorToSymbol('clk2 my_clk clk', 1, 'clk').occurrences, [13]);
      assert.deepEqual(anchorToSymbol('変数x 変数', 1, '変数').occurrences, [5]);
      assert.deepEqual(anchorToSymbol('𝑥𝑥 𝑥 + 1', 1, '𝑥').occurrences, [4], 'astral identifier characters are one column');
      assert.deepEqual(anchorToSymbol('$el el', 1, 'el').occurrences, [5], '$ is an identifier character');
      assert.deepEqual(
        anchorToSymbol('a->b', 1, '->').occurrences,
        [2],
        'symbol edges that are not identifier characters need no boundary',
      );
    });

    it('picks the occurrence nearest to the given column; ties go to the earlier one', () => {
      assert.equal(anchorToSymbol('a = a + a', 6, 'a').column, 5);
      assert.equal(anchorToSymbol('a = a + a', 8, 'a').column, 9);
      assert.equal(anchorToSymbol('a = a + a', 7, 'a').column, 5, 'distance 2 both ways: the earlier wins');
      assert.equal(anchorToSymbol('foo(foo)', 6, 'foo').column, 5, 'inside an occurrence: that one');
      assert.equal(anchorToSymbol('🍋 x 🍋 x', 100, 'x').column, 7);
    });

    it('says when the symbol is not on the line, and rejects an empty symbol', () => {
      assert.throws(
        () => anchorToSymbol('let value = 1;', 1, 'val'),
        (e: LspError) =>
          e.code === 'symbol_not_found' && e.message === 'symbol "val" does not occur as a whole identifier on the line: "let value = 1;"',
      );
      assert.throws(
        () => anchorToSymbol('x', 1, ''),
        (e: LspError) => e.code === 'invalid_request',
      );
      assert.throws(
        () => anchorToSymbol('x', 1, 'a\nb'),
        (e: LspError) => e.code === 'invalid_request',
      );
    });
  });
});
