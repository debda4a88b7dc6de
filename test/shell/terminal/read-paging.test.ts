/**
 * Paging a session's rendered scrollback on real bash: every line is shown by exactly one page
 * when the rendered text is larger than the raw text (tabs become spaces), both for the whole
 * scrollback and for one command's output.
 */
import * as assert from 'node:assert/strict';
import type { ReadRequest, ReadResult } from '../../../src/terminal/types';
import { Harness, harness } from '../../helpers/terminalHarness';

describe('rendered pages (real bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(async () => h?.dispose());

  /** Every rendered page from the newest, following lineEnd as nextOffset does, oldest first. */
  async function allPages(id: string, request: ReadRequest, sync: boolean): Promise<ReadResult[]> {
    const pages: ReadResult[] = [];
    let offset = 0;
    for (;;) {
      const page = sync
        ? h.service.read(h.owner, id, { ...request, offset })
        : await h.service.readAsync(h.owner, id, { ...request, offset });
      pages.unshift(page);
      if (page.lineEnd >= page.totalLines) return pages;
      assert.ok(page.lineEnd > offset, `a page moves on (offset ${offset})`);
      offset = page.lineEnd;
    }
  }

  it('a page whose rendering outgrows the byte cap leaves its oldest lines to the next page instead of hiding them', async () => {
    const maxReadBytes = 2048;
    h = harness({ maxReadBytes });
    const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
    // 100 lines of 10 bytes raw (about 1 KiB, one page raw) that render to 37 characters each.
    await h.service.send(h.owner, id, { input: `for i in $(seq 1 100); do printf 'L%03d\\t\\t\\t\\tx\\n' $i; done` });
    const expected = Array.from({ length: 100 }, (_, i) => `L${String(i + 1).padStart(3, '0')}                            x`);
    for (const sync of [false, true]) {
      for (const request of [{ count: 500 }, { command: 1, count: 500 }]) {
        const pages = await allPages(id, request, sync);
        const lines = pages.flatMap((p) => p.text.split('\n'));
        for (const p of pages) {
          assert.ok(Buffer.byteLength(p.text) <= maxReadBytes, 'each page within the cap');
          assert.equal(p.text.split('\n').length, p.lineEnd - p.lineBegin, 'a page shows the lines its range names');
        }
        assert.deepEqual(
          lines.filter((l) => l.startsWith('L')),
          expected,
          `every line once (${sync ? 'read' : 'readAsync'}, ${JSON.stringify(request)})`,
        );
        assert.equal(pages[pages.length - 1]!.truncated, true, 'the newest page says the cap cut it');
      }
    }
  });
});

describe('read requests (real bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('raw and screen must be true or false: a string "true" or "false", a number or an object is refused, naming the field and what was sent', async () => {
    h = harness();
    const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
    await h.service.send(h.owner, id, { input: "printf '\\033[31mred\\033[0m\\n'" });
    for (const field of ['raw', 'screen'] as const) {
      for (const bad of ['true', 'false', 1, 0, {}]) {
        const refused = (e: Error) =>
          (e as { code?: string }).code === 'INVALID_ARGUMENT' &&
          e.message.startsWith(`${field} must be true or false`) &&
          e.message.includes(JSON.stringify(bad));
        assert.throws(() => h.service.read(h.owner, id, { [field]: bad as never }), refused);
        await assert.rejects(h.service.readAsync(h.owner, id, { [field]: bad as never }), refused);
      }
    }
    assert.match((await h.service.readAsync(h.owner, id, { raw: true })).text, /\x1b\[31mred/);
    assert.doesNotMatch((await h.service.readAsync(h.owner, id, { raw: false })).text, /\x1b/);
    assert.match((await h.service.readAsync(h.owner, id, { screen: false, raw: undefined })).text, /^red$/m);
  });

  it("an empty page of a command's output numbers its lines as the command's record does: no output, past the end, output evicted", async () => {
    h = harness({ retainedLines: 50 });
    const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
    const silent = (await h.service.send(h.owner, id, { input: 'true' })).command!;
    const five = (await h.service.send(h.owner, id, { input: 'seq 1 5' })).command!;
    const check = async (index: number) => {
      let seen = false;
      const record = h.service.command(h.owner, id, index).output;
      for (const offset of [0, 3, 1000]) {
        for (const raw of [true, false]) {
          const page = await h.service.readAsync(h.owner, id, { command: index, offset, raw });
          if (page.lineEnd > page.lineBegin) continue;
          assert.equal(page.text, '');
          assert.equal(page.totalLines, record.lineCount);
          assert.equal(
            page.firstLineNumber,
            record.firstLineNumber,
            `command ${index} offset ${offset} raw ${raw}: ${JSON.stringify({ page, record })}`,
          );
          seen = true;
        }
      }
      assert.ok(seen, 'an empty page was read');
    };
    await check(silent);
    await check(five);
    await h.service.send(h.owner, id, { input: 'seq 1 200' });
    const evicted = h.service.command(h.owner, id, five).output;
    assert.equal(evicted.lineCount, 0);
    assert.equal(evicted.truncated, true);
    await check(five);
    await check(silent);
  });

  it('a line cut by maxReadBytes never starts inside an escape sequence: in a send, a raw page and a rendered page', async () => {
    const maxReadBytes = 1000;
    h = harness({ maxReadBytes });
    const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
    // 300 red Xs of 12 bytes each on one line; k Zs after them move the cut through every byte of a sequence.
    for (let k = 0; k < 12; k++) {
      const r = await h.service.send(h.owner, id, {
        input: `for i in $(seq 1 300); do printf '\\033[31mX\\033[0m'; done; printf '${'Z'.repeat(k)}\\n'`,
      });
      assert.equal(r.truncated, true);
      assert.match(r.output, /^X+Z*$/, `send, ${k} Zs: ${JSON.stringify(r.output.slice(0, 20))}`);
      const raw = await h.service.readAsync(h.owner, id, { command: r.command!, raw: true });
      assert.equal(raw.truncated, true);
      assert.ok(Buffer.byteLength(raw.text) <= maxReadBytes);
      assert.match(raw.text.replace(/\x1b\[[0-9]*m/g, ''), /^X+Z*$/, `raw page, ${k} Zs: ${JSON.stringify(raw.text.slice(0, 20))}`);
      const rendered = await h.service.readAsync(h.owner, id, { command: r.command! });
      assert.match(rendered.text, /^X+Z*$/, `rendered page, ${k} Zs: ${JSON.stringify(rendered.text.slice(0, 20))}`);
      // The page before holds the piece of the line before this one's; it starts and ends cleanly too.
      const before = await h.service.readAsync(h.owner, id, { command: r.command!, offset: raw.lineEnd, count: 1, raw: true });
      assert.match(
        before.text.replace(/\x1b\[[0-9]*m/g, ''),
        /^X+⏎$/,
        `the page before, ${k} Zs: ${JSON.stringify(before.text.slice(0, 20))}`,
      );
      const beforeRendered = await h.service.readAsync(h.owner, id, { command: r.command!, offset: raw.lineEnd, count: 1 });
      assert.match(beforeRendered.text, /^X+⏎$/, `the rendered page before, ${k} Zs: ${JSON.stringify(beforeRendered.text.slice(0, 20))}`);
    }
  });
});
