/**
 * The remaining field cases of the terminal case table (C03, C04, C11, C12, C17–C20, C24, C29,
 * C35) and issue 5's text-for-models rules, on the real pty-bash backend: real node-pty, real bash,
 * real vim / less / git / python3. Each case test is named by its case id. No timing is asserted
 * beyond generous sanity bounds.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { TextRenderer } from '../../../src/terminal/output/screenText';
import { LINE_SPLIT_MARKER, Scrollback, splitLine } from '../../../src/terminal/output/scrollback';
import type { ReadResult } from '../../../src/terminal/types';
import { Harness, firstSession, harness, sleep, waitForPort } from '../../helpers/terminalHarness';
import { element } from '../../helpers/element';
import { until } from '../../helpers/wait';

const MARKER = /\x1b\]6973|6973;/;

describe('terminal readiness and output cases (pty-bash)', function () {
  this.timeout(120_000);
  let h: Harness;
  let id: string;
  const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });
  const open = async (options = {}) => (id = (await h.service.open(h.owner, options)).sessionId);
  const read = (offset = 0, count = 500, raw = false) => h.service.read(h.owner, id, { offset, count, raw });
  /** Every retained line, oldest first, read page by page from the newest (nextOffset = lineEnd). */
  const allPages = (count: number, raw = false): ReadResult[] => {
    const pages: ReadResult[] = [];
    for (let offset = 0; ; ) {
      const page = read(offset, count, raw);
      if (page.lineEnd === page.lineBegin) return pages.reverse();
      pages.push(page);
      offset = page.lineEnd;
    }
  };

  beforeEach(() => {
    h = harness({ quietThresholdMs: 6_000 });
  });
  afterEach(async () => h.dispose());

  it('C03 seq 1 5000: stdin_read on a tiny screen, a bounded page, the total line count known', async () => {
    await open({ cols: 20, rows: 4 });
    const r = await send('seq 1 5000');
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 0);
    assert.equal(r.truncated, false);
    assert.deepEqual(
      r.output.split('\n'),
      Array.from({ length: 5000 }, (_, i) => String(i + 1)),
    );
    const page = read(0, 100);
    assert.deepEqual([page.lineBegin, page.lineEnd], [0, 100]);
    assert.ok(page.totalLines >= 5000, `totalLines ${page.totalLines}`);
    assert.deepEqual(
      page.text.split('\n'),
      Array.from({ length: 100 }, (_, i) => String(4901 + i)),
    );
    assert.equal(page.firstLineNumber, page.totalLines - 100, 'nothing evicted yet: absolute numbers count from the first line');
  });

  it('C04 sleep 3 then one 100k+ character JSON line: waits for the prompt; paged without breaking UTF-8', async () => {
    // A small read cap forces the one long line across many pages.
    h = harness({ quietThresholdMs: 6_000, maxReadBytes: 16 * 1024 });
    await open();
    const script = `import json;print(json.dumps({'a':list(range(20000)),'é':'中😀'*2000},ensure_ascii=False))`;
    const expected = execFileSync('python3', ['-c', script], { encoding: 'utf8' }).trimEnd();
    assert.ok(expected.length > 100_000);
    const r = await send(`sleep 3; python3 -c "${script}"`);
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.ok(r.durationMs >= 2_500, `returned after ${r.durationMs} ms, before sleep 3 ended`);
    assert.equal(r.truncated, true);
    assert.ok(Buffer.byteLength(r.output) <= 16 * 1024);
    assert.ok(expected.endsWith(r.output), 'the viewport is the newest part of the line');
    for (const raw of [false, true]) {
      const pages = allPages(3, raw);
      for (const p of pages) {
        assert.ok(Buffer.byteLength(p.text) <= 16 * 1024, `page of ${Buffer.byteLength(p.text)} bytes`);
        assert.ok(!p.text.includes('\uFFFD'), 'a code point was broken');
      }
      const lines = pages
        .map((p) => p.text)
        .join('\n')
        .split('\n');
      const first = lines.findIndex((l) => l.startsWith('{"a": [0, 1'));
      assert.ok(first >= 0, 'the line’s head is reachable by paging');
      let joined = '';
      for (const line of lines.slice(first)) {
        const continued = line.endsWith(LINE_SPLIT_MARKER);
        joined += continued ? line.slice(0, -LINE_SPLIT_MARKER.length) : line;
        if (!continued) break;
      }
      // assert.ok, not equal: a diff of two 120 000-character strings helps nobody.
      assert.ok(joined === expected, `raw=${raw}: reassembled ${joined.length} characters, expected ${expected.length}`);
    }
  });

  it('C11 the alternate screen toggled around sleep 5: stdin_read after the sleep, viewport ends with DONE', async () => {
    await open();
    const r = await send(`printf '\\033[?1049h'; sleep 5; printf '\\033[?1049l'; echo DONE`);
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.ok(r.durationMs >= 4_500, `returned after ${r.durationMs} ms`);
    assert.match(r.output, /DONE$/);
    assert.equal(r.alternateScreen, undefined);
  });

  it('C12 vim: stdin_read naming vim on the alternate screen; SIGINT leaves it there; :q! returns to the prompt', async () => {
    await open({ cwd: h.tmp });
    const r = await send(`vim -u NONE ${h.tmp}/c12.txt`);
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'program-input');
    assert.match(r.foreground?.command ?? '', /^vim /);
    assert.equal(r.alternateScreen, true);
    assert.equal(r.echoOff, undefined, 'a full-screen program is not a password prompt');
    const s = h.service.signal(h.owner, id, 'SIGINT');
    assert.equal(s.delivered, true);
    assert.match(s.foreground?.command ?? '', /^vim /);
    // Asserts that something does NOT happen: vim must still hold the terminal half a second after SIGINT.
    await sleep(500);
    const listed = firstSession(h);
    assert.equal(listed.busy, true, 'after SIGINT vim still holds the terminal, and the list says so');
    assert.match(listed.foregroundCommand ?? '', /^vim /);
    // vim flushes its typeahead when it notices the interrupt, so the next keys may be eaten;
    // the result says so (vim still waits), nothing is lost silently. An Escape is harmless.
    const poke = await h.service.send(h.owner, id, { keys: ['Escape'] });
    assert.equal(poke.waiting, 'program-input');
    assert.match(poke.foreground?.command ?? '', /^vim /);
    assert.equal(poke.alternateScreen, true);
    const quit = await send(':q!');
    assert.equal(quit.waitReason, 'stdin_read');
    assert.equal(quit.waiting, 'shell-prompt');
    assert.equal(quit.exitCode, 0);
    assert.equal(quit.alternateScreen, undefined);
  });

  for (const [name, wait] of [
    ['poll', 'p=select.poll();p.register(0,select.POLLIN);p.poll()'],
    ['select', 'select.select([sys.stdin],[],[])'],
  ] as const) {
    it(`a program waiting for the terminal in ${name}() (not read) is seen by the probe; its answer prints`, async () => {
      await open();
      const r = await send(`python3 -c "import select,sys;${wait};print('got', sys.stdin.readline().strip())"`);
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.waiting, 'program-input');
      assert.match(r.foreground?.command ?? '', /python3/);
      const answer = await send('x');
      assert.equal(answer.waiting, 'shell-prompt');
      assert.match(answer.output, /^got x$/m);
    });
  }

  it('a program polling only a socket is not taken for one waiting for input (http.server polls its socket)', async () => {
    h = harness({ quietThresholdMs: 1_500 });
    await open();
    const r = await send(
      `python3 -c "import socket,select;s=socket.socket();s.bind(('127.0.0.1',0));s.listen();select.select([s],[],[],6)"`,
      8_000,
    );
    assert.equal(r.waitReason, 'inferred_idle');
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('C17 seq 1 2000000: a bounded viewport flagged truncated; scrollback at its line cap; later pages readable', async () => {
    await open();
    const r = await send('seq 1 2000000');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.truncated, true);
    assert.ok(r.droppedBytes > 10_000_000, `dropped ${r.droppedBytes}`);
    assert.ok(Buffer.byteLength(r.output) <= 256 * 1024);
    assert.match(r.output, /\n1999999\n2000000$/);
    const page = read(500, 500);
    assert.equal(page.totalLines, 10_000, 'retainedLines (default 10 000) caps the scrollback');
    assert.deepEqual(
      page.text.split('\n'),
      Array.from({ length: 500 }, (_, i) => String(1_999_001 + i)),
    );
    const oldest = read(9_500, 1_000);
    assert.equal(oldest.lineEnd, 10_000);
    assert.equal(oldest.text.split('\n')[0], String(2_000_000 - 9_999));
    assert.ok(oldest.firstLineNumber > 1_990_000, `firstLineNumber ${oldest.firstLineNumber}`);
  });

  it('C17 (byte cap) seq 1 2000000 with a 64 KiB scrollback: oldest bytes go first, pages tile what is kept', async () => {
    h = harness({ quietThresholdMs: 6_000, retainedBytes: 64 * 1024, maxReadBytes: 8 * 1024 });
    await open();
    const r = await send('seq 1 2000000');
    assert.equal(r.waiting, 'shell-prompt');
    assert.ok(Buffer.byteLength(r.output) <= 8 * 1024);
    const pages = allPages(500, true);
    const lines = pages
      .map((p) => p.text)
      .join('\n')
      .split('\n');
    const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    assert.ok(bytes <= 64 * 1024, `retained ${bytes} bytes`);
    assert.ok(bytes > 60 * 1024, `retained only ${bytes} bytes`);
    const numbers = lines.map(Number);
    const start = element(numbers, 0, 'retained line');
    numbers.forEach((n, i) => assert.equal(n, start + i, 'no gap or overlap'));
    assert.equal(numbers.at(-1), 2_000_000);
  });

  it('C18 a multi-line git commit message with an open quote: one stdin_read after the final prompt, exit 0', async () => {
    await open({ cwd: h.tmp });
    await send('git init -q repo && cd repo && git config user.email t@example.com && git config user.name T');
    const r = await send('git commit -q --allow-empty -m "title\n\n- bullet"');
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 0);
    const log = await send('git log -1 --format=%B');
    assert.equal(log.output, 'title\n\n- bullet');
  });

  it('C19 a three-line python3 -c: viewport look, one stdin_read', async () => {
    await open();
    const r = await send(`python3 -c "\nprint('look')\n"`);
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.output, 'look');
    assert.equal(r.exitCode, 0);
  });

  it('C20 http.server with a 5 s timeout: busy while it serves; SIGINT stops it; then the prompt', async () => {
    await open();
    const port = 18765;
    const r = await send(`python3 -m http.server ${port} --bind 127.0.0.1`, 5_000);
    assert.ok(['timeout', 'inferred_idle'].includes(r.waitReason), r.waitReason);
    assert.ok(r.durationMs >= 4_500);
    await waitForPort(port, true);
    const listed = firstSession(h);
    assert.equal(listed.busy, true);
    assert.match(listed.foregroundCommand ?? '', /http\.server/);
    assert.equal(h.service.signal(h.owner, id, 'SIGINT').delivered, true);
    const after = await send('echo status=$?');
    assert.equal(after.waitReason, 'stdin_read');
    assert.equal(after.waiting, 'shell-prompt');
    // http.server catches KeyboardInterrupt and exits 0 ("Keyboard interrupt received, exiting."),
    // so the shell's status is 0, not the 130 the case table expected; a program killed by SIGINT
    // gives 130 (C27, C30).
    assert.match(after.output, /status=0$/);
    await waitForPort(port, false);
    assert.match(read(0, 20).text, /Keyboard interrupt received/);
  });

  it('C24 less: stdin_read naming less; SIGINT leaves it running and says so; q returns to the prompt', async () => {
    await open();
    const r = await send('less /etc/services');
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'program-input');
    assert.match(r.foreground?.command ?? '', /^less /);
    assert.equal(r.alternateScreen, true);
    const s = h.service.signal(h.owner, id, 'SIGINT');
    assert.equal(s.delivered, true);
    assert.match(s.foreground?.command ?? '', /^less /);
    // Asserts that something does NOT happen: less must still hold the terminal half a second after SIGINT.
    await sleep(500);
    const listed = firstSession(h);
    assert.equal(listed.busy, true, 'less survives SIGINT, and the list says so');
    assert.match(listed.foregroundCommand ?? '', /^less /);
    const quit = await send('q');
    assert.equal(quit.waitReason, 'stdin_read');
    assert.equal(quit.waiting, 'shell-prompt');
    assert.equal(quit.exitCode, 0);
  });

  it('C29 (scaled: sleep 8 with a 4 s timeout for sleep 120 / 90 s) timeout, not killed, a later read sees it finish', async () => {
    await open();
    const r = await send('sleep 8; echo finished', 4_000);
    assert.equal(r.waitReason, 'timeout');
    assert.ok(r.durationMs >= 3_500);
    assert.equal(firstSession(h).busy, true);
    assert.match(firstSession(h).foregroundCommand ?? '', /bash|sleep/);
    await until('"finished" in the scrollback', () => /(^|\n)finished$/.test(read(0, 5).text), 20_000);
    await until('the shell back at its prompt', () => h.service.sendTarget(h.owner, id).receiver.kind === 'shell-prompt');
    const next = await send('echo next');
    assert.equal(next.output, 'next');
  });

  it('C35 colour escapes: the model text reads "red plain"; raw keeps the colours; no marker in either', async () => {
    await open();
    const r = await send(`python3 -c "print('\\x1b[31mred\\x1b[0m plain')"`);
    assert.equal(r.output, 'red plain');
    const text = read(0, 3);
    const raw = read(0, 3, true);
    assert.match(text.text, /(^|\n)red plain$/);
    assert.match(raw.text, /\x1b\[31mred\x1b\[0m plain$/);
    for (const t of [r.output, text.text, raw.text]) assert.doesNotMatch(t, MARKER);
  });
});

