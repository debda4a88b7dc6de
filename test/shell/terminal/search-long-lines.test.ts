/**
 * Search in a line longer than the scrollback's line limit (stored as several pieces, each but the
 * last ending with LINE_SPLIT_MARKER), on real bash: the line is matched whole, so a match that
 * straddles two pieces is found, and reported at the piece where it starts; an escape sequence cut
 * between two pieces is removed whole, as from the line unsplit.
 */
import * as assert from 'node:assert/strict';
import { CommandHistory } from '../../../src/terminal/history/commandHistory';
import { LINE_SPLIT_MARKER, Scrollback } from '../../../src/terminal/output/scrollback';
import { SearchResult, searchScrollback } from '../../../src/terminal/output/scrollbackSearch';
import { MatchPool } from '../../../src/terminal/output/matchPool';
import { Harness, harness } from '../../helpers/terminalHarness';

describe('search in a line stored in pieces (real bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(async () => h?.dispose());
  const pool = new MatchPool();
  after(() => pool.dispose());

  it('finds a match across the cut between two pieces, at the piece and column where it starts', async () => {
    h = harness();
    const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
    // One output line of 16378 a's, NEEDLE, 100 b's: the session stores lines of at most 16 KiB
    // (16381 bytes and the 3-byte marker), so NEEDLE is cut after NEE.
    await h.service.send(h.owner, id, {
      input: `head -c 16378 /dev/zero | tr '\\0' a; printf 'NEEDLE'; head -c 100 /dev/zero | tr '\\0' b; echo`,
    });
    const record = h.service.command(h.owner, id, 1);
    assert.equal(record.output.lineCount, 2, 'the line is stored as two pieces');
    const pieces = h.service.read(h.owner, id, { command: 1, raw: true }).text.split('\n');
    assert.ok(pieces[0]!.endsWith(`NEE${LINE_SPLIT_MARKER}`) && pieces[1]!.startsWith('DLE'), 'the cut falls inside NEEDLE');

    const found = await h.service.search(h.owner, id, { pattern: 'NEEDLE', command: 1 });
    assert.equal(found.matches.length, 1);
    const [m] = found.matches;
    assert.equal(m!.line, record.output.firstLineNumber, 'reported at the piece where the match starts');
    assert.equal(m!.column, 16378);
    assert.match(m!.text, /aNEEDLEb/);
    const page = h.service.read(h.owner, id, { offset: m!.offset, count: 1, raw: true });
    assert.equal(page.text.slice(m!.column, m!.column + 3), 'NEE', 'a read at the match offset shows its start at its column');

    // The whole line is what a regular expression's anchors see; the marker is not part of it.
    const anchored = await h.service.search(h.owner, id, { pattern: '^a+NEEDLEb{100}$', regex: true });
    assert.deepEqual(
      anchored.matches.map((x) => [x.line, x.column]),
      [[record.output.firstLineNumber, 0]],
    );
    const marker = await h.service.search(h.owner, id, { pattern: LINE_SPLIT_MARKER, command: 1 });
    assert.deepEqual(marker.matches, []);
  });

  it('an escape sequence a piece bound falls in goes whole to the next piece: the line matched and its context read as the line unsplit', async () => {
    h = harness();
    const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
    // 16378 a's, ERROR in red, 100 b's: the first piece (16381 bytes) would end inside the colour's CSI, after ESC [ 3; it ends before it.
    await h.service.send(h.owner, id, {
      input: `head -c 16378 /dev/zero | tr '\\0' a; printf '\\033[31mERROR\\033[0m'; head -c 100 /dev/zero | tr '\\0' b; echo; echo after`,
    });
    const record = h.service.command(h.owner, id, 1);
    const pieces = h.service.read(h.owner, id, { command: 1, raw: true }).text.split('\n');
    assert.deepEqual(
      pieces.map((p) => p.length),
      [16378 + LINE_SPLIT_MARKER.length, '\x1b[31mERROR\x1b[0m'.length + 100, 'after'.length],
    );
    assert.ok(pieces[0]!.endsWith(`a${LINE_SPLIT_MARKER}`) && pieces[1]!.startsWith('\x1b[31mERROR'), 'the cut falls before the CSI');

    const found = await h.service.search(h.owner, id, { pattern: 'ERROR', command: 1 });
    assert.deepEqual(
      found.matches.map((m) => ({ line: m.line, column: m.column })),
      [{ line: record.output.firstLineNumber + 1, column: 0 }],
      'reported at the piece the text starts in, at its plain start (the sequence before it is removed)',
    );
    assert.match(found.matches[0]!.text, /^…?a+ERRORb{100}$/, 'nothing of the sequence is left');
    assert.deepEqual(
      (await h.service.search(h.owner, id, { pattern: '31m', command: 1 })).matches,
      [],
      "the colour's parameters are never matched",
    );
    assert.equal((await h.service.search(h.owner, id, { pattern: '^a{16378}ERRORb{100}$', regex: true, command: 1 })).matches.length, 1);
    const context = await h.service.search(h.owner, id, { pattern: 'after', command: 1, context: 2 });
    assert.deepEqual(
      context.matches[0]!.before,
      [`${'a'.repeat(200)}…`, `ERROR${'b'.repeat(100)}`],
      'each piece as a context line, cut to 200, the sequence in neither',
    );
  });

  it('an escape sequence or string cut between two pieces reads as in the line unsplit, whatever its kind and where it is cut', async () => {
    // Pieces of at most 32 bytes: 29 characters and the marker. Each long line has `head` of a
    // sequence as the last characters of its first piece and the rest of it in the next.
    const cut = (head: string, rest: string) => `${'x'.repeat(29 - head.length)}${head}${rest}`;
    const long = [
      cut('\x1b[3', '1mRED\x1b[0my'), // a CSI cut inside its parameters
      cut('\x1b', '[1;32mGREEN\x1b[0m'), // after its ESC
      cut('\x1b]8;;https://e.x/p\x1b', '\\LINK\x1b]8;;\x1b\\'), // an OSC 8 hyperlink cut inside its ST
      cut('\x1b]0;ti', 'tle\x07TITLED'), // an OSC string cut inside its text, ended by BEL
      cut('\r', '\x1b[KPROGRESS'), // a carriage return then an erase
    ];
    const text = ['first', ...long.flatMap((l, k) => [l, `mid${k}`]), 'last'].join('\r\n') + '\r\n';
    const split = new Scrollback({ maxLines: 1000, maxBytes: 1 << 20, maxLineBytes: 32 });
    const whole = new Scrollback({ maxLines: 1000, maxBytes: 1 << 20 });
    split.append(text);
    whole.append(text);
    assert.equal(split.totalLines, whole.totalLines + long.length, 'each long line is two pieces');
    const search = (scrollback: Scrollback, request: Parameters<typeof searchScrollback>[2]) =>
      searchScrollback(scrollback, new CommandHistory({ scrollback, cwd: () => undefined, size: 10 }), request, unredacted, pool);
    const texts = (r: SearchResult) => r.matches.map((m) => m.text);

    for (const pattern of ['RED', 'GREEN', 'LINK', 'TITLED', 'PROGRESS', '^x+[A-Z]+y?$', '\\x1b|\\[|[0-9]m|tle|x\\\\']) {
      const request = { pattern, regex: true, maxMatches: 100 };
      assert.deepEqual(texts(await search(split, request)), texts(await search(whole, request)), `searching ${pattern}`);
    }
    // A long line's pieces as context lines, joined, are the line unsplit.
    const unsplit = texts(await search(whole, { pattern: '^x', regex: true })).reverse();
    assert.equal(unsplit.length, long.length);
    for (let k = 0; k < long.length; k++) {
      const [m] = (await search(split, { pattern: `^mid${k}$`, regex: true, context: 2 })).matches;
      assert.equal(m!.before!.join(''), unsplit[k], `the line before mid${k}`);
      assert.equal(m!.after!.join(''), unsplit[k + 1] ?? 'last', `the line after mid${k}`);
    }
    // Each word is matched at the start of its line's second piece (line 2 + 3k): what is before it there is part of the sequence.
    for (const [k, word] of ['RED', 'GREEN', 'LINK', 'TITLED', 'PROGRESS'].entries()) {
      const found = await search(split, { pattern: word });
      assert.deepEqual(
        found.matches.map((m) => [m.line, m.column]),
        [[2 + 3 * k, 0]],
        word,
      );
    }
  });

  it('keeps which stored lines continue a piece as the scrollback grows and evicts, split whole or as it arrives', async () => {
    // Pieces of at most 32 bytes: 29 characters and the marker. Each 69-character line is three
    // pieces, "row…-needle" straddling the first cut; 152 of the 300 pieces are kept, so the oldest
    // line kept lost its first piece (evicted) and is matched from its second.
    const scrollback = new Scrollback({ maxLines: 152, maxBytes: 1 << 20, maxLineBytes: 32 });
    const history = new CommandHistory({ scrollback, cwd: () => undefined, size: 10 });
    const line = (n: number) => `${'x'.repeat(25)}row${String(n).padStart(3, '0')}-needle-${'y'.repeat(30)}`;
    for (let n = 0; n < 100; n++) {
      if (n % 2) scrollback.append(`${line(n)}\r\n`);
      else for (const chunk of `${line(n)}\r\n`.match(/[^]{1,7}/g)!) scrollback.append(chunk); // heads stored before the line ends
    }
    assert.equal(scrollback.position().firstLine, 148);
    const found = await searchScrollback(scrollback, history, { pattern: 'needle', maxMatches: 100 }, unredacted, pool);
    const expected = Array.from({ length: 51 }, (_, i) => 99 - i).map((n) => ({
      line: 3 * n + 1,
      column: 3,
      text: n === 49 ? line(n).slice(29) : line(n),
    }));
    assert.deepEqual(
      found.matches.map((m) => ({ line: m.line, column: m.column, text: m.text })),
      expected,
    );
  });
});

/** Search mechanics without redaction (terminal-secrets tests cover redacted searches). */
async function unredacted(texts: string[]): Promise<string[]> {
  return texts;
}
