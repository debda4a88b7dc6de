// Plain lines the panel mirror's emulator need not parse (src/terminal/panel/heldLines.ts): the emulator's
// worker holds ordinary output back and drops all but its newest lines, and what it shows must be
// what an emulator that parsed everything shows.
import * as assert from 'node:assert/strict';
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { PanelFilter } from '../../../../src/terminal/panel/panelFilter';
import { HeldLines, MAX_HELD_UNITS, isPlainText, mayHoldIn, rowsToKeep } from '../../../../src/terminal/panel/heldLines';
import { MirrorEmulator } from '../../../../src/terminal/panel/mirrorEmulator';
import { initialText, scrollRegion } from '../../../../src/terminal/panel/skipAhead';
import { mirrorEmulatorEntry } from '../../../helpers/workerEntry';
import { until } from '../../../helpers/wait';
import { seededRandom } from '../../../helpers/random';

const E = '\x1b';

/** Output as programs print it: bursts of ordinary lines (wide characters, tabs, long lines, progress bars) among sequences that move, colour, insert, set scroll regions and switch screens. */
function output(next: () => number, rows: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const chars = ['a', 'b', 'Z', ' ', '-', '\t', 'é', '中', '😀', 'x'];
  const line = (max: number) => Array.from({ length: Math.floor(next() * max) }, () => pick(chars)).join('');
  const ends = ['\r\n', '\r\n', '\r\n', '\n', '\r'];
  let text = '';
  for (let k = 0; k < 60; k++) {
    const r = next();
    if (r < 0.35) for (let n = Math.floor(next() * 400); n > 0; n--) text += line(30) + pick(ends);
    else if (r < 0.42) text += line(300) + '\r\n';
    else if (r < 0.45)
      text +=
        Array.from({ length: 2000 + Math.floor(next() * 8000) }, (_, n) => 'abcdefghijklmnopqrstuvwxyz'[n % 26]).join('') +
        (next() < 0.5 ? '\r\n' : '');
    else if (r < 0.55) text += `${E}[3${Math.floor(next() * 8)}m`;
    else if (r < 0.62) text += `${E}[${1 + Math.floor(next() * rows)};${1 + Math.floor(next() * 10)}H`;
    else if (r < 0.68) text += next() < 0.5 ? `${E}[2;${rows - 1}r${E}[${Math.floor(next() * 3)}H` : `${E}[r`;
    else if (r < 0.74) text += next() < 0.5 ? `${E}[?1049h` : `${E}[?1049l`;
    else if (r < 0.77) text += next() < 0.5 ? `${E}[4h` : `${E}[4l`;
    else if (r < 0.8) text += next() < 0.5 ? `${E}[?7l` : `${E}[?7h`;
    else if (r < 0.85) text += `${E}[2J`;
    else if (r < 0.9) text += `${E}]0;title${E}\\`;
    else text += line(20);
  }
  return text;
}

/**
 * `writes` given one by one, as a session's reads come (the worker idle between them), to the
 * emulator's worker and to an emulator that parses everything, both through a PanelFilter as the
 * mirror gives them; then both snapshots (the newest `scrollback` lines and the screen).
 */
async function bothAfter(
  writes: string[],
  cols = 20,
  rows = 6,
  scrollback = 10,
): Promise<{ mine: string; expected: string; unparsed: number }> {
  const reference = new Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
  const serializer = new SerializeAddon();
  reference.loadAddon(serializer);
  const worker = new MirrorEmulator(mirrorEmulatorEntry(), { cols, rows, scrollback, tail: '' }, () => undefined);
  const filter = new PanelFilter(cols, rows);
  try {
    for (const write of writes) {
      const fromGround = filter.ground;
      const { text, costs } = filter.filter(write);
      reference.write(text);
      worker.write(
        text,
        costs.reduce((a, b) => a + b, 0),
        fromGround,
      );
      await until('the worker to take the write', () => worker.backlog === 0 || undefined, 10_000);
    }
    const mine = await worker.snapshot('initial', 0, scrollback);
    await new Promise<void>((r) => reference.write('', r));
    return { mine, expected: initialText({ term: reference, serializer }, scrollback), unparsed: worker.unparsed };
  } finally {
    void worker.dispose();
    reference.dispose();
  }
}

/** `count` numbered lines of `prefix`, `perWrite` to a write. */
const lines = (prefix: string, count: number, perWrite = 10) =>
  Array.from({ length: Math.ceil(count / perWrite) }, (_, w) =>
    Array.from({ length: Math.min(perWrite, count - w * perWrite) }, (_, n) => `${prefix}${w * perWrite + n}\r\n`).join(''),
  );

