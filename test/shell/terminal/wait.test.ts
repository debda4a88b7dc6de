/**
 * Waiting without typing (`TerminalService.wait`) on the real pty-bash backend: every outcome a
 * send can have, the `until` pattern, refusals, cancellation; and a signal to an exited shell.
 */
import * as assert from 'node:assert/strict';
import {
  MAX_UNTIL_LENGTH,
  UNTIL_CARRY_UNITS,
  UNTIL_PENDING_UNITS,
  UntilMatcher,
  compileUntil,
  plainText,
} from '../../../src/terminal/readiness/untilPattern';
import { UNTIL_MATCH_MS } from '../../../src/terminal/readiness/untilMatchThread';
import { MatchPool } from '../../../src/terminal/output/matchPool';
import { Harness, firstSession, harness } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';

describe('waiting without typing (pty-bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });
  const wait = (request: Parameters<Harness['service']['wait']>[2] = {}) => h.service.wait(h.owner, id, request);
  const code = (c: string) => (e: Error & { code?: string }) => e.code === c;

  beforeEach(async () => {
    h = harness({ quietThresholdMs: 10_000 });
    id = (await h.service.open(h.owner)).sessionId;
  });
  afterEach(async () => h.dispose());

  it('returns when the command finishes: the shell prompt with its exit code, only the output since the wait began', async () => {
    assert.equal((await send('echo before; sleep 2; echo after; false', 500)).waitReason, 'timeout');
    const r = await wait();
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 1);
    assert.equal(r.output, 'after');
    assert.equal(firstSession(h).busy, false);
  });

  it('returns when the program waits for input, naming it; it was typed nothing', async () => {
    assert.equal((await send(`sleep 1; python3 -c "print('hi ' + input('name: '))"`, 300)).waitReason, 'timeout');
    const r = await wait();
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'program-input');
    assert.match(r.foreground?.command ?? '', /python3/);
    assert.equal(r.output, 'name: ');
    assert.equal((await send('ada')).output.split('\n').at(-1), 'hi ada');
  });

  it('a program already waiting for input is the answer at once', async () => {
    assert.equal((await send(`python3 -c "print('hi ' + input('name: '))"`)).waiting, 'program-input');
    const r = await wait({ timeoutMs: 5000 });
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'program-input');
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('returns when new output matches until, saying what matched; the command runs on', async () => {
    assert.equal(
      (await send('echo "ready on 1"; for i in 1 2 3; do sleep 0.5; printf "\\033[32mstep %s\\033[0m\\n" $i; done; sleep 30', 300))
        .waitReason,
      'timeout',
    );
    const r = await wait({ until: compileUntil('^step 2$'), timeoutMs: 20_000 });
    assert.equal(r.waitReason, 'output_match');
    assert.equal(r.match, 'step 2');
    assert.match(r.output, /step 2/);
    assert.doesNotMatch(r.output, /ready on/, 'output from before the wait is not matched or shown');
    assert.equal(firstSession(h).busy, true, 'the command still runs');
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('an until pattern that backtracks without bound is stopped with an error saying so; this thread is never held and the command runs on', async () => {
    // (a+)+$ against a run of a's ended by '!' backtracks exponentially (24 a's: seconds in V8).
    assert.equal((await send(`sleep 0.5; printf '%s!\\n' ${'a'.repeat(24)}; sleep 30`, 300)).waitReason, 'timeout');
    const held = await withLagProbe(async () => {
      const started = performance.now();
      await assert.rejects(wait({ until: compileUntil('(a+)+$'), timeoutMs: 20_000 }), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'INVALID_ARGUMENT');
        assert.match(e.message, /until "\(a\+\)\+\$" was stopped: one match .* took more than \d+ ms/);
        assert.match(e.message, /the command goes on/);
        return true;
      });
      assert.ok(performance.now() - started < 10_000);
    });
    assert.ok(held.maxHeldMs < 500, `this thread was ${heldText(held)}`);
    assert.equal(firstSession(h).busy, true, 'the command still runs');
    // The session takes the next wait, and a pattern that matches.
    assert.equal(
      (await wait({ until: compileUntil('^a+!$'), timeoutMs: 1000 })).waitReason,
      'timeout',
      'output from before the wait is not matched',
    );
    h.service.signal(h.owner, id, 'SIGINT');
    assert.equal((await send('echo next')).output, 'next');
  });

  it('an escape sequence cut between two chunks of output is removed whole: ^ERROR matches the line it colours, its parameters are never matched', async () => {
    // The colour's introducer ends one write, its parameters and the text start the next: two PTY reads.
    assert.equal((await send(`sleep 1; printf '\\033[3'; sleep 0.5; printf '1mERROR\\033[0m\\n'; sleep 30`, 300)).waitReason, 'timeout');
    const r = await wait({ until: compileUntil('^ERROR$|\\dmERROR'), timeoutMs: 10_000 });
    assert.equal(r.waitReason, 'output_match');
    assert.equal(r.match, 'ERROR');
    assert.equal(firstSession(h).busy, true, 'the command still runs');
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('times out while the command runs on, with what it printed meanwhile', async () => {
    assert.equal((await send('sleep 1; echo tick; sleep 30', 300)).waitReason, 'timeout');
    const r = await wait({ timeoutMs: 2500 });
    assert.equal(r.waitReason, 'timeout');
    assert.equal(r.output, 'tick');
    assert.equal(firstSession(h).busy, true);
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('a cancelled wait interrupts the command like a cancelled send: the prompt with exit 130', async () => {
    assert.equal((await send('sleep 30', 300)).waitReason, 'timeout');
    const controller = new AbortController();
    setTimeout(() => controller.abort('cancelled'), 500);
    const r = await wait({ signal: controller.signal });
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 130);
  });

  it('a wait cancelled before it starts fails at once with CANCELLED: nothing is interrupted, the command runs on and its output stays readable', async () => {
    assert.equal((await send('for i in 1 2 3 4 5 6; do echo tick$i; sleep 0.5; done', 300)).waitReason, 'timeout');
    const controller = new AbortController();
    controller.abort('the tool call was cancelled');
    const started = Date.now();
    await assert.rejects(wait({ signal: controller.signal, timeoutMs: 5000 }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'CANCELLED');
      assert.match(e.message, /wait was cancelled \(the tool call was cancelled\)/);
      assert.match(e.message, /nothing was interrupted/);
      return true;
    });
    assert.ok(Date.now() - started < 1000, `the wait took ${Date.now() - started} ms to fail`);
    assert.equal(firstSession(h).busy, true, 'the command still runs');
    const r = await wait({ timeoutMs: 10_000 });
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 0, 'the command ran to its end, never interrupted');
    const text = (await h.service.readAsync(h.owner, id, { command: r.command! })).text;
    assert.deepEqual(
      text.split('\n').filter((l) => l.startsWith('tick')),
      ['tick1', 'tick2', 'tick3', 'tick4', 'tick5', 'tick6'],
    );
  });

  it('is refused at the shell prompt, and at the continuation prompt, saying what to do', async () => {
    await assert.rejects(
      wait(),
      (e: Error & { code?: string }) => e.code === 'NOTHING_TO_WAIT_FOR' && /at its prompt.*exit code 0.*dsh_terminal_send/.test(e.message),
    );
    assert.equal((await send('echo "open')).waiting, 'shell-continuation');
    await assert.rejects(
      wait(),
      (e: Error & { code?: string }) => e.code === 'NOTHING_TO_WAIT_FOR' && /continuation prompt/.test(e.message),
    );
  });

  it('is refused while a send or another wait is in flight', async () => {
    const { jobId } = h.service.startBackground(h.owner, id, { input: 'sleep 3' });
    await assert.rejects(wait(), code('SESSION_BUSY'));
    await until('the background send to end', async () => (await h.service.output(h.owner, id, jobId)).done);
    assert.equal((await send('sleep 30', 300)).waitReason, 'timeout');
    const first = wait({ timeoutMs: 1500 });
    await assert.rejects(wait(), code('SESSION_BUSY'));
    await assert.rejects(send('echo no'), code('SESSION_BUSY'));
    assert.equal((await first).waitReason, 'timeout');
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('checks timeoutMs as a send does', async () => {
    assert.equal((await send('sleep 30', 300)).waitReason, 'timeout');
    await assert.rejects(wait({ timeoutMs: 0 }), /timeoutMs must be an integer in 1\.\.\d+, in milliseconds \(got 0\)/);
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('a signal to a session whose shell exited answers with its status and delivers nothing; a wait is refused', async () => {
    assert.equal((await send('exit 3')).waitReason, 'session_exit');
    const r = h.service.signal(h.owner, id, 'SIGINT');
    assert.equal(r.delivered, false);
    assert.deepEqual(r.sessionStatus, { kind: 'exited', exitCode: 3, signal: null });
    assert.match(r.reason ?? '', /exited \(exit code 3\).*no process/);
    await assert.rejects(wait(), code('SESSION_EXITED'));
  });
});

describe('the until pattern (no PTY)', () => {
  const pool = new MatchPool();
  after(() => pool.dispose());
  const jobs = pool.forOwner({});
  const matchInPool = (pattern: RegExp, text: string) => jobs.matchUntil(pattern, text);
  /** What an UntilMatcher given `chunks` of output, one push each, ends with: the matched text, or the error it failed with. */
  const outcome = (pattern: string, chunks: string[]) =>
    new Promise<string | Error>((resolve) => {
      const matcher = new UntilMatcher(compileUntil(pattern), async (text) => text, matchInPool, { matched: resolve, failed: resolve });
      for (const chunk of chunks) matcher.push(chunk);
    });

  it('accepts a JavaScript regular expression, with ^ and $ at line ends', () => {
    assert.ok(compileUntil('^ready on \\d+$').test('x\nready on 3000\ny'));
  });

  it('refuses what is not a usable pattern, saying what is valid', () => {
    for (const bad of [undefined, 3, '', 'x'.repeat(MAX_UNTIL_LENGTH + 1)]) {
      assert.throws(() => compileUntil(bad), /until must be a non-empty string of at most 1000 characters/);
    }
    assert.throws(() => compileUntil('ready (on'), /not a valid JavaScript regular expression.*Escape special characters/);
  });

  it('sees output as plain text: escape sequences and carriage returns removed', () => {
    assert.equal(plainText('\x1b[1;32mready\x1b[0m on\r\n\x1b]0;title\x07port 3000'), 'ready on\nport 3000');
  });

  it('an escape sequence or string cut between two chunks is removed whole: the text after it starts its line', async () => {
    // END is the last line: matched only when the line before it was not.
    assert.equal(await outcome('^ERROR$|^END$', ['\x1b[3', '1mERROR\x1b[0m\r\n', 'END\r\n']), 'ERROR');
    assert.equal(await outcome('^ERROR$|^END$', ['\x1b', '[31mERROR\x1b[0m\r\n', 'END\r\n']), 'ERROR');
    assert.equal(await outcome('^READY$|^END$', ['\x1b]0;my ti', 'tle\x07READY\r\n', 'END\r\n']), 'READY', 'an OSC string ended by BEL');
    assert.equal(
      await outcome('^READY$|^END$', ['\x1b]8;;https://example.com/', 'page\x1b', '\\READY\x1b]8;;\x1b\\\r\n', 'END\r\n']),
      'READY',
      'an OSC string ended by ST, cut twice',
    );
    assert.equal(await outcome('31m|^END$', ['x\x1b[3', '1mERROR\r\n', 'END\r\n']), 'END', 'its parameters are never matched');
    assert.equal(
      await outcome('^ERROR$', ['ERROR\r\n\x1b[3']),
      'ERROR',
      'text before an unfinished sequence is matched without waiting for its end',
    );
  });

  it(`an unfinished sequence longer than ${UNTIL_CARRY_UNITS} code units is given up: the output after it is matched`, async () => {
    // A stray OSC introducer never ended: held, it would swallow every later line up to the BEL.
    assert.equal(await outcome('^READY$|^DONE$', [`\x1b]0;${'x'.repeat(UNTIL_CARRY_UNITS)}`, '\r\nREADY\r\n', '\x07DONE\r\n']), 'READY');
    // Up to the bound it is held, and removed whole once it ends.
    assert.equal(await outcome('^x|^READY$', [`\x1b]0;${'x'.repeat(UNTIL_CARRY_UNITS - 8)}`, 'x\x07READY\r\n']), 'READY');
  });

  it('a pattern stopped at its time bound on a flood of output says how much text that match read', async () => {
    const flood = await new Promise<Error>((resolve, reject) => {
      const matcher = new UntilMatcher(compileUntil('(a+)+b'), async (text) => text, matchInPool, {
        matched: () => reject(new Error('matched')),
        failed: resolve,
      });
      matcher.push('start\r\n'); // a match starts on this
      matcher.push(`${'a'.repeat(UNTIL_PENDING_UNITS)}\r\n`); // arrives while it is in flight: the next match reads it all
    });
    assert.match(flood.message, /until "\(a\+\)\+b" was stopped: one match against the output took more than \d+ ms/);
    assert.match(
      flood.message,
      new RegExp(
        `That match read ${UNTIL_PENDING_UNITS + 'start\n'.length} characters \\(UTF-16 code units\\) of output that arrived in a flood`,
      ),
    );
    assert.match(flood.message, /Wait again with a simpler pattern/);
    const line = await outcome('(a+)+$', [`${'a'.repeat(30)}!\r\n`]);
    assert.ok(line instanceof Error);
    assert.match(line.message, /was stopped: one match/);
    assert.doesNotMatch(line.message, /That match read/, 'a stop on a few lines does not blame a flood');
  });

  it('output that arrives while a match is in flight is all matched next, however much of it: a line is never skipped in a flood', async () => {
    const found = await new Promise<string>((resolve, reject) => {
      const matcher = new UntilMatcher(compileUntil('^MARKER-\\d+$'), async (text) => text, matchInPool, {
        matched: resolve,
        failed: reject,
      });
      matcher.push('starting\r\n'); // a match starts on this
      // Before it answers: the marker, then far more than the 8 KiB window of other lines.
      matcher.push('MARKER-42\r\n');
      for (let k = 0; k < 100; k++) matcher.push(`${'filler '.repeat(30)}${k}\r\n`);
      setTimeout(() => reject(new Error('the marker was never matched')), 5000).unref();
    });
    assert.equal(found, 'MARKER-42');
  });

  it('a match the worker finished in time is never taken for one stopped at its bound, however long this thread was busy meanwhile', async () => {
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end) {
        // This thread is held (another extension's work, a flood of output to handle).
      }
    };
    assert.deepEqual(await jobs.matchUntil(/x/, 'x'), { kind: 'matched', text: 'x' }, 'a worker is started and idle');
    for (let k = 0; k < 3; k++) {
      const outcome = jobs.matchUntil(/ready on \d+/, 'ready on 3000');
      setImmediate(() => busy(2 * UNTIL_MATCH_MS));
      assert.deepEqual(await outcome, { kind: 'matched', text: 'ready on 3000' }, `try ${k}`);
    }
    assert.deepEqual(
      await jobs.matchUntil(/(a+)+$/, `${'a'.repeat(30)}!`, 100),
      { kind: 'stopped', afterMs: 100 },
      'one that runs long is still stopped',
    );
  });
});
