// What the person's panel terminal is given of control functions whose work grows with their count
// (PanelFilter in src/terminal/panel/panelFilter.ts): the count is lowered to what the panel's screen can
// show, and a real xterm.js draws the same screen from the lowered stream as from the original,
// however the output is cut into chunks.
import * as assert from 'node:assert/strict';
import { Terminal } from '@xterm/headless';
import { repeatBound } from '../../../../src/terminal/output/escapeCounts';
import { PANEL_PIECE_COST, PANEL_PIECE_UNITS, PanelFilter } from '../../../../src/terminal/panel/panelFilter';
import { seededInt } from '../../../helpers/random';

const E = '\x1b';

/** The screen of a headless xterm.js of `cols` × `rows` after `text`: rows (wrap flags marked), cursor, active buffer. */
async function screenAfter(text: string, cols: number, rows: number): Promise<string> {
  const term = new Terminal({ cols, rows, scrollback: 50, allowProposedApi: true, logLevel: 'off' });
  await new Promise<void>((resolve) => term.write(text, resolve));
  const b = term.buffer.active;
  const lines: string[] = [];
  for (let y = b.baseY; y < b.baseY + rows; y++) {
    const line = b.getLine(y)!;
    lines.push(`${line.isWrapped ? '~' : '|'}${line.translateToString(false)}`);
  }
  lines.push(`cursor ${b.cursorX},${b.cursorY} ${b.type}`);
  term.dispose();
  return lines.join('\n');
}

function filterChunks(chunks: string[], cols: number, rows: number): string {
  const f = new PanelFilter(cols, rows);
  return chunks.map((c) => f.push(c)).join('');
}

