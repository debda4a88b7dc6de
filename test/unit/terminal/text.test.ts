/** Marker parsing and the bounded scrollback, on real strings. */
import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { MarkerEvent, MarkerParser, drainMarker } from '../../../src/terminal/readiness/markers';
import { ShellMarkers } from '../../../src/terminal/readiness/shellMarkers';
import { Scrollback } from '../../../src/terminal/output/scrollback';
import { ViewportBuffer, tailByBytes, terminalTailByBytes } from '../../../src/terminal/output/byteTail';
import { TerminalModes } from '../../../src/terminal/output/terminalModes';

const nonce = 'abcdef0123456789';
const marker = (body: string) => `\x1b]6973;${nonce};${body}\x07`;

describe('MarkerParser', () => {
  it('removes markers and the prompt text, even when split across chunks, one character at a time', () => {
    const stream = `hello${marker('P;0;2')}$ ls\r\n${marker('S;2')}out\r\n`;
    const whole = new MarkerParser(nonce).push(stream);
    const parser = new MarkerParser(nonce);
    const pieces: MarkerEvent[] = [];
    for (const ch of stream) pieces.push(...parser.push(ch));
    const text = (events: MarkerEvent[]) =>
      events
        .filter((e) => e.kind === 'text')
        .map((e) => (e as { text: string }).text)
        .join('');
    assert.equal(text(whole), 'hellols\r\nout\r\n');
    assert.equal(text(pieces), text(whole));
    assert.deepEqual(
      pieces.filter((e) => e.kind !== 'text'),
      whole.filter((e) => e.kind !== 'text'),
    );
    assert.deepEqual(
      whole.filter((e) => e.kind !== 'text').map((e) => e.kind),
      ['prompt', 'prompt-text', 'start'],
    );
  });

  it("removes the session's drain marker and reports its number; the shell's continuation text is seen", () => {
    const events = new MarkerParser(nonce).push(`Name: ${drainMarker(nonce, 7)}${marker('C')}> `);
    assert.deepEqual(events, [
      { kind: 'text', text: 'Name: ' },
      { kind: 'drain', seq: 7 },
      { kind: 'continuation' },
      { kind: 'text', text: '> ' },
    ]);
    const markers = new ShellMarkers();
    markers.apply({ kind: 'continuation' });
    markers.text('>');
    assert.equal(markers.continuationTextSeen, false, 'half of the continuation text');
    markers.text(' ');
    assert.equal(markers.continuationTextSeen, true);
  });

  it('passes a marker with another nonce through as program output', () => {
    const fake = '\x1b]6973;ffffffffffffffff;P;0;9\x07';
    assert.deepEqual(new MarkerParser(nonce).push(fake), [{ kind: 'text', text: fake }]);
  });
});

