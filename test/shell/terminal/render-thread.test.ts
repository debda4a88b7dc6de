/**
 * The model-text render of a send's result and of a read runs in a worker thread
 * (screenTextThread.ts): while output built to make an emulator work is rendered, the calling
 * thread (the extension host's) stays free. What the worker renders is what the renderer renders
 * on the caller's thread, and a worker that fails or hangs never loses output: the caller gets the
 * plain text after a notice that says so. Real sessions (real node-pty, real bash), real workers.
 */
import * as assert from 'node:assert/strict';
import { assertRenderedBeforeAfter } from '../../helpers/renderLimit';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RENDER_LIMIT_NOTICE, TextRenderer, renderPlain } from '../../../src/terminal/output/screenText';
import { RENDER_LOST_NOTICE, ScreenTextThread } from '../../../src/terminal/output/screenTextThread';
import { harnessPerTest, pythonWrites } from '../../helpers/terminalHarness';
import { screenTextWorkerEntry } from '../../helpers/workerEntry';
import { longestStall } from '../../helpers/eventLoopLag';

const E = '\x1b';
/**
 * Longest the calling thread may be held while a result renders (ms). On the caller's thread one
 * render holds it for its whole budget (RENDER_BUDGET_MS CPU, RENDER_WALL_MS wall: 250–400 ms);
 * in the worker only the session's own bookkeeping runs here (a few ms). Wide for a loaded machine.
 */
const STALL_BOUND_MS = 150;

const py = pythonWrites;
/** DECALN (fill the screen with E) 80 000 times: outlasts any render budget. */
const ALIGNMENT_FLOOD = py(`"before" + "\\n" * 31 + "\\x1b#8" * 80000 + "\\x1b[2J\\x1b[Hafter\\n"`);
/** Cursor jumps with line inserts and deletes, as `npm run bench:host` prints them. */
const INSERT_DELETE_FLOOD =
  "printf 'line\\n%.0s' $(seq 40); for i in $(seq 200); do printf '\\e[H'; printf '\\e[1000000L\\e[1000000M%.0s' $(seq 100); done; echo";

describe('the model-text render runs off the calling thread (pty-bash)', function () {
  this.timeout(120_000);
  const h = harnessPerTest({ quietThresholdMs: 6_000 });

  it('a send whose output outlasts the render budget: the thread stays free, the result says renderLimited with the plain rest', async () => {
    const a = (await h.service.open(h.owner)).sessionId;
    const { value: r, stallMs } = await longestStall(() => h.service.send(h.owner, a, { input: ALIGNMENT_FLOOD }));
    assert.ok(stallMs < STALL_BOUND_MS, `the event loop was held for ${stallMs.toFixed(0)} ms`);
    assertRenderedBeforeAfter(r);
    const read = await longestStall(() => h.service.readAsync(h.owner, a, { count: 10 }));
    assert.ok(read.stallMs < STALL_BOUND_MS, `a read held the event loop for ${read.stallMs.toFixed(0)} ms`);
    assert.equal(read.value.renderLimited, true);
    assert.ok(read.value.text.split('\n').includes(RENDER_LIMIT_NOTICE), read.value.text.slice(0, 200));
  });

  it('an insert/delete-line flood: the thread stays free while a page and the screen of it are rendered', async () => {
    const a = (await h.service.open(h.owner)).sessionId;
    // The send's own stall is not asserted: for seconds of output it also holds the session's
    // bookkeeping, which a loaded machine stretches. Its render is the DECALN case's.
    const r = await h.service.send(h.owner, a, { input: INSERT_DELETE_FLOOD });
    assert.equal(r.waiting, 'shell-prompt');
    const page = await longestStall(() => h.service.readAsync(h.owner, a, { count: 100 }));
    const screen = await longestStall(() => h.service.readAsync(h.owner, a, { screen: true }));
    assert.ok(
      page.stallMs < STALL_BOUND_MS && screen.stallMs < STALL_BOUND_MS,
      `page ${page.stallMs.toFixed(0)} ms, screen ${screen.stallMs.toFixed(0)} ms`,
    );
    // The sync read (the caller's thread) and the worker agree, unless the time budget cut either short.
    for (const [got, request] of [
      [page.value, { count: 100 }],
      [screen.value, { screen: true }],
    ] as const) {
      assert.ok(got.totalLines > 40, JSON.stringify(got).slice(0, 300));
      const local = h.service.read(h.owner, a, request);
      if (!got.renderLimited && !local.renderLimited) assert.deepEqual(got, local);
      else assert.ok(got.text.split('\n').includes(RENDER_LIMIT_NOTICE), got.text.slice(0, 300));
    }
  });
});

