// What the person's panel terminal is given of an agent session's output (PanelFilter in
// src/terminal/panel/panelFilter.ts), checked against a real xterm.js parser: OSC strings other than
// hyperlinks never reach it, and everything else draws exactly as before, however the output is
// cut into chunks.
import * as assert from 'node:assert/strict';
import { Terminal } from '@xterm/headless';
import { PanelFilter } from '../../../../src/terminal/panel/panelFilter';

/** OSC identifiers xterm.js is asked to report, with how many strings of each it parsed. */
const WATCHED = [0, 1, 2, 4, 7, 8, 9, 10, 11, 12, 52, 104, 110, 133, 633, 777, 1337];

/** Writes `text` to a headless xterm.js; returns the OSC strings it parsed and the screen's text. */
async function render(text: string): Promise<{ osc: string[]; screen: string }> {
  // Random input holds sequences xterm.js rejects; it would log each one.
  const term = new Terminal({ cols: 80, rows: 10, allowProposedApi: true, logLevel: 'off' });
  const osc: string[] = [];
  for (const id of WATCHED) term.parser.registerOscHandler(id, (data) => (osc.push(`${id};${data}`), true));
  await new Promise<void>((resolve) => term.write(text, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)!.translateToString(true));
  term.dispose();
  return { osc, screen: lines.join('\n').trimEnd() };
}

/** `text` as a JSON string with the C1 controls escaped too (JSON.stringify leaves them raw). */
const shown = (text: string) =>
  JSON.stringify(text).replace(/[\u0080-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function filterAll(chunks: string[]): string {
  const f = new PanelFilter();
  return chunks.map((c) => f.push(c)).join('');
}

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

/** Output of a program that writes shell integration, clipboard, title and colour strings among its text. */
const HOSTILE =
  `${ESC}]633;A${BEL}$ ${ESC}]633;B${BEL}${ESC}]633;E;rm -rf ~${BEL}${ESC}]633;C${BEL}` +
  `hello ${ESC}[1;31mred${ESC}[0m\r\n` +
  `${ESC}]133;D;0${ST}${ESC}]52;c;ZWNobyBwd25lZA==${BEL}${ESC}]0;bash${BEL}${ESC}]2;user shell${ST}` +
  `${ESC}]10;?${BEL}${ESC}]11;rgb:0000/0000/0000${ST}${ESC}]4;1;#ff0000${BEL}${ESC}]104${BEL}` +
  `${ESC}]1337;CurrentDir=/etc${BEL}${ESC}]7;file:///etc${BEL}${ESC}]9;9;/etc${ST}${ESC}]777;notify;x;y${BEL}` +
  `see ${ESC}]8;;https://example.com/${BEL}the docs${ESC}]8;;${BEL} now\r\n` +
  `${ESC}P$qm${ST}tab\tend\r\n` +
  `\u009d633;E;ls\u009c after C1\r\n`;

describe('panel terminal: OSC strings other than hyperlinks are removed', () => {
  it('removes shell integration, clipboard, title and colour strings; keeps hyperlinks and draws the same', async () => {
    const before = await render(HOSTILE);
    assert.ok(
      before.osc.some((o) => o.startsWith('633;E;rm')),
      'the unfiltered output does carry shell integration',
    );
    const filtered = filterAll([HOSTILE]);
    const after = await render(filtered);
    assert.deepEqual(after.osc, ['8;;https://example.com/', '8;;']);
    assert.equal(after.screen, before.screen);
    assert.ok(!filtered.includes('633') && !filtered.includes('ZWNob'), shown(filtered));
  });

  it('gives the same result whatever the chunks: every two-way cut, and one unit at a time', () => {
    const whole = filterAll([HOSTILE]);
    for (let cut = 0; cut <= HOSTILE.length; cut++) {
      assert.equal(filterAll([HOSTILE.slice(0, cut), HOSTILE.slice(cut)]), whole, `cut at ${cut}`);
    }
    assert.equal(filterAll(Array.from(HOSTILE)), whole);
  });

  it('an emptied string keeps its introducer and terminator: ESC ] 633;E;ls BEL becomes ESC ] BEL', () => {
    assert.equal(filterAll([`a${ESC}]633;E;ls${BEL}b${ESC}]0;t${ST}c\u009d52;c;eA==\u009cd`]), `a${ESC}]${BEL}b${ESC}]${ST}c\u009d\u009cd`);
  });

  it('a string ended by ESC and a new sequence, or by CAN, keeps what ended it', async () => {
    const text = `${ESC}]633;E;ls${ESC}[32mgreen${ESC}[0m ${ESC}]52;c;eA==\x18after`;
    const filtered = filterAll([text]);
    assert.equal(filtered, `${ESC}]${ESC}[32mgreen${ESC}[0m ${ESC}]\x18after`);
    assert.equal((await render(filtered)).screen, (await render(text)).screen);
  });

  it('a string that never ends is emptied up to where the parser ends it, and nothing after is lost', () => {
    const f = new PanelFilter();
    assert.equal(f.push(`x${ESC}]633;E;`), `x${ESC}]`);
    assert.equal(f.push('a'.repeat(100_000)), '');
    assert.equal(f.push(`${BEL}y`), `${BEL}y`);
  });

  it('an identifier held across chunks passes whole when it is 8, and one longer than any real one does not', () => {
    const f = new PanelFilter();
    assert.equal(f.push(`${ESC}]`), `${ESC}]`);
    assert.equal(f.push('8'), '');
    assert.equal(f.push(';;u'), '8;;u');
    assert.equal(filterAll([`${ESC}]000000008;;x${BEL}z`]), `${ESC}]${BEL}z`);
    assert.equal(filterAll([`${ESC}]8${BEL}`, `${ESC}]`, '8', `${ST}`]), `${ESC}]8${BEL}${ESC}]8${ST}`);
    assert.equal(filterAll([`${ESC}]52${BEL}`]), `${ESC}]${BEL}`);
    assert.equal(filterAll([`${ESC}]8;;u${BEL}t${ESC}]8;;${ST}`]), `${ESC}]8;;u${BEL}t${ESC}]8;;${ST}`);
  });

  it('random output: the filtered text draws what the original draws, and xterm.js parses only hyperlinks in it', async () => {
    const pieces = [
      'a',
      'é',
      '😀',
      '\r\n',
      '\t',
      ESC,
      `${ESC}]`,
      ']',
      '\\',
      BEL,
      ';',
      '8',
      '633',
      '52',
      '0',
      'E;x',
      `${ESC}[`,
      '1m',
      '\x18',
      '\u009d',
      '\u009c',
      `${ESC}P`,
      '$q',
    ];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let k = 0; k < 40; k++) text += pieces[rnd(pieces.length)];
      text += `${BEL}${ST}${ESC}[0m end`;
      const chunks: string[] = [];
      for (let at = 0; at < text.length; ) {
        const n = 1 + rnd(8);
        chunks.push(text.slice(at, at + n));
        at += n;
      }
      const filtered = filterAll(chunks);
      assert.equal(filtered, filterAll([text]), `chunking changed the result for ${shown(text)}`);
      const [before, after] = [await render(text), await render(filtered)];
      assert.ok(
        after.osc.every((o) => o.startsWith('8;')),
        `${shown(text)} left ${JSON.stringify(after.osc)}`,
      );
      assert.equal(after.screen, before.screen, `drawing changed for ${shown(text)} -> ${shown(filtered)}`);
    }
  });
});