describe('text for models (pty-bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  const send = (input: string) => h.service.send(h.owner, id, { input });
  beforeEach(async () => {
    h = harness();
    id = (await h.service.open(h.owner, { cols: 40 })).sessionId;
  });
  afterEach(async () => h.dispose());

  it('collapses a carriage-return progress bar to its final state; raw keeps every step', async () => {
    const r = await send(`printf '10%%\\r50%%\\r100%%\\n'; printf 'ab\\bc\\n'`);
    assert.equal(r.output, '100%\nac');
    assert.match(h.service.read(h.owner, id, { count: 3 }).text, /\n100%\nac$/);
    assert.match(h.service.read(h.owner, id, { count: 3, raw: true }).text, /10%\r50%\r100%/);
  });

  it('undoes the wrapping of a line wider than the terminal', async () => {
    const r = await send(`printf 'w%.0s' $(seq 1 100); echo`);
    assert.equal(r.output, 'w'.repeat(100));
    assert.match(h.service.read(h.owner, id, { count: 2 }).text, new RegExp(`(^|\\n)${'w'.repeat(100)}$`));
  });

  it('a code point split across PTY chunks arrives whole (streaming UTF-8 decoding)', async () => {
    // Writes the bytes of 中😀 in three flushes with pauses, cutting inside both code points.
    const r = await send(
      `python3 -c "import sys,time;b='中😀'.encode();o=sys.stdout.buffer;o.write(b[:2]);o.flush();time.sleep(0.3);o.write(b[2:5]);o.flush();time.sleep(0.3);o.write(b[5:]+b'\\n');o.flush()"`,
    );
    assert.equal(r.output, '中😀');
    assert.match(h.service.read(h.owner, id, { count: 2, raw: true }).text, /(^|\n)中😀$/);
  });

  it('shows the visible screen of a full-screen program on request (screen: true)', async () => {
    const r = await send('less /etc/services');
    assert.equal(r.alternateScreen, true);
    const screen = h.service.read(h.owner, id, { screen: true });
    assert.ok(screen.text.split('\n').length <= 30);
    assert.match(screen.text, /\/etc\/services|tcpmux|echo/);
    assert.doesNotMatch(screen.text, MARKER);
    h.service.signal(h.owner, id, 'SIGINT');
    await send('q');
  });
});