describe('panel mirror: plain lines held back from the emulator', () => {
  it('tells plain text (printable characters, CR, LF, HT) from text with controls', () => {
    assert.equal(isPlainText('abc é 中 😀\t\r\n'), true);
    assert.equal(isPlainText(''), true);
    for (const c of ['\x1b', '\x07', '\x08', '\x0e', '\x7f', '\x85', '\x9b', '\x00', '\x0b'])
      assert.equal(isPlainText(`a${c}b`), false, JSON.stringify(c));
  });

  it('keeps the newest lines, dropping older ones just after a CR LF, and gives everything held back in order', () => {
    const keep = rowsToKeep(2, 0);
    const held = new HeldLines({ cols: 20, rows: 2, scrollback: 0 });
    let all = '';
    for (let n = 0; n < 100; n++) {
      // CR LF pairs split between two texts count too.
      const text = n % 3 === 0 ? `line ${n}\r` : n % 3 === 1 ? `\nline ${n}\r\n` : `line ${n}\r\n`;
      all += text;
      assert.equal(held.hold(text), '');
    }
    const size = held.size;
    const kept = held.take();
    assert.equal(kept.length, size);
    assert.ok(all.endsWith(kept), 'what is kept is the newest text');
    assert.ok(all.slice(0, all.length - kept.length).endsWith('\r\n'), 'the drop ends just after a CR LF');
    assert.ok(kept.split('\r\n').length - 1 >= keep && kept.split('\r\n').length - 1 <= 2 * keep, `${keep} to ${2 * keep} lines are kept`);
    assert.equal(held.dropped, all.length - kept.length);
    assert.equal(held.size, 0);
    assert.equal(held.take(), '');
  });

  it('keeps the newest rows of a long line of printable ASCII, dropping whole rows of it', () => {
    const geometry = { cols: 7, rows: 3, scrollback: 4 };
    const held = new HeldLines(geometry);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const head = 'wide 中\t';
    let line = '';
    for (let n = 0; n < 5000; n++) line += letters[n % 26];
    let given = held.hold(head);
    for (let at = 0; at < line.length; at += 100) given += held.hold(line.slice(at, at + 100));
    given += held.take();
    const dropped = head.length + line.length - given.length;
    assert.equal(held.dropped, dropped);
    assert.ok(dropped > 0 && dropped % geometry.cols === 0, `whole rows are dropped (${dropped} units)`);
    assert.equal(given.slice(0, head.length), head, 'what comes before the ASCII stretch stays');
    assert.equal(given.slice(head.length), line.slice(dropped), 'the newest part of the stretch stays');
    const kept = line.length - dropped;
    const keep = rowsToKeep(geometry.rows, geometry.scrollback) * geometry.cols;
    assert.ok(kept >= keep && kept < 2 * keep + 100, `${keep} to ${2 * keep} units of it are kept (${kept})`);
  });

  it('gives a line it cannot shorten (not ASCII) back to be parsed whole, with what was held before it', () => {
    const held = new HeldLines({ cols: 80, rows: 24, scrollback: 200 });
    const chunk = '中'.repeat(64 * 1024);
    let given = '';
    let all = 'first\r\n';
    assert.equal(held.hold('first\r\n'), '');
    for (let n = 0; n < 20; n++) {
      all += chunk;
      given += held.hold(chunk);
      assert.ok(held.size <= MAX_HELD_UNITS);
    }
    given += held.take();
    assert.equal(given, all, 'nothing is dropped of a line with no line ends');
    assert.equal(held.dropped, 0);
  });

  it('refuses a size that is not a whole number of cells', () => {
    assert.throws(() => new HeldLines({ cols: 0, rows: 24, scrollback: 0 }), {
      name: 'RangeError',
      message: "cols must be an integer ≥ 1, part of an emulator's size (got 0)",
    });
    assert.throws(() => new HeldLines({ cols: 80, rows: 24.5, scrollback: 0 }), {
      name: 'RangeError',
      message: "rows must be an integer ≥ 1, part of an emulator's size (got 24.5)",
    });
    assert.throws(() => new HeldLines({ cols: 80, rows: 24, scrollback: -1 }), {
      name: 'RangeError',
      message: "scrollback must be an integer ≥ 0, part of an emulator's size (got -1)",
    });
  });

  it('holds only where the emulator parsed everything with the whole screen as its scroll region and insert mode off', async () => {
    const term = new Terminal({ cols: 20, rows: 6, scrollback: 10, allowProposedApi: true });
    const write = (s: string) => new Promise<void>((r) => term.write(s, r));
    assert.deepEqual(scrollRegion(term), { top: 0, bottom: 5 }, "the pinned @xterm/headless's scroll region is read");
    assert.equal(mayHoldIn(term), true);
    await write(`${E}[2;4r`);
    assert.equal(mayHoldIn(term), false, 'a scroll region');
    await write(`${E}[r${E}[4h`);
    assert.equal(mayHoldIn(term), false, 'insert mode');
    await write(`${E}[4l${E}[?7l`);
    assert.equal(mayHoldIn(term), false, 'wraparound off');
    await write(`${E}[?7h`);
    assert.equal(mayHoldIn(term), true);
    term.dispose();
  });

  it('drops older lines only where the newest ones overwrite every row they left, text beside shorter lines included', async () => {
    // The screen full of long lines and the cursor back at the top: the first lines after it are
    // written over them, leaving their ends beside them.
    const screen = `${'A'.repeat(20)}\r\n`.repeat(5) + 'A'.repeat(20) + '\x1b[H';
    const { mine, expected, unparsed } = await bothAfter([screen, ...lines('b', 2 * rowsToKeep(6, 10) + 5)]);
    assert.equal(mine, expected);
    assert.ok(unparsed > 0, 'older lines were dropped unparsed');
  });

  it('drops whole rows of one long line where its newest rows overwrite every row they left, and not while wraparound is off', async () => {
    const screen = `${'A'.repeat(20)}\r\n`.repeat(5) + 'A'.repeat(20) + '\x1b[3;5H';
    let line = '';
    for (let n = 0; n < 20 * rowsToKeep(6, 10) * 3; n++) line += 'abcdefghijklmnopqrstuvwxyz'[n % 26];
    const writes = (text: string) => Array.from({ length: Math.ceil(text.length / 300) }, (_, k) => text.slice(k * 300, k * 300 + 300));
    const wrapping = await bothAfter([screen, 'wide 中\t', ...writes(line), '\r\nend\r\n']);
    assert.equal(wrapping.mine, wrapping.expected);
    assert.ok(wrapping.unparsed > 0, 'rows were dropped unparsed');
    const unwrapped = await bothAfter([`${screen}\x1b[?7l`, ...writes(line)]);
    assert.equal(unwrapped.mine, unwrapped.expected);
    assert.equal(unwrapped.unparsed, 0);
  });

  it('counts rows as the emulator makes them where it widens a terminal asked for 1 column', async () => {
    let line = '';
    for (let n = 0; n < 77; n++) line += 'abcdefghijklmnopqrstuvwxyz'[n % 26];
    const { mine, expected } = await bothAfter([line], 1, 2, 1);
    assert.equal(mine, expected);
  });

  it('holds nothing while a scroll region smaller than the screen is set (its rows outside keep what was written there)', async () => {
    const { mine, expected, unparsed } = await bothAfter(['\x1b[2;5r\x1b[H', ...lines('line ', 200)]);
    assert.equal(mine, expected);
    assert.equal(unparsed, 0);
  });

  it('holds nothing that continues a sequence a read cut in two', async () => {
    const { mine, expected } = await bothAfter(['before\r\n\x1b[3', '1mred\r\n' + lines('red ', 200, 200)[0]!, ...lines('more ', 100)]);
    assert.match(expected, /\x1b\[31m/, 'the pen is red');
    assert.equal(mine, expected);
  });

  it('the worker shows what an emulator that parsed everything shows, at every size, whatever the output and however it arrives', async function () {
    this.timeout(120_000);
    const scrollback = 30;
    let dropped = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const next = seededRandom(seed);
      const cols = 10 + Math.floor(next() * 30);
      const rows = 3 + Math.floor(next() * 10);
      const reference = new Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
      const serializer = new SerializeAddon();
      reference.loadAddon(serializer);
      const lost: Error[] = [];
      const worker = new MirrorEmulator(mirrorEmulatorEntry(), { cols, rows, scrollback, tail: '' }, (e) => lost.push(e));
      const filter = new PanelFilter(cols, rows);
      try {
        const stream = output(next, rows);
        const step = async (at: number) => {
          // A snapshot, and sometimes a resize, at a random point: both see everything before them.
          const mine = await worker.snapshot('initial', 0, scrollback);
          await new Promise<void>((r) => reference.write('', r));
          assert.equal(
            mine,
            initialText({ term: reference, serializer }, scrollback),
            `seed ${seed}, ${cols}x${rows}, ${at} of ${stream.length} units`,
          );
          if (next() < 0.3) {
            const c = 10 + Math.floor(next() * 30);
            const r = 3 + Math.floor(next() * 10);
            reference.resize(c, r);
            worker.resize(c, r);
            filter.resize(c, r);
          }
        };
        for (let at = 0; at < stream.length; ) {
          // Cut anywhere, inside sequences and surrogate pairs too, as reads from a PTY are; often
          // just inside a sequence, so the text after the cut continues it.
          let end = Math.min(stream.length, at + 1 + Math.floor(next() * 3000));
          const escape = stream.indexOf(E, at);
          if (escape >= at && escape < end && next() < 0.5) end = Math.min(stream.length, escape + 1 + Math.floor(next() * 4));
          const fromGround = filter.ground;
          const { text, costs } = filter.filter(stream.slice(at, end));
          reference.write(text);
          worker.write(
            text,
            costs.reduce((a, b) => a + b, 0),
            fromGround,
          );
          at = end;
          if (next() < 0.3) await step(at);
        }
        await step(stream.length);
        await until('the worker to count every write parsed', () => worker.backlog === 0 || undefined, 10_000);
        dropped += worker.unparsed;
        assert.deepEqual(lost, []);
      } finally {
        void worker.dispose();
        reference.dispose();
      }
    }
    assert.ok(dropped > 100_000, `plain lines were held back and dropped unparsed (${dropped} units)`);
  });
});
