// What a rebuilt panel emulator reads first (src/terminal/panel/emulatorTail.ts): the session's tail
// through a PanelFilter, whole when it is cheap to parse, else only its newest part within the
// budget, starting on a sequence or line boundary; the screen it leaves is the same.
import * as assert from 'node:assert/strict';
import { Terminal } from '@xterm/headless';
import { PanelFilter } from '../../../../src/terminal/panel/panelFilter';
import { EMULATOR_TAIL_COST, emulatorTail } from '../../../../src/terminal/panel/emulatorTail';

const E = '\x1b';
const COLS = 120;
const ROWS = 30;

/** Estimated cost of `text` as a PanelFilter of the panel's size estimates it. */
const costOf = (text: string) => new PanelFilter(COLS, ROWS).filter(text).costs.reduce((a, b) => a + b, 0);

/** The screen rows and cursor of a headless xterm.js of the panel's size after it parsed `text`. */
async function screenAfter(text: string): Promise<string[]> {
  const term = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true, logLevel: 'off' });
  await new Promise<void>((resolve) => term.write(text, resolve));
  const buffer = term.buffer.active;
  const rows = Array.from({ length: ROWS }, (_, y) => buffer.getLine(buffer.baseY + y)!.translateToString(true));
  rows.push(`cursor ${buffer.cursorX},${buffer.cursorY}`);
  term.dispose();
  return rows;
}

describe('panel emulator tail', () => {
  it('ordinary lines (256 KiB) are read whole, as the PanelFilter gives them', () => {
    const tail = Array.from({ length: 3200 }, (_, i) => `line ${i} ${'x'.repeat(70)}`).join('\r\n');
    assert.ok(costOf(tail) < EMULATOR_TAIL_COST);
    assert.equal(emulatorTail(tail, COLS, ROWS), new PanelFilter(COLS, ROWS).push(tail));
  });

  it('a flood of insert/delete-line sequences is cut to its newest part within the budget, starting at a sequence, and leaves the same screen', async () => {
    const tail = `${Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\r\n')}${`${E}[H${`${E}[1000000L${E}[1000000M`.repeat(100)}`.repeat(116)}first after\r\nsecond after\r\n$ `;
    const filtered = new PanelFilter(COLS, ROWS).push(tail);
    assert.ok(costOf(tail) > 20 * EMULATOR_TAIL_COST, 'the whole tail is well over the budget');
    const read = emulatorTail(tail, COLS, ROWS);
    assert.ok(filtered.endsWith(read), 'the newest part of what the filter gives');
    assert.equal(read[0], E, 'it starts at a sequence');
    assert.ok(costOf(read) <= EMULATOR_TAIL_COST, `cost ${costOf(read)}`);
    assert.ok(read.length > 1000, 'not more was left out than the budget asks');
    assert.deepEqual(await screenAfter(read), await screenAfter(filtered));
  });

  it('a cut with no line feed or sequence after it gives nothing rather than the middle of a sequence', () => {
    // Tabs cost a row each; nothing after the cut can be known to start outside a sequence.
    assert.equal(emulatorTail('\t'.repeat(100_000), COLS, ROWS), '');
    assert.equal(emulatorTail('\t'.repeat(100), COLS, ROWS), new PanelFilter(COLS, ROWS).push('\t'.repeat(100)));
  });
});