describe('long lines and the renderer (no PTY)', () => {
  it('a line past maxLineBytes is stored in marked pieces on code point boundaries, each reachable by paging', () => {
    const line = 'a😀中'.repeat(10_000); // 80 000 bytes
    const s = new Scrollback({ maxLines: 1000, maxBytes: 1 << 20, maxLineBytes: 1000 });
    // Fed in odd-sized chunks, so pieces are cut from the unfinished line as it grows.
    for (let i = 0; i < line.length; i += 777) s.append(line.slice(i, i + 777));
    s.append('\nnext\n');
    const pieces: string[] = [];
    for (let offset = 0; ; ) {
      const p = s.page(offset, 7, 2000);
      if (p.lineEnd === p.lineBegin) break;
      assert.ok(Buffer.byteLength(p.text) <= 2000);
      pieces.unshift(...p.text.split('\n'));
      offset = p.lineEnd;
    }
    assert.equal(pieces.at(-1), 'next');
    for (const piece of pieces.slice(0, -2)) {
      assert.ok(piece.endsWith(LINE_SPLIT_MARKER) && Buffer.byteLength(piece) <= 1000 && !piece.includes('\uFFFD'));
    }
    assert.equal(
      pieces
        .slice(0, -1)
        .map((p) => (p.endsWith(LINE_SPLIT_MARKER) ? p.slice(0, -1) : p))
        .join(''),
      line,
    );
    assert.deepEqual(splitLine('short', 1000), ['short']);
  });

  it('a page leaves a line that does not fit to the next page instead of cutting its head', () => {
    const s = new Scrollback({ maxLines: 100, maxBytes: 1 << 20 });
    s.append('aaaaaaaaaa\nbbbbbbbbbb\ncc\n');
    const first = s.page(0, 3, 15);
    assert.deepEqual([first.text, first.lineEnd, first.truncated], ['bbbbbbbbbb\ncc', 2, true]);
    assert.equal(s.page(first.lineEnd, 3, 15).text, 'aaaaaaaaaa');
  });

  it('the renderer applies colours, CR, backspace, wide characters and the alternate screen', () => {
    const r = new TextRenderer(10, 4);
    assert.deepEqual(r.render('\x1b[1;31mred\x1b[0m ok\r\n1%\r99%\rdone\nab\bc').lines, ['red ok', 'done', 'ac']);
    // 中 is two cells wide: 6 of them need 12 cells, so the 10-column row wraps and is joined again.
    assert.deepEqual(r.render('中'.repeat(6)).lines, ['中'.repeat(6)]);
    assert.deepEqual(r.render('x'.repeat(25)).lines, ['x'.repeat(25)]);
    const vim = r.render('before\n\x1b[?1049h\x1b[Hscreen');
    assert.deepEqual(vim.lines, ['before', '']);
    assert.deepEqual(vim.alternateScreen, ['screen']);
    assert.deepEqual(r.render('$ Name: ', { keepCursorBlanks: true }).lines, ['$ Name: ']);
    assert.deepEqual(r.render('more', { startInAlternate: true }).alternateScreen, ['more']);
    // `clear` (tput clear for xterm-256color) keeps what came before it in the rendered text.
    assert.deepEqual(r.render('one\ntwo\n\x1b[H\x1b[2J\x1b[3Jthree').lines.filter(Boolean), ['one', 'two', 'three']);
  });
});
