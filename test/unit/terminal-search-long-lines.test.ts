/**
 * Search in a line longer than the scrollback's line limit (stored as several pieces, each but the
 * last ending with LINE_SPLIT_MARKER), on real bash: the line is matched whole, so a match that
 * straddles two pieces is found, and reported at the piece where it starts.
 */
import * as assert from 'node:assert/strict';
import { CommandHistory } from '../../src/terminal/commandHistory';
import { LINE_SPLIT_MARKER, Scrollback } from '../../src/terminal/scrollback';
import { searchScrollback } from '../../src/terminal/scrollbackSearch';
import { Harness, harness } from '../helpers/terminalHarness';

describe('search in a line stored in pieces (real bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('finds a match across the cut between two pieces, at the piece and column where it starts', async () => {
    h = harness();
    const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
    // One output line of 16378 a's, NEEDLE, 100 b's: the session stores lines of at most 16 KiB
    // (16381 bytes and the 3-byte marker), so NEEDLE is cut after NEE.
    await h.service.send(h.owner, id, { input: `head -c 16378 /dev/zero | tr '\\0' a; printf 'NEEDLE'; head -c 100 /dev/zero | tr '\\0' b; echo` });
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
    assert.deepEqual(anchored.matches.map((x) => [x.line, x.column]), [[record.output.firstLineNumber, 0]]);
    const marker = await h.service.search(h.owner, id, { pattern: LINE_SPLIT_MARKER, command: 1 });
    assert.deepEqual(marker.matches, []);
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
    const found = await searchScrollback(scrollback, history, { pattern: 'needle', maxMatches: 100 });
    const expected = Array.from({ length: 51 }, (_, i) => 99 - i).map((n) => ({ line: 3 * n + 1, column: 3, text: n === 49 ? line(n).slice(29) : line(n) }));
    assert.deepEqual(found.matches.map((m) => ({ line: m.line, column: m.column, text: m.text })), expected);
  });
});
