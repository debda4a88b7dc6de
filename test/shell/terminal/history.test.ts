/**
 * The command record on real bash through the pty-bash backend: each command the shell ran with
 * its exit status, cwd, who typed it and the exact scrollback range of its output; `command:`
 * reads; search in the scrollback with the regular expression in a worker thread.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommandRecord } from '../../../src/terminal/history/commandRecord';
import { CommandHistory } from '../../../src/terminal/history/commandHistory';
import { TerminalError } from '../../../src/terminal/errors';
import { Scrollback } from '../../../src/terminal/output/scrollback';
import { searchScrollback } from '../../../src/terminal/output/scrollbackSearch';
import { MatchPool } from '../../../src/terminal/output/matchPool';
import { Harness, harness } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';

const linux = process.platform === 'linux';

describe('command record (real bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });
  const record = (index: number) => h.service.command(h.owner, id, index);

  afterEach(async () => h?.dispose());

  describe('with the default scrollback', () => {
    beforeEach(async () => {
      h = harness();
      id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    });

    it("output that does not end with a newline: the command's output is its own, not the next prompt and command echoed on its last line", async () => {
      const unfinished = await send("printf 'one\\ntwo'");
      assert.equal(unfinished.output, 'one\ntwo');
      await send('echo after && echo b');
      const read = h.service.read(h.owner, id, { command: unfinished.command! });
      assert.equal(read.text, 'one\ntwo');
      assert.equal(h.service.read(h.owner, id, { command: unfinished.command!, raw: true }).text, 'one\ntwo');
      assert.equal(h.service.read(h.owner, id, { command: unfinished.command!, offset: 1, count: 1 }).text, 'one');
      const inRange = await h.service.search(h.owner, id, { pattern: 'after', command: unfinished.command! });
      assert.deepEqual(inRange.matches, [], JSON.stringify(inRange));
      const own = await h.service.search(h.owner, id, { pattern: 'two', command: unfinished.command! });
      assert.deepEqual(
        own.matches.map((m) => [m.text, m.command]),
        [['two', unfinished.command]],
      );
      // The record's byte count is the output's own.
      assert.equal(record(unfinished.command!).output.bytes, Buffer.byteLength('one\ntwo'));
    });

    it("output that does not end with a newline, its line split in pieces by the long command line typed after it: a search of the command's output still matches its last characters", async () => {
      const unfinished = await send("printf 'one\\nxDONE'");
      // The next prompt and this 17 000-byte command line follow `xDONE` on its line: the line is
      // stored in pieces, the first (`xDONE`, the prompt, the line's head) ending with the marker.
      await send(`: ${'y'.repeat(17_000)}; echo b`);
      assert.equal(h.service.read(h.owner, id, { command: unfinished.command!, raw: true }).text, 'one\nxDONE');
      const own = await h.service.search(h.owner, id, { pattern: 'DONE', command: unfinished.command! });
      assert.deepEqual(
        own.matches.map((m) => [m.text, m.command]),
        [['xDONE', unfinished.command]],
        JSON.stringify(own),
      );
    });

    it('output whose unfinished last line is just under the 16 KiB split limit: what follows it splits the line inside the output, and the command still reads and searches all of it', async () => {
      // 16 384 bytes fit one stored line; a piece holds 16 381 and the 3-byte marker. The next
      // prompt pushes the line past the limit, so its first piece ends before the output does.
      for (const n of [16_382, 16_384]) {
        const unfinished = await send(`printf 'z%.0s' $(seq 1 ${n - 1}); printf E`);
        await send('echo b');
        const raw = h.service.read(h.owner, id, { command: unfinished.command!, raw: true, count: 5 });
        assert.ok(
          raw.text.replaceAll('⏎\n', '') === `${'z'.repeat(n - 1)}E`,
          `${n}: ${raw.text.length} characters, ending ${JSON.stringify(raw.text.slice(-8))}`,
        );
        const own = await h.service.search(h.owner, id, { pattern: 'zE', command: unfinished.command! });
        assert.equal(own.matches.length, 1, `${n}: ${JSON.stringify(own)}`);
        const after = await h.service.search(h.owner, id, { pattern: 'echo b', command: unfinished.command! });
        assert.deepEqual(after.matches, [], `${n}: ${JSON.stringify(after)}`);
      }
    });

    it('records exit status 0 and non-zero, and each send result names its command', async () => {
      const ok = await send('echo hello');
      const bad = await send('(exit 3)');
      assert.equal(ok.command, 1);
      assert.equal(bad.command, 2);
      const first = record(1);
      assert.equal(first.command, 'echo hello');
      assert.equal(first.state, 'finished');
      assert.equal(first.exitCode, 0);
      assert.equal(first.typedBy, 'agent');
      assert.ok(first.durationMs >= 0);
      assert.ok(!Number.isNaN(Date.parse(first.startedAt)));
      const second = record(2);
      assert.equal(second.exitCode, 3);
      assert.equal(second.state, 'finished');
      // Only the failed one with failed: true; newest first.
      const failed = h.service.history(h.owner, id, { failed: true });
      assert.deepEqual(
        failed.commands.map((c) => c.index),
        [2],
      );
      assert.deepEqual(
        h.service.history(h.owner, id).commands.map((c) => c.index),
        [2, 1],
      );
      // The output range reads back exactly that output.
      assert.equal(first.output.lineCount, 1);
      assert.equal(h.service.read(h.owner, id, { command: 1 }).text, 'hello');
      assert.equal(h.service.read(h.owner, id, { offset: first.output.offset, count: first.output.lineCount }).text, 'hello');
      assert.equal(second.output.lineCount, 0);
      assert.equal(h.service.read(h.owner, id, { command: 2 }).text, '');
    });

    it('counts a multi-line paste, a multi-line loop and a heredoc as one command each, typed text kept exactly', async () => {
      await send('echo one\necho two');
      await send('for i in 1 2; do\n  echo "n$i"\ndone');
      await send('cat <<EOF\ntab\there\nEOF');
      const all = h.service.history(h.owner, id).commands.reverse();
      assert.deepEqual(
        all.map((c) => c.command),
        ['echo one\necho two', 'for i in 1 2; do\n  echo "n$i"\ndone', 'cat <<EOF\ntab\there\nEOF'],
      );
      assert.deepEqual(
        all.map((c) => c.index),
        [1, 2, 3],
      );
      assert.equal(h.service.read(h.owner, id, { command: 1 }).text, 'one\ntwo');
      assert.equal(h.service.read(h.owner, id, { command: 2 }).text, 'n1\nn2');
      assert.equal(h.service.read(h.owner, id, { command: 3, raw: true }).text, 'tab\there');
    });

    it('a heredoc finished over several sends (continuation prompts) is one command, recovered from the echo', async () => {
      const start = await send('cat <<EOF');
      assert.equal(start.waiting, 'shell-continuation');
      assert.equal(start.command, undefined);
      await send('body line');
      const done = await send('EOF');
      assert.equal(done.command, 1);
      const c = record(1);
      assert.equal(c.command, 'cat <<EOF\nbody line\nEOF');
      assert.equal(h.service.read(h.owner, id, { command: 1 }).text, 'body line');
      assert.equal(h.service.history(h.owner, id).total, 1);
    });

    (linux ? it : it.skip)('a cd shows in the cwd of the command after it', async () => {
      fs.mkdirSync(path.join(h.tmp, 'sub'));
      await send('cd sub');
      await send('pwd');
      const cd = record(1);
      const pwd = record(2);
      assert.equal(cd.cwdStart, fs.realpathSync(h.tmp));
      assert.equal(cd.cwdEnd, fs.realpathSync(path.join(h.tmp, 'sub')));
      assert.equal(pwd.cwdStart, cd.cwdEnd);
      assert.equal(pwd.cwdEnd, cd.cwdEnd);
    });

    it('SIGINT is reported as the interruption; an exit status of 130 by itself is not', async () => {
      const running = await send('sleep 30', 500);
      assert.equal(running.waitReason, 'timeout');
      assert.equal(running.command, 1);
      assert.equal(record(1).state, 'running');
      assert.equal(record(1).exitCode, undefined);
      const signalled = h.service.signal(h.owner, id, 'SIGINT');
      assert.equal(signalled.delivered, true);
      await h.service.settled(h.owner, id);
      const c = await until('the interrupted command to end', () => record(1).state !== 'running' && record(1));
      assert.equal(c.state, 'interrupted');
      assert.equal(c.signal, 'SIGINT');
      assert.equal(c.exitCode, 130);
      await send('(exit 130)');
      assert.equal(record(2).state, 'finished');
      assert.equal(record(2).signal, undefined);
      assert.equal(record(2).exitCode, 130);
    });

    it('a command stopped by a signal (kill -STOP, SIGTSTP) is stopped, not ended: no exit code; fg continues it and the fg command ends with its status', async () => {
      // The command stops itself: the shell takes the terminal back and prompts with $? = 128 + SIGSTOP.
      const stopped = await send(`sh -c 'kill -STOP $$; echo resumed; exit 3'`);
      assert.equal(stopped.waiting, 'shell-prompt');
      assert.equal(stopped.stopped, 'SIGSTOP');
      assert.equal(stopped.exitCode, undefined);
      assert.deepEqual([record(1).state, record(1).signal, record(1).exitCode], ['stopped', 'SIGSTOP', undefined]);
      const continued = await send('fg');
      assert.equal(continued.waiting, 'shell-prompt');
      assert.equal(continued.exitCode, 3);
      assert.equal(continued.stopped, undefined);
      assert.match(continued.output, /resumed/);
      assert.deepEqual([record(2).command, record(2).state, record(2).exitCode], ['fg', 'finished', 3]);
      // SIGTSTP delivered through the session to a running background send: its job ends stopped.
      const { jobId } = h.service.startBackground(h.owner, id, { input: 'sleep 30' });
      await until('the sleep to start', () => h.service.history(h.owner, id).total === 3 && record(3).state === 'running');
      assert.equal(h.service.signal(h.owner, id, 'SIGTSTP').delivered, true);
      const job = await until('the job to end', async () => {
        const out = await h.service.output(h.owner, id, jobId);
        return out.done && out;
      });
      assert.equal(job.result?.stopped, 'SIGTSTP');
      assert.equal(job.result?.exitCode, undefined);
      assert.deepEqual([record(3).state, record(3).signal, record(3).exitCode], ['stopped', 'SIGTSTP', undefined]);
      // An exit status of 128 + SIGTSTP by itself is no stop.
      const plain = await send('(exit 148)');
      assert.equal(plain.exitCode, 148);
      assert.equal(plain.stopped, undefined);
      assert.deepEqual([record(4).state, record(4).signal], ['finished', undefined]);
      // Continued by fg and stopped again: the same job, stopped anew.
      const again = h.service.startBackground(h.owner, id, { input: 'fg' });
      await until('fg to start', () => h.service.history(h.owner, id).total === 5 && record(5).state === 'running');
      await until('SIGTSTP to reach the sleep', () => h.service.signal(h.owner, id, 'SIGTSTP').foreground?.command.startsWith('sleep'));
      const restopped = await until('fg to end', async () => {
        const out = await h.service.output(h.owner, id, again.jobId);
        return out.done && out;
      });
      assert.equal(restopped.result?.stopped, 'SIGTSTP');
      assert.deepEqual([record(5).command, record(5).state, record(5).signal], ['fg', 'stopped', 'SIGTSTP']);
      await send('kill -9 %1');
    });

    it('a wait and a background send name the command they belong to', async () => {
      const started = await send('sleep 0.6; echo slept', 100);
      assert.equal(started.waitReason, 'timeout');
      const waited = await h.service.wait(h.owner, id, {});
      assert.equal(waited.command, 1);
      assert.equal(waited.exitCode, 0);
      const { jobId } = h.service.startBackground(h.owner, id, { input: 'echo bg' });
      const job = await until('the background job', async () => {
        const out = await h.service.output(h.owner, id, jobId);
        return out.done && out;
      });
      assert.equal(job.result?.command, 2);
    });

    it("the person's command after Take Over is marked as theirs, with their line edits applied", async () => {
      await send('echo by-agent');
      assert.equal(h.service.takeOver(h.owner, id), true);
      // Typing as a person does, with two Backspaces.
      h.service.writeUserInput(h.owner, id, 'echo by-perzz\x7f\x7fson\r');
      const c = await until(
        "the person's command to finish",
        () => h.service.history(h.owner, id).total === 2 && record(2).state === 'finished' && record(2),
      );
      assert.equal(c.typedBy, 'user');
      assert.equal(c.command, 'echo by-person');
      assert.equal(h.service.read(h.owner, id, { command: 2 }).text, 'by-person');
      h.service.handBack(h.owner, id);
      await h.service.send(h.owner, id, { input: 'echo by-run', origin: 'dsh_run' });
      assert.deepEqual(
        h.service.history(h.owner, id).commands.map((r) => r.typedBy),
        ['dsh_run', 'user', 'agent'],
      );
      // A caller cannot pass its command off as the person's.
      await assert.rejects(
        h.service.send(h.owner, id, { input: 'echo x', origin: 'user' as 'agent' }),
        /origin must be "agent" or "dsh_run"/,
      );
    });

    it('Ctrl-C typed by the person counts as SIGINT', async () => {
      h.service.takeOver(h.owner, id);
      h.service.writeUserInput(h.owner, id, 'sleep 30\r');
      await until('the sleep to start', () => h.service.history(h.owner, id).total === 1);
      await new Promise((r) => setTimeout(r, 300));
      h.service.writeUserInput(h.owner, id, '\x03');
      const c = await until('the sleep to end', () => record(1).state !== 'running' && record(1));
      assert.equal(c.state, 'interrupted');
      assert.equal(c.signal, 'SIGINT');
      h.service.handBack(h.owner, id); // the harness closes only the agent's sessions
    });

    it('a command that ends the shell is reported as session_exited', async () => {
      await send('exit 4');
      const c = await until('the record', () => record(1).state !== 'running' && record(1));
      assert.equal(c.state, 'session_exited');
      assert.equal(c.exitCode, undefined);
      assert.equal(c.command, 'exit 4');
    });

    it('filters by a substring of the command line and pages newest first', async () => {
      for (let i = 1; i <= 5; i++) await send(`echo item-${i}`);
      await send('echo other');
      const page1 = h.service.history(h.owner, id, { contains: 'item-', count: 2 });
      assert.deepEqual(
        page1.commands.map((c) => c.command),
        ['echo item-5', 'echo item-4'],
      );
      assert.equal(page1.matching, 5);
      assert.equal(page1.nextOffset, 2);
      const page3 = h.service.history(h.owner, id, { contains: 'item-', count: 2, offset: 4 });
      assert.deepEqual(
        page3.commands.map((c) => c.command),
        ['echo item-1'],
      );
      assert.equal(page3.nextOffset, undefined);
      assert.throws(() => h.service.history(h.owner, id, { count: 0 }), /count must be an integer in 1\.\.\d+ \(got 0\)/);
      assert.throws(() => h.service.read(h.owner, id, { command: 99 }), /command 99: no such command; the record holds 1–6/);
    });

    it('search: a regular expression newest match first, with context and the command that printed it', async () => {
      await send('for i in $(seq 1 10000); do echo "row $i"; done');
      await send('echo needle-end');
      const r = await h.service.search(h.owner, id, { pattern: 'row (9999|5000|17)$', regex: true, context: 2 });
      assert.deepEqual(
        r.matches.map((m) => m.text),
        ['row 9999', 'row 5000', 'row 17'],
      );
      const [m] = r.matches;
      assert.ok(m);
      assert.equal(m.command, 1);
      assert.deepEqual(m.before, ['row 9997', 'row 9998']);
      assert.deepEqual(m.after, ['row 10000', '$ echo needle-end']);
      // The line number reads back that line.
      assert.equal(h.service.read(h.owner, id, { offset: m.offset, count: 1, raw: true }).text, 'row 9999');
      const page = h.service.read(h.owner, id, { offset: 0, count: 100_000, raw: true });
      assert.equal(page.firstLineNumber + page.text.split('\n').indexOf('row 9999'), m.line);
      // Literal, case-insensitive, limited to one command.
      const lit = await h.service.search(h.owner, id, { pattern: 'NEEDLE', ignoreCase: true, command: 2 });
      assert.deepEqual(
        lit.matches.map((x) => [x.text, x.command]),
        [['needle-end', 2]],
      );
      // Paging: two matches per page, then on from nextOffset.
      const p1 = await h.service.search(h.owner, id, { pattern: 'row 1000', maxMatches: 2 });
      assert.deepEqual(
        p1.matches.map((x) => x.text),
        ['row 10000', 'row 1000'],
      );
      assert.ok(p1.nextOffset !== undefined);
      const p2 = await h.service.search(h.owner, id, { pattern: 'row 100', maxMatches: 3, offset: p1.nextOffset });
      assert.deepEqual(
        p2.matches.map((x) => x.text),
        ['row 100'],
      );
      assert.equal(p2.nextOffset, undefined);
    });

    it('search: a pattern with catastrophic backtracking is cut by the time bound while this thread stays free', async () => {
      await send(`printf 'a%.0s' $(seq 1 5000); echo b`);
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      const started = Date.now();
      const r = await h.service.search(h.owner, id, { pattern: '(a+)+$', regex: true, timeoutMs: 500 });
      clearInterval(ticker);
      const took = Date.now() - started;
      assert.equal(r.timedOut, true);
      assert.match(r.note ?? '', /time bound \(500 ms\).*nested quantifiers/);
      assert.ok(took < 3000, `the search returned after ${took} ms`);
      assert.ok(ticks >= 20, `the event loop ran ${ticks} timer ticks during the search`);
      // A later search works (a fresh worker).
      const after = await h.service.search(h.owner, id, { pattern: 'b$', regex: true, maxMatches: 1 });
      assert.equal(after.timedOut, undefined);
      assert.equal(after.matches.length, 1);
    });

    it('search refuses bad input, saying what is valid', async () => {
      await assert.rejects(h.service.search(h.owner, id, { pattern: '(', regex: true }), /not a valid JavaScript regular expression/);
      await assert.rejects(h.service.search(h.owner, id, { pattern: '' }), /non-empty string/);
      await assert.rejects(h.service.search(h.owner, id, { pattern: 'x', context: 11 }), /context must be an integer in 0\.\.10/);
      await assert.rejects(
        h.service.search(h.owner, id, { pattern: 'x', command: 5 }),
        (e: unknown) => e instanceof TerminalError && e.code === 'INVALID_ARGUMENT',
      );
    });
  });

  it('a command whose output overflowed the retained scrollback is reported truncated, with the range that is left', async () => {
    h = harness({ retainedLines: 50 });
    id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    await send('seq 1 200');
    const c: CommandRecord = record(1);
    assert.equal(c.output.truncated, true);
    assert.equal((c.output.droppedLines ?? 0) + c.output.lineCount, 200);
    const kept = h.service.read(h.owner, id, { command: 1, raw: true }).text.split('\n');
    assert.equal(kept.length, c.output.lineCount);
    assert.equal(kept[kept.length - 1], '200');
    const firstKept = Number(kept[0]);
    assert.equal(firstKept, 201 - c.output.lineCount);
    // Bytes of "1\n" … "<firstKept - 1>\n".
    let dropped = 0;
    for (let i = 1; i < firstKept; i++) dropped += String(i).length + 1;
    assert.equal(c.output.droppedBytes, dropped);
    assert.equal(c.output.bytes, dropped + kept.reduce((n, l) => n + l.length + 1, 0));
    const partly = await h.service.search(h.owner, id, { pattern: '^(1|200)$', regex: true, command: 1 });
    assert.deepEqual(
      partly.matches.map((m) => m.text),
      ['200'],
    );
    assert.match(
      partly.note ?? '',
      new RegExp(
        `the oldest ${c.output.droppedLines} of the 200 lines of command 1's output are no longer in the scrollback .*; the rest was searched`,
      ),
    );
    // Later output pushes the rest out: nothing is left, and a read of it is empty.
    await send('seq 1 100 >/dev/null; for i in $(seq 1 60); do echo x; done');
    assert.equal(record(1).output.lineCount, 0);
    assert.equal(record(1).output.droppedLines, 200);
    assert.equal(h.service.read(h.owner, id, { command: 1 }).text, '');
    const searched = await h.service.search(h.owner, id, { pattern: '1', command: 1 });
    assert.deepEqual(searched.matches, []);
    assert.match(searched.note ?? '', /all of the 200 lines of command 1's output are no longer in the scrollback/);
  });

  it('keeps the newest historySize commands; older ones are named as forgotten', async () => {
    h = harness({ historySize: 3 });
    id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    for (let i = 1; i <= 5; i++) await send(`echo ${i}`);
    const page = h.service.history(h.owner, id);
    assert.deepEqual(
      page.commands.map((c) => c.index),
      [5, 4, 3],
    );
    assert.equal(page.recorded, 3);
    assert.equal(page.total, 5);
    assert.throws(() => record(2), /command 2: it is older than the record keeps \(dsh.terminal.historySize\); the record holds 3–5/);
  });
});

describe('scrollback search: text as stored', () => {
  const pool = new MatchPool();
  after(() => pool.dispose());
  // The worker reads ASCII pages (and, in a mixed page, ASCII lines) as Latin-1, the rest as UTF-8.
  for (const [what, lines] of [
    ['an ASCII page', ['plain 1', '\x1b[32mcoloured needle 2\x1b[0m', 'plain 3']],
    ['a page with UTF-8 lines', ['✓ passed ünïcode 1', 'needle after 🚀 emoji 2', 'plain ascii needle 3', '日本語 needle 4']],
  ] as const) {
    it(`finds matches with their columns in ${what}`, async () => {
      const scrollback = new Scrollback({ maxLines: 100, maxBytes: 64 * 1024 });
      scrollback.append(lines.map((l) => `${l}\r\n`).join(''));
      const history = new CommandHistory({ scrollback, cwd: () => undefined, size: 10 });
      const found = await searchScrollback(scrollback, history, { pattern: 'needle', context: 1 }, unredacted, pool);
      const plain = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
      const expected = plain
        .flatMap((l, i) =>
          l.includes('needle') ? [{ text: l, column: l.indexOf('needle'), before: plain.slice(Math.max(0, i - 1), i) }] : [],
        )
        .reverse();
      assert.deepEqual(
        found.matches.map((m) => ({ text: m.text, column: m.column, before: m.before ?? [] })),
        expected,
      );
      const regex = await searchScrollback(scrollback, history, { pattern: '(ünï|🚀|日本)', regex: true }, unredacted, pool);
      assert.deepEqual(
        regex.matches.map((m) => m.text),
        plain.filter((l) => /(ünï|🚀|日本)/.test(l)).reverse(),
      );
    });
  }
});

/** Search mechanics without redaction (terminal-secrets tests cover redacted searches). */
async function unredacted(texts: string[]): Promise<string[]> {
  return texts;
}