describe('Scrollback', () => {
  it('drops the oldest lines past the line bound, keeping stable absolute numbers', () => {
    const s = new Scrollback({ maxLines: 3, maxBytes: 1000 });
    s.append('1\n2\n3\n4\n5\n');
    const page = s.page(0, 10, 1000);
    assert.equal(page.text, '3\n4\n5');
    assert.equal(page.firstLineNumber, 2);
    assert.deepEqual([page.lineBegin, page.lineEnd, page.totalLines], [0, 3, 3]);
  });

  it('drops the oldest bytes past the byte bound', () => {
    const s = new Scrollback({ maxLines: 100, maxBytes: 6 });
    // Each line costs its bytes plus its newline: 3 lines × 3 bytes > 6.
    s.append('aa\nbb\ncc\n');
    assert.equal(s.page(0, 10, 100).text, 'bb\ncc');
  });

  it('pages tile the scrollback with no gap or overlap', () => {
    const s = new Scrollback({ maxLines: 1000, maxBytes: 1 << 20 });
    for (let i = 1; i <= 95; i++) s.append(`${i}\n`);
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const p = s.page(offset, 10, 1 << 20);
      if (p.lineEnd === p.lineBegin) break;
      seen.unshift(...p.text.split('\n'));
      offset = p.lineEnd;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 95 }, (_, i) => String(i + 1)),
    );
  });

  it('any split of the same output into chunks keeps the same lines and bytes (CR LF across chunks, ASCII and not)', () => {
    const text = 'plain\r\nä wide 中\r\n\r\nlast\r\r\nab\rcd\n😀x\r\n' + 'seq 1\n'.repeat(50) + 'tail \u00e9';
    const whole = new Scrollback({ maxLines: 40, maxBytes: 300, maxLineBytes: 16 });
    whole.append(text);
    const expected = whole.page(0, 1000, 1 << 20);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const s = new Scrollback({ maxLines: 40, maxBytes: 300, maxLineBytes: 16 });
      for (let i = 0; i < text.length; i += size) s.append(text.slice(i, i + size));
      assert.deepEqual(s.page(0, 1000, 1 << 20), expected, `chunks of ${size}`);
      assert.equal(s.totalBytes, whole.totalBytes, `chunks of ${size}`);
    }
    const lines = new Scrollback({ maxLines: 1000, maxBytes: 1 << 20 });
    lines.append('a\r\nä\r');
    lines.append('\n中\n');
    assert.equal(lines.page(0, 10, 1000).text, 'a\nä\n中');
    assert.equal(lines.totalBytes, 2 + 3 + 4);
  });

  it('an unfinished line arriving in many chunks (surrogate pairs cut between them) is stored and counted as when written at once', () => {
    const line = ('ab😀中' + 'x'.repeat(9) + '\u00e9').repeat(40); // no line end: it stays unfinished
    const limitsTried = [
      { maxLines: 1000, maxBytes: 1 << 20, maxLineBytes: 16 }, // split into stored pieces as it grows
      { maxLines: 1000, maxBytes: 1 << 20 }, // kept whole
      { maxLines: 1000, maxBytes: 100 }, // its head cut by the byte bound
    ];
    for (const limits of limitsTried) {
      for (const size of [1, 2, 3, 7, 33]) {
        const whole = new Scrollback(limits);
        whole.append(line);
        const s = new Scrollback(limits);
        for (let i = 0; i < line.length; i += size) s.append(line.slice(i, i + size));
        const what = `chunks of ${size}, ${JSON.stringify(limits)}`;
        assert.deepEqual(s.page(0, 1000, 1 << 20), whole.page(0, 1000, 1 << 20), what);
        assert.equal(s.totalBytes, whole.totalBytes, what);
        assert.deepEqual(s.position(), whole.position(), what);
        for (const x of [s, whole]) x.append('\n');
        assert.equal(s.totalBytes, whole.totalBytes, `${what}, then ended`);
        assert.deepEqual(s.position(), whole.position(), `${what}, then ended`);
      }
    }
  });

  it('a line that arrives one character at a time is stored in flat pieces: memory stays near the bytes kept', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const s = new Scrollback({ maxLines: 10_000, maxBytes: 1 << 20, maxLineBytes: 16 * 1024 });
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1_000_000; i++) s.append(String.fromCharCode(97 + (i % 26))); // no line end
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    const pieces = Math.floor(1_000_000 / (16 * 1024 - 3)); // each with its marker (3 bytes) and line end
    assert.equal(s.totalBytes, 1_000_000 + 4 * pieces);
    // Kept as chains of one-character strings it took 30 bytes per byte; flat, about 1.5.
    assert.ok(grown < 8 * s.totalBytes, `heap grew ${grown} bytes for ${s.totalBytes} kept`);
  });

  it('the byte cap wins over count and never splits a code point', () => {
    const s = new Scrollback({ maxLines: 100, maxBytes: 1 << 20 });
    s.append('😀😀😀\n中文字\n');
    const p = s.page(0, 2, 8);
    assert.equal(p.truncated, true);
    assert.equal(p.text, '文字');
  });
});

describe('tailByBytes / ViewportBuffer', () => {
  it('keeps whole code points', () => {
    assert.deepEqual(tailByBytes('a😀b', 5), { text: '😀b', dropped: 1 });
    assert.deepEqual(tailByBytes('a😀b', 4), { text: 'b', dropped: 5 });
  });

  it('a viewport fed in many chunks keeps the newest bytes on a code point boundary and counts the rest', () => {
    const v = new ViewportBuffer(10);
    const parts = ['abc', '😀', 'defgh', '中文', 'ij', '', 'k'];
    for (let round = 0; round < 50; round++) for (const p of parts) v.append(p);
    const all = parts.join('').repeat(50);
    const expected = tailByBytes(all, 10);
    assert.deepEqual(v.result(), { text: expected.text, dropped: expected.dropped });
  });

  it('counts what the viewport dropped', () => {
    const v = new ViewportBuffer(4);
    v.append('123456');
    v.append('78');
    assert.deepEqual(v.result(), { text: '5678', dropped: 4 });
  });
});

