// The one ask-again loop of the navigation layer (src/lsp/askUntilSettled.ts): final answers,
// provisional ones asked again, agreement of two answers, the deadline, cancellation, backoff.
import * as assert from 'node:assert/strict';
import { askUntilSettled, AnswerState, Attempt } from '../../../src/lsp/askUntilSettled';
import { isLspError } from '../../../src/lsp/types';

/** Attempts that answer the scripted `[answer, state]` pairs in order (the last one repeats). */
function scripted<A>(script: Array<[A, AnswerState] | undefined>) {
  const times: number[] = [];
  return {
    times,
    attempt: (n: number): Promise<Attempt<A>> => {
      times.push(Date.now());
      const s = script[Math.min(n, script.length) - 1];
      return Promise.resolve(s ? { answer: s[0], state: s[1] } : undefined);
    },
  };
}

const signal = () => new AbortController().signal;

describe('askUntilSettled: the one ask-again loop', () => {
  it('a settled first answer is returned at once, after one attempt', async () => {
    const s = scripted([[['a.ts:1'], 'settled']]);
    const r = await askUntilSettled({ deadline: Date.now() + 5000, signal: signal(), attempt: s.attempt });
    assert.deepEqual([r.settled, r.answer, r.attempts], [true, ['a.ts:1'], 1]);
  });

  it('answers given while loading are asked again until one is settled, waiting 100, 200, 400 ms', async () => {
    const s = scripted<string[]>([
      [['a.ts:1'], 'loading'],
      [['a.ts:1'], 'loading'],
      [['a.ts:1'], 'loading'],
      [['a.ts:1', 'b.ts:2', 'b.ts:3'], 'settled'],
    ]);
    const r = await askUntilSettled({
      deadline: Date.now() + 5000,
      signal: signal(),
      attempt: s.attempt,
      agree: (a, b) => a.join() === b.join(),
    });
    assert.deepEqual(
      [r.settled, r.answer, r.attempts],
      [true, ['a.ts:1', 'b.ts:2', 'b.ts:3'], 4],
      'two loading answers that agree are still provisional',
    );
    const gaps = s.times.slice(1).map((t, i) => t - s.times[i]!);
    [100, 200, 400].forEach((want, i) => assert.ok(gaps[i]! >= want - 5 && gaps[i]! < want + 150, `gap ${i}: ${gaps.join(', ')} ms`));
  });

  it('without a signal from the source, two answers in a row that agree are final', async () => {
    const s = scripted<string[]>([
      [['a.ts:1'], 'unknown'],
      [['a.ts:1', 'b.ts:2'], 'unknown'],
      [['a.ts:1', 'b.ts:2'], 'unknown'],
    ]);
    const r = await askUntilSettled({
      deadline: Date.now() + 5000,
      signal: signal(),
      attempt: s.attempt,
      agree: (a, b) => a.join() === b.join(),
      firstDelayMs: 1,
    });
    assert.deepEqual([r.settled, r.answer, r.attempts], [true, ['a.ts:1', 'b.ts:2'], 3]);
  });

  it('an agreement that answers later (a comparison that yields) counts the same', async () => {
    const s = scripted<string[]>([
      [['a.ts:1'], 'unknown'],
      [['a.ts:1', 'b.ts:2'], 'unknown'],
      [['b.ts:2', 'a.ts:1'], 'unknown'],
    ]);
    const agree = async (a: string[], b: string[]) => {
      await new Promise((r) => setImmediate(r));
      return [...a].sort().join() === [...b].sort().join();
    };
    const r = await askUntilSettled({ deadline: Date.now() + 5000, signal: signal(), attempt: s.attempt, agree, firstDelayMs: 1 });
    assert.deepEqual([r.settled, r.answer, r.attempts], [true, ['b.ts:2', 'a.ts:1'], 3]);
  });

  it('a loading answer between two agreeing unknown ones breaks the agreement', async () => {
    const s = scripted<string>([
      ['x', 'unknown'],
      ['x', 'loading'],
      ['x', 'unknown'],
      ['x', 'unknown'],
    ]);
    const r = await askUntilSettled({
      deadline: Date.now() + 5000,
      signal: signal(),
      attempt: s.attempt,
      agree: (a, b) => a === b,
      firstDelayMs: 1,
    });
    assert.deepEqual([r.settled, r.attempts], [true, 4]);
  });

  it('at the deadline: not settled, with the last answer (or none), and no wait past the deadline', async () => {
    const s = scripted<string>([['partial', 'loading']]);
    const started = Date.now();
    const r = await askUntilSettled({ deadline: started + 350, signal: signal(), attempt: s.attempt });
    const took = Date.now() - started;
    assert.equal(r.settled, false);
    assert.equal(r.answer, 'partial');
    assert.ok(took >= 340 && took < 600, `${took} ms`);
    const none = await askUntilSettled({ deadline: Date.now() + 50, signal: signal(), attempt: scripted<string>([undefined]).attempt });
    assert.equal(none.settled, false);
    assert.equal('answer' in none, false, 'no attempt answered');
  });

  it('a deadline given as a function is read after every attempt (a limit extended while the source works)', async () => {
    let n = 0;
    const started = Date.now();
    const r = await askUntilSettled<number>({
      deadline: () => started + (n >= 2 ? 2000 : 150),
      signal: signal(),
      firstDelayMs: 50,
      maxDelayMs: 50,
      attempt: () => Promise.resolve({ answer: ++n, state: n >= 6 ? 'settled' : 'loading' }),
    });
    assert.deepEqual([r.settled, r.answer], [true, 6], 'the limit grew from 150 ms to 2 s after the second attempt');
  });

  it('an attempt is made even when the deadline has passed', async () => {
    const s = scripted<string>([['late', 'settled']]);
    const r = await askUntilSettled({ deadline: Date.now() - 1, signal: signal(), attempt: s.attempt });
    assert.deepEqual([r.settled, r.answer], [true, 'late']);
  });

  it('cancellation during the wait rejects at once with cancelled', async () => {
    const ac = new AbortController();
    const s = scripted<string>([['x', 'loading']]);
    const started = Date.now();
    setTimeout(() => ac.abort('stop'), 150);
    await assert.rejects(
      askUntilSettled({ deadline: Date.now() + 10_000, signal: ac.signal, attempt: s.attempt }),
      (e: unknown) => isLspError(e) && e.code === 'cancelled' && e.details.reason === 'stop',
    );
    assert.ok(Date.now() - started < 500);
  });

  it('the wait can be replaced (e.g. woken by an event), and gets the backoff delays', async () => {
    const waits: number[] = [];
    const s = scripted<string>([
      ['x', 'loading'],
      ['x', 'loading'],
      ['y', 'settled'],
    ]);
    const r = await askUntilSettled({
      deadline: Date.now() + 5000,
      signal: signal(),
      attempt: s.attempt,
      wait: (ms) => (waits.push(ms), Promise.resolve()),
    });
    assert.deepEqual([r.answer, waits], ['y', [100, 200]]);
  });
});
