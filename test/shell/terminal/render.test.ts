/**
 * No output can stall the extension host: rendering terminal text for the model is bounded in time
 * whatever escapes a program prints. Counts that make the emulator loop are lowered without
 * changing what is rendered (compared with the emulator fed the counts as they are); a render
 * that runs out of time says so and keeps every printable character as plain text. Through real
 * sessions (real node-pty, real bash), the event loop stays free while pathological output is
 * rendered. Time is checked only as the longest stall of the event loop, with generous bounds.
 */
import * as assert from 'node:assert/strict';
import { assertRenderedBeforeAfter } from '../../helpers/renderLimit';
import { Geometry, boundCount, repeatBound } from '../../../src/terminal/output/escapeCounts';
import { CHUNK_UNITS, plainText, renderChunks } from '../../../src/terminal/output/escapeScan';
import { RENDER_LIMIT_NOTICE, REPEAT_UNITS, TextRenderer } from '../../../src/terminal/output/screenText';
import { harnessPerTest, pythonWrites } from '../../helpers/terminalHarness';
import { element } from '../../helpers/element';
import { longestStall } from '../../helpers/eventLoopLag';
import { seededInt } from '../../helpers/random';

const E = '\x1b';
/**
 * Longest the event loop may be held by one render here (ms). By design a render holds it for at
 * most RENDER_WALL_MS (400 ms) plus one chunk and reading the buffer back; the bound allows far
 * more for a loaded machine. Unbounded, these inputs hold it for minutes.
 */
const STALL_BOUND_MS = 2500;

/** Runs `fn` and returns its value and wall time (ms): for a synchronous render, how long it held the event loop. */
function timed<T>(fn: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = fn();
  return { value, ms: performance.now() - started };
}

describe('plain ASCII text renders what the emulator renders (no PTY)', () => {
  it('lines of printable ASCII (blanks, exact and wrapped widths, CR LF, empty lines) come out as the emulator draws them', () => {
    const rand = seededInt(20);
    const fast = new TextRenderer(10, 4);
    const emulator = new TextRenderer(10, 4, { plainFastPath: false });
    const pieces = ['', ' ', '  ', 'a', 'abcdefghij', 'abcdefghi ', 'abcdefghij ', 'x'.repeat(25), 'y '.repeat(12), '~!{}'];
    for (let n = 0; n < 300; n++) {
      const lines = Array.from({ length: 1 + rand(6) }, () => pieces[rand(pieces.length)]! + (rand(3) === 0 ? '\r' : ''));
      const raw = lines.join('\n') + (rand(2) ? '\n' : '');
      for (const keepCursorBlanks of [false, true]) {
        assert.deepEqual(fast.render(raw, { keepCursorBlanks }), emulator.render(raw, { keepCursorBlanks }), JSON.stringify(raw));
      }
    }
    // Many batches (more lines than one emulator batch holds), and text that is not plain in one of them.
    const long = Array.from({ length: 700 }, (_, i) =>
      i === 450 ? `\x1b[31mred\x1b[0m ${i}` : i === 500 ? 'a\tb\rc' : `line ${i}  `,
    ).join('\r\n');
    assert.deepEqual(fast.render(long, { keepCursorBlanks: true }), emulator.render(long, { keepCursorBlanks: true }));
  });
});