describe('terminalTailByBytes', () => {
  it('never keeps the rest of an escape sequence or string the byte cut falls in; counts every byte left out', () => {
    const text = 'ab\x1b[31mX\x1b]0;title\x07Y\x1b]8;;https://e.x\x1b\\L\x1b[0mZé\x1b[1;32m';
    const sequences = /\x1b\[[0-9;]*m|\x1b\]0;title\x07|\x1b\]8;;https:\/\/e\.x\x1b\\/g;
    for (let n = 0; n <= Buffer.byteLength(text) + 1; n++) {
      const tail = terminalTailByBytes(text, n);
      assert.ok(Buffer.byteLength(tail.text) <= n, `at most ${n} bytes`);
      assert.ok(text.endsWith(tail.text));
      assert.equal(tail.dropped + Buffer.byteLength(tail.text), Buffer.byteLength(text));
      assert.match(tail.text.replace(sequences, ''), /^[abXYLZé]*$/, `cut to ${n} bytes: ${JSON.stringify(tail.text)}`);
    }
    assert.deepEqual(terminalTailByBytes('x'.repeat(10), 4), { text: 'xxxx', dropped: 6 });
  });
});

describe('Scrollback pieces and escape sequences', () => {
  it('a line stored in pieces is cut before a sequence or string a bound falls in, its terminator included, wherever it falls', () => {
    const sequences = /\x1b\]8;;https:\/\/e\.x\x1b\\|\x1b\]8;;\x1b\\|\x1b\[[0-9;]*m/g;
    for (let pad = 0; pad < 40; pad++) {
      const line = `${'x'.repeat(pad)}\x1b]8;;https://e.x\x1b\\L\x1b]8;;\x1b\\${'y'.repeat(10)}\x1b[31mR\x1b[0m${'z'.repeat(30)}`;
      for (const chunked of [false, true]) {
        const s = new Scrollback({ maxLines: 1000, maxBytes: 1 << 20, maxLineBytes: 32 });
        if (chunked) for (const c of `${line}\n`.match(/[^]{1,5}/g)!) s.append(c);
        else s.append(`${line}\n`);
        const pieces = s.page(0, 1000, 1 << 20).text.split('\n');
        assert.equal(pieces.map((p) => p.replace(/⏎$/, '')).join(''), line, `pad ${pad}, chunked ${chunked}`);
        for (const piece of pieces)
          assert.match(piece.replace(sequences, ''), /^[xyzLR]*⏎?$/, `pad ${pad}, chunked ${chunked}: ${JSON.stringify(piece)}`);
      }
    }
  });

  it('the head cut from an unfinished line longer than the byte bound never leaves the rest of a sequence at its start; the bytes cut are counted', () => {
    // maxBytes 10 below the smallest piece (16 bytes): the unfinished line itself is cut to the bound.
    for (let r = 5; r <= 10; r++) {
      const s = new Scrollback({ maxLines: 100, maxBytes: 10 });
      s.append(`\x1b[31m${'R'.repeat(r)}`);
      const kept = s.page(0, 10, 100).text;
      assert.match(kept, /^(\x1b\[31m)?R+$/, `${r} Rs: ${JSON.stringify(kept)}`);
      assert.equal(s.position().firstByte + Buffer.byteLength(kept), 5 + r);
    }
  });
});

describe('TerminalModes', () => {
  it('follows cursor key mode and the alternate screen however the output is split; ESC c resets both, CSI ! p cursor keys only', () => {
    const output = 'a\x1b[?1;1049hb\x1b[31mc\x1b[?25l';
    for (let size = 1; size <= output.length; size++) {
      const modes = new TerminalModes();
      for (let i = 0; i < output.length; i += size) modes.push(output.slice(i, i + size));
      assert.deepEqual([modes.applicationCursor, modes.alternateScreen], [true, true], `chunks of ${size}`);
    }
    const modes = new TerminalModes();
    modes.push('\x1b[?1049;1h\x1b[!');
    modes.push('p');
    assert.deepEqual([modes.applicationCursor, modes.alternateScreen], [false, true]);
    modes.push('\x1b[?1h\x1b');
    assert.deepEqual([modes.applicationCursor, modes.alternateScreen], [true, true]);
    modes.push('c');
    assert.deepEqual([modes.applicationCursor, modes.alternateScreen], [false, false]);
    modes.push('\x1b[?12h\x1b[?10h\x1b[?47h');
    assert.deepEqual([modes.applicationCursor, modes.alternateScreen], [false, true]);
    modes.push('\x1b[?47;1l');
    assert.deepEqual([modes.applicationCursor, modes.alternateScreen], [false, false]);
  });
});