describe('ScreenTextThread', function () {
  this.timeout(60_000);
  const size = { cols: 40, rows: 8 };
  const samples: { name: string; raw: string; startInAlternate?: boolean; keepCursorBlanks?: boolean }[] = [
    { name: 'colours, a progress bar, backspaces', raw: `${E}[31mred${E}[0m plain\n10%\r50%\r100%\nab\bc\n` },
    { name: 'a line wider than the terminal', raw: `${'x'.repeat(100)}\nnext` },
    { name: 'a prompt keeps its blank', raw: 'Name: ', keepCursorBlanks: true },
    { name: 'a full-screen program', raw: `before\n${E}[?1049h${E}[Hvim screen\n~\n~` },
    { name: 'into a running full-screen program', raw: `${E}[Hmore`, startInAlternate: true },
    { name: 'an IL flood', raw: `${Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n')}${E}[H${`${E}[1000000L`.repeat(200)}\n` },
  ];
  for (const { name, raw, startInAlternate, keepCursorBlanks } of samples) {
    it(`renders as the renderer does on the caller's thread: ${name}`, async () => {
      const thread = new ScreenTextThread(screenTextWorkerEntry());
      try {
        const local = new TextRenderer(size.cols, size.rows);
        assert.deepEqual(
          await thread.render(size, raw, { startInAlternate, keepCursorBlanks }),
          local.render(raw, { startInAlternate, keepCursorBlanks }),
        );
        assert.deepEqual(await thread.screen(size, raw, startInAlternate), local.screen(raw, startInAlternate));
        local.dispose();
      } finally {
        void thread.dispose();
      }
    });
  }

  it('plain text is rendered without the emulator as the emulator renders it', () => {
    const r = new TextRenderer(size.cols, size.rows);
    const long = 'z'.repeat(100);
    for (const raw of [
      '',
      'one',
      'one\ntwo\r\n',
      `${long}\r\n  indented  \n\n`,
      Array.from({ length: 450 }, (_, i) => `line ${i}`).join('\r\n'),
    ]) {
      assert.deepEqual(renderPlain(raw), r.render(raw), JSON.stringify(raw.slice(0, 40)));
      assert.deepEqual(renderPlain(raw, { keepCursorBlanks: true }), r.render(raw, { keepCursorBlanks: true }));
    }
    for (const raw of ['a\rb', 'tab\there', `${E}[1mbold`, 'é', 'trailing\r'])
      assert.equal(renderPlain(raw), undefined, JSON.stringify(raw));
    assert.equal(renderPlain('plain', { startInAlternate: true }), undefined);
    r.dispose();
  });

  it('an insert/delete-line flood renders in the worker while this thread stays free', async () => {
    const thread = new ScreenTextThread(screenTextWorkerEntry());
    try {
      const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
      const raw = `${lines}\n${`${E}[H${`${E}[1000000L${E}[1000000M`.repeat(100)}`.repeat(200)}\n`;
      await thread.render(size, 'warm the worker up\x1b[1m');
      const { value, stallMs } = await longestStall(() => thread.render({ cols: 120, rows: 30 }, raw));
      assert.ok(stallMs < STALL_BOUND_MS, `the event loop was held for ${stallMs.toFixed(0)} ms`);
      assert.ok(value.lines.length >= 40, JSON.stringify(value).slice(0, 300));
    } finally {
      void thread.dispose();
    }
  });

  it('a worker that cannot start still answers the render: plain text, saying it was not rendered', async () => {
    // A relative path is refused by the Worker constructor itself, as a worker that cannot start is.
    const thread = new ScreenTextThread('not-an-absolute-path.js');
    try {
      const raw = `${'y'.repeat(30)}${E}[2D!\n`;
      const got = await Promise.race([thread.render(size, raw), new Promise<string>((r) => setTimeout(() => r('no answer in 5 s'), 5000))]);
      assert.ok(typeof got === 'object' && got.limited === true && got.lines.includes(`${'y'.repeat(30)}!`), JSON.stringify(got));
    } finally {
      void thread.dispose();
    }
  });

  it('renders of several sizes at once each get their own answer', async () => {
    const thread = new ScreenTextThread(screenTextWorkerEntry());
    try {
      const raws = Array.from({ length: 6 }, (_, i) => `${'y'.repeat(30 + i)}${E}[2D${i}\n`);
      const sizes = raws.map((_, i) => ({ cols: 20 + i, rows: 5 }));
      const got = await Promise.all(raws.map((raw, i) => thread.render(sizes[i]!, raw)));
      assert.deepEqual(
        got,
        raws.map((raw, i) => new TextRenderer(sizes[i]!.cols, sizes[i]!.rows).render(raw)),
      );
    } finally {
      void thread.dispose();
    }
  });

  describe('a worker that fails or hangs loses no output', () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-render-worker-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const script = (name: string, body: string) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, body);
      return file;
    };
    const raw = `${E}[1mbold${E}[0m line\nsecond ${E}]0;title${E}\\line\n`;

    it('a worker that never answers: after the hang bound, the plain text after a notice that says so', async () => {
      const entry = script('hangs.js', "require('node:worker_threads').parentPort.on('message', () => { for (;;) {} });");
      const thread = new ScreenTextThread(entry, { hangMs: 500 });
      try {
        const started = performance.now();
        const [page, screen] = await Promise.all([thread.render(size, raw), thread.screen(size, raw)]);
        assert.ok(performance.now() - started < 5000, `answered after ${(performance.now() - started).toFixed(0)} ms`);
        assert.deepEqual(page, { lines: [RENDER_LOST_NOTICE, 'bold line', 'second line', ''], limited: true });
        assert.deepEqual(screen, { lines: [RENDER_LOST_NOTICE, 'bold line', 'second line', ''], limited: true });
      } finally {
        void thread.dispose();
      }
    });

    it('a worker that dies: the plain text after the notice, and the next render starts a new worker', async () => {
      const entry = script('dies.js', "require('node:worker_threads').parentPort.on('message', () => process.exit(3));");
      const thread = new ScreenTextThread(entry);
      try {
        assert.deepEqual(await thread.render(size, raw), { lines: [RENDER_LOST_NOTICE, 'bold line', 'second line', ''], limited: true });
        assert.deepEqual(await thread.render(size, `${E}[1magain`), { lines: [RENDER_LOST_NOTICE, 'again'], limited: true });
      } finally {
        void thread.dispose();
      }
    });

    it('a worker script that is missing: the same honest fallback', async () => {
      const thread = new ScreenTextThread(path.join(dir, 'missing.js'));
      try {
        assert.deepEqual(await thread.render(size, raw), { lines: [RENDER_LOST_NOTICE, 'bold line', 'second line', ''], limited: true });
      } finally {
        void thread.dispose();
      }
    });
  });
});