describe('lowered counts render what the emulator renders with the full counts', () => {
  /** Random output mixing text, cursor jumps, margins, modes, colours, tab stops and counted sequences. */
  function randomOutput(pick: (n: number) => number, cols: number, rows: number): string {
    /** One of `items`, picked by `pick` once the items are built (the same draws as indexing them). */
    const choose = <T>(items: readonly T[]): T => element(items, pick(items.length), 'random choice');
    const { least, period } = repeatBound({ cols, rows, bufferRows: 1000 + rows });
    const finals = ['@', 'I', 'L', 'M', 'P', 'S', 'T', 'X', 'Z', 'b'];
    const texts = ['abc', 'hello world', '中文', '😀', 'x', 'é', '0123456789abcdef'];
    const count = () =>
      choose([
        0,
        1,
        2,
        rows - 1,
        rows,
        rows + 1,
        cols - 1,
        cols,
        cols + 1,
        50 + pick(5000),
        least + pick(3) * period + pick(period + 2) - 1,
      ]);
    let out = '';
    for (let i = 0; i < 40; i++) {
      switch (pick(12)) {
        case 0:
          out += '\r\n';
          break;
        case 1:
          out += `${E}[${1 + pick(rows + 2)};${1 + pick(cols + 2)}H`;
          break;
        case 2:
          out += `${E}[${1 + pick(rows)};${1 + pick(rows)}r`;
          break;
        case 3:
          out += choose([`${E}[4h`, `${E}[4l`, `${E}[?7l`, `${E}[?7h`, `${E}[?6h`, `${E}[?6l`]);
          break;
        case 4:
          out += choose([`${E}[41m`, `${E}[0m`, `${E}[1;32m`]);
          break;
        case 5:
          out += choose([`${E}H`, `${E}[3g`, `${E}[g`, '\t']);
          break;
        case 6:
        case 7:
          out += choose(texts) + `${E}[${count()}b`;
          break;
        default:
          out += choose(texts).repeat(1 + pick(3)) + `${E}[${count()}${choose(finals)}`;
      }
    }
    return out;
  }

  for (const [cols, rows] of [
    [10, 4],
    [11, 5],
  ] as const) {
    it(`on random moderate inputs (${cols}×${rows}): same lines, same screen`, () => {
      const lowered = new TextRenderer(cols, rows, { budgetMs: 60_000, wallMs: 60_000 });
      const full = new TextRenderer(cols, rows, { budgetMs: 60_000, wallMs: 60_000, boundCounts: false });
      const pick = seededInt(cols * 1000 + rows);
      for (let i = 0; i < 80; i++) {
        const raw = `${randomOutput(pick, cols, rows)}\n${randomOutput(pick, cols, rows)}`;
        const a = lowered.render(raw, { keepCursorBlanks: true });
        const b = full.render(raw, { keepCursorBlanks: true });
        assert.deepEqual(a, b, `input ${JSON.stringify(raw)}`);
        assert.deepEqual(lowered.screen(raw), full.screen(raw), `screen of ${JSON.stringify(raw)}`);
      }
    });
  }

  it('REP of a narrow and of a wide character, counts around and past the bound', () => {
    for (const cols of [10, 11]) {
      const geometry: Geometry = { cols, rows: 4, bufferRows: 1004 };
      const { least, period } = repeatBound(geometry);
      const lowered = new TextRenderer(cols, 4, { budgetMs: 60_000, wallMs: 60_000 });
      const full = new TextRenderer(cols, 4, { budgetMs: 60_000, wallMs: 60_000, boundCounts: false });
      for (const ch of ['x', '中']) {
        for (const n of [least - 1, least, least + 1, least + period - 1, least + period, least + 2 * period + 3, 3 * least + 7]) {
          for (const raw of [`${ch}${E}[${n}b`, `ab\r\n${E}[2;3r${E}[3;1H${ch}${E}[${n}b`, `${E}[?7l${ch}${E}[${n}b`]) {
            assert.deepEqual(
              lowered.render(raw, { keepCursorBlanks: true }),
              full.render(raw, { keepCursorBlanks: true }),
              `${JSON.stringify(raw)}`,
            );
          }
        }
      }
    }
  });

  it('lowers only counts past their bound', () => {
    const g: Geometry = { cols: 120, rows: 30, bufferRows: 1030 };
    assert.equal(boundCount('L', 1_000_000, g), 30);
    assert.equal(boundCount('S', 12, g), 12);
    assert.equal(boundCount('I', 2 ** 31 - 1, g), 120);
    assert.equal(boundCount('@', 0, g), 0);
    const { least, period } = repeatBound(g);
    assert.equal(boundCount('b', 300_000_000, g), least + ((300_000_000 - least) % period));
    assert.equal(boundCount('b', least, g), least);
  });
});