/** The counts of every CSI without prefix or intermediates in `text` (C1 CSI included), with their finals. */
function counts(text: string): Array<{ final: string; count: number }> {
  const found: Array<{ final: string; count: number }> = [];
  for (const m of text.matchAll(/(?:\x1b\[|\u009b)([0-9]*)[0-9;:\x00-\x1f]*([@-~])/g))
    found.push({ final: m[2]!, count: Number(m[1] || 0) });
  return found;
}

describe('panel terminal: counts that make the terminal loop are lowered to what its screen shows', () => {
  const cols = 20;
  const rows = 6;
  const { least, period } = repeatBound({ cols, rows, bufferRows: rows });

  it('lowers REP, IL, DL, SU, SD, CHT, CBT, ICH, DCH, ECH past their bound and keeps smaller counts', () => {
    const text = `x${E}[2000000000b${E}[1000000L${E}[99999M${E}[70000S${E}[70000T${E}[5000I${E}[5000Z${E}[900@${E}[900P${E}[900X${E}[3L${E}[7b`;
    const out = filterChunks([text], cols, rows);
    assert.deepEqual(counts(out), [
      { final: 'b', count: least + ((2_000_000_000 - least) % period) },
      { final: 'L', count: rows },
      { final: 'M', count: rows },
      { final: 'S', count: rows },
      { final: 'T', count: rows },
      { final: 'I', count: cols },
      { final: 'Z', count: cols },
      { final: '@', count: cols },
      { final: 'P', count: cols },
      { final: 'X', count: cols },
      { final: 'L', count: 3 },
      { final: 'b', count: 7 },
    ]);
  });

  it('leaves other sequences as they are: prefixes, intermediates, cursor moves, SGR, other parameters', () => {
    const text = `${E}[?2000000000b${E}[5000 @${E}[1;2000000000H${E}[2000000000C${E}[38;5;200m${E}[5;3000000b${E}[3000000;5b`;
    const out = filterChunks([text], cols, rows);
    assert.ok(
      out.startsWith(`${E}[?2000000000b${E}[5000 @${E}[1;2000000000H${E}[2000000000C${E}[38;5;200m${E}[5;3000000b`),
      JSON.stringify(out),
    );
    assert.ok(out.endsWith(`${E}[${least + ((3_000_000 - least) % period)};5b`), JSON.stringify(out));
  });

  it('a sequence split across chunks is lowered the same: every two-way cut, and one unit at a time', () => {
    const text = `ab${E}[123456b${E}[00000000000000000000000000099L\u009b5000Z${E}[7;\n40000M${E}[2000000000\x18b tail`;
    const whole = filterChunks([text], cols, rows);
    for (let cut = 0; cut <= text.length; cut++)
      assert.equal(filterChunks([text.slice(0, cut), text.slice(cut)], cols, rows), whole, `cut at ${cut}`);
    assert.equal(filterChunks(Array.from(text), cols, rows), whole);
    assert.deepEqual(
      counts(whole).map((c) => c.count),
      [least + ((123456 - least) % period), rows, cols, rows, 2_000_000_000],
      'the cancelled one (CAN before its final) does nothing and is passed as it is',
    );
  });

  it('random output with large counts draws the same screen lowered as original, whatever the chunks', async function () {
    this.timeout(120_000);
    const pick = seededInt(11);
    const finals = ['b', 'L', 'M', 'S', 'T', 'I', 'Z', '@', 'P', 'X', 'H', 'C', 'm', 'r', 'J', 'K'];
    const texts = [
      'x',
      'yz',
      '中',
      'é',
      'hello world',
      '\r\n',
      '\n',
      '\t',
      '\b',
      `${E}[1;31m`,
      `${E}[0m`,
      `${E}[3;5r`,
      `${E}[?7l`,
      `${E}[?7h`,
      `${E}[?1049h`,
      `${E}[?1049l`,
      `${E}[H`,
      `${E}[2;3H`,
    ];
    // Past every bound of a 20×6 screen, and small enough that xterm.js applies the original in ms.
    const count = () => [0, 1, 2, 5, 7, 19, 21, 150, least - 1, least + 3, 3 * least + 11, 9000][pick(12)]!;
    for (let round = 0; round < 150; round++) {
      let text = '';
      for (let k = 0; k < 14; k++) {
        text += texts[pick(texts.length)]!;
        const sep = pick(5) === 0 ? `;${pick(9)}` : '';
        if (pick(2))
          text += `${pick(4) === 0 ? '\u009b' : `${E}[`}${count()}${sep}${pick(8) === 0 ? '\n' : ''}${finals[pick(finals.length)]}`;
      }
      const chunks: string[] = [];
      for (let at = 0; at < text.length; ) {
        const n = 1 + pick(6);
        chunks.push(text.slice(at, at + n));
        at += n;
      }
      const lowered = filterChunks(chunks, cols, rows);
      assert.equal(lowered, filterChunks([text], cols, rows), `chunking changed the result for ${JSON.stringify(text)}`);
      assert.equal(
        await screenAfter(lowered, cols, rows),
        await screenAfter(text, cols, rows),
        `screen differs for ${JSON.stringify(text)} -> ${JSON.stringify(lowered)}`,
      );
    }
  });

  it('REP of a narrow and a wide character around and past the bound, after a scroll region and without autowrap', async () => {
    for (const ch of ['x', '中']) {
      for (const n of [least - 1, least, least + 1, least + period - 1, least + period, least + 2 * period + 3, 3 * least + 7]) {
        for (const text of [
          `${ch}${E}[${n}b`,
          `ab\r\n${E}[2;3r${E}[3;1H${ch}${E}[${n}b`,
          `${E}[?7l${ch}${E}[${n}b`,
          `${'q'.repeat(7)}${ch}${E}[${n}bEND`,
        ]) {
          const lowered = filterChunks([text], cols, rows);
          assert.equal(await screenAfter(lowered, cols, rows), await screenAfter(text, cols, rows), JSON.stringify(text));
        }
      }
    }
  });

  it('follows the panel size: a resize changes the bound of later sequences', () => {
    const f = new PanelFilter(cols, rows);
    assert.equal(f.push(`${E}[5000L`), `${E}[${rows}L`);
    f.resize(100, 40);
    assert.equal(f.push(`${E}[5000L`), `${E}[40L`);
  });

  it('a sequence longer than any real one is not held without end: it is passed on with its count lowered', () => {
    const f = new PanelFilter(cols, rows);
    const lead = f.push(`${E}[2000000000;${'1;'.repeat(500)}`);
    assert.ok(lead.length > 500, 'the held sequence was passed on');
    assert.ok(lead.startsWith(`${E}[${least + ((2_000_000_000 - least) % period)};`), JSON.stringify(lead.slice(0, 40)));
    assert.equal(f.push('b'), 'b');
  });

  it('estimates each line IL, DL, SU, SD or RI brings in at a row of cell writes besides the lines it moves (xterm.js allocates and fills a new line for each)', () => {
    const [wide, tall] = [80, 24];
    const cost = (text: string) => new PanelFilter(wide, tall).filter(text).costs.reduce((a, b) => a + b, 0);
    // Bounded to the screen's rows, each brings in `tall` new lines of `wide` cells.
    for (const final of ['L', 'M', 'S', 'T'])
      assert.ok(cost(`${E}[1000000${final}`) >= tall * wide, `CSI 1000000 ${final}: ${cost(`${E}[1000000${final}`)}`);
    // Reverse index at the top of the scroll region brings in one.
    assert.ok(cost(`${E}M`) >= wide, `ESC M: ${cost(`${E}M`)}`);
  });

  it('cuts its result into pieces of bounded estimated cost, never inside a sequence it holds or a surrogate pair', () => {
    const f = new PanelFilter(cols, rows);
    const text = `${'😀 line\r\n'.repeat(5000)}${`x${E}[2000000000b`.repeat(300)}${E}[5000L`.repeat(2) + 'end';
    const { text: out, ends, costs } = f.filter(text);
    assert.equal(out, new PanelFilter(cols, rows).push(text));
    assert.equal(ends[ends.length - 1], out.length);
    assert.equal(ends.length, costs.length);
    assert.ok(ends.length > 10, `${ends.length} pieces`);
    let start = 0;
    ends.forEach((end, k) => {
      assert.ok(end > start);
      const piece = out.slice(start, end);
      const high = piece.charCodeAt(piece.length - 1);
      assert.ok(!(high >= 0xd800 && high < 0xdc00), `piece ${k} ends inside a surrogate pair`);
      assert.doesNotMatch(piece, /\x1b\[[0-9;]*$/, `piece ${k} ends inside a CSI sequence`);
      assert.ok(
        costs[k]! < PANEL_PIECE_COST + 2 * (least + period) && end - start <= PANEL_PIECE_UNITS + 20,
        `piece ${k}: cost ${costs[k]}, ${end - start} units`,
      );
      start = end;
    });
  });

  it('cuts long runs of printable text where their cost or length reaches a piece, as character by character', () => {
    const f = new PanelFilter(cols, rows);
    const text = `${'x'.repeat(100_000)}${'a line of output\n'.repeat(4000)}${'y'.repeat(40_000)}`;
    const { text: out, ends, costs } = f.filter(text);
    assert.equal(out, text, 'printable text and line feeds pass unchanged');
    assert.deepEqual(
      ends.slice(0, 6),
      [1, 2, 3, 4, 5, 6].map((k) => k * PANEL_PIECE_UNITS),
      'one piece per PANEL_PIECE_UNITS of a run',
    );
    let start = 0;
    ends.forEach((end, k) => {
      // A piece closes once its cost or length reached the bound: at most one line feed (a row of cost) past it.
      assert.ok(
        costs[k]! <= PANEL_PIECE_COST + rows && end - start <= PANEL_PIECE_UNITS,
        `piece ${k}: cost ${costs[k]}, ${end - start} units`,
      );
      start = end;
    });
    assert.equal(
      costs.reduce((a, b) => a + b, 0),
      140_000 + 4000 * (16 + rows),
      'one per character, a row per line feed',
    );
  });
});
