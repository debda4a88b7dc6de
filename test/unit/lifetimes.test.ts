// The one owner of lifetimes (src/common/lifetimes.ts): parts end newest first, those that take
// time first and awaited together within the budget, then the others; a part that fails does not
// stop the others; ending twice ends nothing twice.
import * as assert from 'node:assert/strict';
import { Lifetimes } from '../../src/common/lifetimes';
import { sleep } from '../helpers/wait';

describe("Lifetimes: the one owner of an activation's parts", () => {
  it('ends the parts that take time first, newest first and at once, then the others newest first; awaited within the budget', async () => {
    const events: string[] = [];
    const reported: string[] = [];
    const life = new Lifetimes(1000, (m) => reported.push(m));
    life.own({ dispose: () => events.push('log disposed') });
    life.onEnd(async () => {
      events.push('sessions: start');
      await sleep(200);
      events.push('sessions: done');
    });
    life.own({
      dispose: () => {
        throw new Error('registration broke');
      },
    });
    life.ownAsync({
      dispose: async () => {
        events.push('pool: start');
        await sleep(50);
        throw new Error('pool broke');
      },
    });
    life.own({ dispose: () => events.push('commands disposed') });
    assert.equal(life.size, 5);
    const started = performance.now();
    const ending = life.end(1000);
    assert.strictEqual(life.end(1000), ending, 'a second end is the first');
    await ending;
    const took = performance.now() - started;
    assert.deepEqual(events, ['pool: start', 'sessions: start', 'sessions: done', 'commands disposed', 'log disposed']);
    assert.ok(took >= 190 && took < 1000, `ended in ${took.toFixed(0)} ms: the parts that take time were awaited together`);
    assert.equal(reported.length, 2);
    assert.match(reported.join('\n'), /part 3 .* pool broke/);
    assert.match(reported.join('\n'), /part 2 .* registration broke/);
    assert.equal(life.size, 0);
    life.dispose(); // what VS Code does after deactivate: nothing is ended twice
    await sleep(10);
    assert.equal(events.length, 5);
  });

  it('does not wait past the budget for a part that never ends, and disposes the others then', async () => {
    const events: string[] = [];
    const life = new Lifetimes(100);
    life.own({ dispose: () => events.push('log disposed') });
    life.onEnd(() => new Promise(() => undefined));
    const started = performance.now();
    await life.end(150);
    const took = performance.now() - started;
    assert.ok(took >= 140 && took < 1000, `ended after ${took.toFixed(0)} ms`);
    assert.deepEqual(events, ['log disposed']);
  });

  it('a part handed over after the end is ended at once', async () => {
    const life = new Lifetimes(100);
    await life.end(100);
    let ended = 0;
    life.own({ dispose: () => ended++ });
    life.ownAsync({ dispose: async () => ended++ });
    await sleep(0);
    assert.equal(ended, 2);
  });
});