describe('rendering pathological output is bounded in time (no PTY)', () => {
  const screenfulOfLines = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
  const first10 = screenfulOfLines.split('\n').slice(0, 10);
  // Each count below costs the emulator seconds to minutes when applied as it is.
  const cases: { name: string; raw: string; lines: string[] }[] = [
    // 300 000 001 x: the buffer keeps 1000 + 30 rows of 120; the last holds the 1 left over.
    { name: 'REP with a count of 300 000 000', raw: `x${E}[300000000b`, lines: ['x'.repeat(1029 * 120 + 1)] },
    { name: 'REP with huge counts, five times', raw: `x${E}[300000000b`.repeat(5), lines: ['x'.repeat(1029 * 120 + 5)] },
    { name: 'a flood of ICH with huge counts', raw: `abc${`${E}[1000000000@`.repeat(20_000)}`, lines: ['abc'] },
    { name: 'a flood of IL with huge counts', raw: `${screenfulOfLines}${E}[H${`${E}[1000000L`.repeat(200)}`, lines: [...first10, ''] },
    {
      name: 'a flood of DL, SU and SD with huge counts',
      raw: `${screenfulOfLines}${E}[H${`${E}[1000000M${E}[1000000S${E}[1000000T`.repeat(100)}`,
      lines: [...first10, ''],
    },
    {
      name: 'cursor jumps with inserts',
      raw: `${screenfulOfLines}${Array.from({ length: 300 }, (_, i) => `${E}[${(i % 30) + 1};${(i % 120) + 1}H${E}[1000@${E}[1000000L`).join('')}`,
      lines: [...first10, ...Array<string>(30).fill('')],
    },
    {
      name: 'tab steps with huge counts after the tab stops were cleared',
      raw: `${E}[3ga${`${E}[2000000000I${E}[2000000000Z`.repeat(1000)}b`,
      lines: ['b'],
    },
    {
      name: 'a resize request (CSI 8 t, not honoured) and huge ECH/DCH',
      raw: `${E}[8;10000;10000tab${`${E}[2000000000X${E}[2000000000P`.repeat(1000)}c`,
      lines: ['abc'],
    },
  ];
  for (const { name, raw, lines } of cases) {
    it(`${name}: bounded in time, and the text the full counts give`, () => {
      const bounded = timed(() => new TextRenderer(120, 30).render(raw));
      assert.ok(bounded.ms < STALL_BOUND_MS, `render held the event loop for ${bounded.ms.toFixed(0)} ms`);
      // Counts lowered but no time limit: exactly the text of the counts as they are.
      const exact = new TextRenderer(120, 30, { budgetMs: Infinity, wallMs: Infinity }).render(raw);
      assert.ok(!exact.limited && exact.lines.length === lines.length, `${exact.lines.length} lines, limited ${exact.limited}`);
      exact.lines.forEach((line, i) => assert.ok(line === lines[i], `line ${i}: ${line.length} chars, expected ${lines[i]?.length}`));
      // Within the budget (a loaded machine may stop it early, and then it says so).
      if (bounded.value.limited) assert.ok(bounded.value.lines.includes(RENDER_LIMIT_NOTICE));
      else assert.ok(bounded.value.lines.length === lines.length && bounded.value.lines.every((line, i) => line === lines[i]));
      const screen = timed(() => new TextRenderer(120, 30).screen(raw));
      assert.ok(screen.ms < STALL_BOUND_MS, `screen held the event loop for ${screen.ms.toFixed(0)} ms`);
    });
  }

  it('a REP of a character with a thousand combining marks is shortened and says so', () => {
    const cluster = `e${'\u0301'.repeat(1000)}`;
    const r = new TextRenderer(120, 30);
    const { value, ms } = timed(() => r.render(`${cluster}${E}[1000000b`));
    assert.ok(ms < STALL_BOUND_MS, `render held the event loop for ${ms.toFixed(0)} ms`);
    assert.equal(value.limited, true);
    assert.deepEqual(value.lines, [cluster.repeat(1 + Math.floor(REPEAT_UNITS / cluster.length))]);
    // A short cluster (a letter and one mark, 2 units) is repeated in full.
    assert.deepEqual(r.render(`e\u0301${E}[99b`), { lines: ['e\u0301'.repeat(100)] });
  });

  it('screen fills (DECALN) and long OSC/DCS strings: past the budget the rest is plain text, nothing printable lost', () => {
    const r = new TextRenderer(120, 30);
    const raw = `before${'\n'.repeat(31)}${`${E}#8`.repeat(300_000)}${E}]0;${'t'.repeat(1_000_000)}\x07${E}P$q${'d'.repeat(1_000_000)}${E}\\\nafter`;
    const { value, ms } = timed(() => r.render(raw));
    assert.ok(ms < STALL_BOUND_MS, `render held the event loop for ${ms.toFixed(0)} ms`);
    assert.equal(value.limited, true);
    const notice = value.lines.indexOf(RENDER_LIMIT_NOTICE);
    assert.ok(notice > 0, 'the notice marks where plain text begins');
    assert.equal(value.lines[0], 'before');
    assert.deepEqual(value.lines.slice(notice + 1).filter(Boolean), ['after']);
  });
});

describe('a render that runs out of time', () => {
  const text = (i: number) => `line ${i} ${'.'.repeat(30)}`;
  const coloured = (n: number) => Array.from({ length: n }, (_, i) => `${E}[3${i % 8}m${text(i)}${E}[0m`);
  /** The rendered lines and the plain lines joined again where the render stopped (possibly inside a line). */
  function rejoin(lines: string[]): string[] {
    const at = lines.indexOf(RENDER_LIMIT_NOTICE);
    assert.ok(at >= 0);
    const joined = element(lines, at - 1, 'line before the notice') + element(lines, at + 1, 'line after the notice');
    return [...lines.slice(0, at - 1), joined, ...lines.slice(at + 2)];
  }

  it('inside a batch: rendered lines, the notice, then plain text; every line kept in order', () => {
    // 150 lines (one batch) of over 4096 units: at least two chunks; with no budget only the first is fed.
    const r = new TextRenderer(40, 5, { budgetMs: 0, wallMs: 0 });
    const raw = coloured(150).join('\n');
    assert.ok(raw.length > CHUNK_UNITS);
    const { lines, limited } = r.render(raw);
    assert.equal(limited, true);
    assert.deepEqual(
      rejoin(lines),
      coloured(150).map((_, i) => text(i)),
    );
    assert.ok(lines.every((l) => !l.includes(E)));
  });

  it('between batches: the batches not rendered follow as plain text', () => {
    const r = new TextRenderer(40, 5, { budgetMs: 0, wallMs: 0 });
    const short = Array.from({ length: 500 }, (_, i) => `${E}[1m${i}${E}[0m`);
    const { lines, limited } = r.render(short.join('\r\n'));
    assert.equal(limited, true);
    assert.deepEqual(
      rejoin(lines),
      short.map((_, i) => String(i)),
    );
  });

  it('a screen read: the screen so far, the notice, the plain tail', () => {
    const r = new TextRenderer(40, 5, { budgetMs: 0, wallMs: 0 });
    const screen = r.screen(coloured(150).join('\n'));
    assert.equal(screen.limited, true);
    assert.deepEqual(
      screen.lines.slice(-5),
      coloured(150)
        .slice(-5)
        .map((_, i) => text(145 + i)),
    );
  });

  it('leaves nothing behind for the next render (an open sequence is cancelled)', () => {
    const r = new TextRenderer(20, 4);
    assert.deepEqual(r.render('a\x1b]0;unterminated title').lines, ['a']);
    assert.deepEqual(r.render('hello').lines, ['hello']);
    assert.deepEqual(r.render('x\x1b').lines, ['x']);
    assert.deepEqual(r.render('[31mred').lines, ['[31mred']);
  });
});

describe('escape scanning without an emulator', () => {
  it('plain text: every escape sequence and control removed, printable text kept', () => {
    const raw = `a${E}[31mb${E}]0;title\x07c${E}P$qm${E}\\d\x9b1me${E}(Bf\x9d8;;x\x9cg\r\nh\ri\tj\bk${E}Xsos${E}\\l`;
    assert.equal(plainText(raw), 'abcdefg\nh\ni\tjkl');
    // Started inside an OSC, its rest is not text.
    assert.equal(plainText(`x${E}]0;tit` + 'le\x07y', 8), 'y');
  });

  it('chunks cover the text, never cut a CSI or a surrogate pair, and bound expensive sequences', () => {
    const g: Geometry = { cols: 120, rows: 30, bufferRows: 1030 };
    const text = `😀${E}[1;2;3m`.repeat(5000) + `x${E}[300000000b`.repeat(100) + 'y'.repeat(10_000);
    const ends = renderChunks(text, g);
    assert.equal(ends.at(-1), text.length);
    let start = 0;
    for (const end of ends) {
      assert.ok(end > start && end - start <= CHUNK_UNITS + 16);
      const head = text.slice(0, end);
      assert.doesNotMatch(head, /(\x1b\[|\x9b)[0-?]*[ -/]*$/, `cut inside a CSI at ${end}`);
      assert.ok(!/[\ud800-\udbff]$/.test(head), `cut inside a surrogate pair at ${end}`);
      start = end;
    }
    // Each REP of the bound's count is a chunk of its own.
    assert.ok(ends.filter((e) => e > 5000 * 10 && e <= 5000 * 10 + 100 * 13).length >= 99);
    assert.deepEqual(renderChunks('', g), []);
  });
});

describe('pathological output through a real session does not stall the extension host (pty-bash)', function () {
  this.timeout(180_000);
  const h = harnessPerTest({ quietThresholdMs: 6_000 });

  const py = pythonWrites;
  const cases: { name: string; command: string; output: string | RegExp }[] = [
    // The line feed after the x takes the buffer's last row: 1028 full rows and the 1 left over.
    { name: "printf 'x\\e[300000000b'", command: "printf 'x\\e[300000000b\\n'", output: 'x'.repeat(1028 * 120 + 1) },
    { name: 'an ICH flood', command: py(`"abc" + "\\x1b[1000000000@" * 20000 + "\\n"`), output: 'abc' },
    {
      name: 'an IL flood',
      command: py(`"\\n".join("line %d" % i for i in range(40)) + "\\x1b[H" + "\\x1b[1000000L" * 200 + "\\n"`),
      output: /^line 0\n(line \d\n){8}line 9$/,
    },
    {
      name: 'cursor jumps with inserts',
      command: py(`"".join("\\x1b[%d;%dH\\x1b[1000@\\x1b[1000000L" % (i % 30 + 1, i % 120 + 1) for i in range(300)) + "\\x1b[30;1HEND\\n"`),
      output: /^\n*END$/,
    },
  ];
  for (const { name, command, output } of cases) {
    it(`${name}: the result arrives, another session is answered meanwhile, reads stay bounded`, async () => {
      const a = (await h.service.open(h.owner)).sessionId;
      const b = (await h.service.open(h.owner)).sessionId;
      const { value, stallMs } = await longestStall(() =>
        Promise.all([h.service.send(h.owner, a, { input: command }), h.service.send(h.owner, b, { input: 'sleep 0.5; echo other' })]),
      );
      const [result, other] = value;
      assert.equal(result.waiting, 'shell-prompt');
      const shown = `${result.output.length} chars: ${JSON.stringify(result.output.slice(0, 300))}`;
      assert.ok(typeof output === 'string' ? result.output === output : output.test(result.output), shown);
      assert.equal(result.renderLimited, undefined);
      assert.equal(other.output, 'other');
      assert.ok(stallMs < STALL_BOUND_MS, `the event loop was held for ${stallMs.toFixed(0)} ms`);
      const page = timed(() => h.service.read(h.owner, a, { count: 100 }));
      const screen = timed(() => h.service.read(h.owner, a, { screen: true }));
      assert.ok(page.ms < STALL_BOUND_MS && screen.ms < STALL_BOUND_MS, `read ${page.ms.toFixed(0)} ms, screen ${screen.ms.toFixed(0)} ms`);
    });
  }

  it('output that outlasts the render budget: the send result says renderLimited; plain text follows the notice', async () => {
    const a = (await h.service.open(h.owner)).sessionId;
    const { value: r, stallMs } = await longestStall(() =>
      h.service.send(h.owner, a, { input: py(`"before" + "\\n" * 31 + "\\x1b#8" * 80000 + "\\x1b[2J\\x1b[Hafter\\n"`) }),
    );
    assert.ok(stallMs < STALL_BOUND_MS, `the event loop was held for ${stallMs.toFixed(0)} ms`);
    assertRenderedBeforeAfter(r);
    const page = timed(() => h.service.read(h.owner, a, { count: 10 }));
    assert.ok(page.ms < STALL_BOUND_MS, `read ${page.ms.toFixed(0)} ms`);
  });
});
