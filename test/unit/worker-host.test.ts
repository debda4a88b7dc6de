// The one lifecycle of a worker thread (src/common/workerHost.ts) with real worker threads: a crash
// is reported once and the next post starts a new worker; a runaway is terminated at its bound;
// dispose leaves no thread (each worker's 'exit', counted by WorkerHost.live).
import * as assert from 'node:assert/strict';
import { WorkerHost } from '../../src/common/workerHost';

/** A worker that echoes each message, crashes on 'crash', and spins forever on 'spin'. */
const PROGRAM = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m === 'crash') throw new Error('asked to crash');
  if (m === 'spin') for (;;) {}
  parentPort.postMessage({ echo: m, threadId });
});
`;

interface Echo {
  echo: string;
  threadId: number;
}

/** A host over PROGRAM that records its replies and losses, and awaits the next of either. */
function echoHost() {
  const replies: Echo[] = [];
  const lost: string[] = [];
  let wake: (() => void) | undefined;
  const host = new WorkerHost<string, Echo>({
    name: 'echo',
    entry: PROGRAM,
    eval: true,
    onMessage: (reply) => {
      replies.push(reply);
      wake?.();
    },
    onLost: (why) => {
      lost.push(why);
      wake?.();
    },
  });
  const next = (ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no reply nor loss in time')), ms);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });
  return { host, replies, lost, next };
}

describe('WorkerHost: one worker thread with real workers', function () {
  this.timeout(30_000);
  let liveBefore = 0;
  beforeEach(() => (liveBefore = WorkerHost.live));

  it('a worker that crashes is reported once, and the next post starts a new one that answers', async () => {
    const { host, replies, lost, next } = echoHost();
    host.post('one');
    await next();
    host.post('crash');
    await next();
    assert.equal(lost.length, 1);
    assert.match(lost[0]!, /^failed: asked to crash/);
    assert.equal(host.running, false, "the lost worker is no longer the host's");
    host.post('two');
    await next();
    assert.deepEqual(
      replies.map((r) => r.echo),
      ['one', 'two'],
    );
    assert.notEqual(replies[1]!.threadId, replies[0]!.threadId, 'answered by a new thread');
    assert.equal(lost.length, 1, "the crashed worker's exit is not a second loss");
    await host.dispose();
    assert.equal(WorkerHost.live, liveBefore);
  });

  it('a runaway is terminated at its bound: its thread exits, its timers go with it, and the next post is answered', async () => {
    const { host, replies, lost, next } = echoHost();
    host.post('warm');
    await next();
    const started = performance.now();
    host.post('spin');
    host.after(300, () => host.lose('ran past 300 ms'));
    let later = false;
    host.after(60_000, () => (later = true));
    await next();
    const took = performance.now() - started;
    assert.deepEqual(lost, ['ran past 300 ms']);
    assert.ok(took >= 290 && took < 5000, `lost after ${took.toFixed(0)} ms`);
    // The spinning thread exits once terminated (no 'exit' would leave it counted).
    const deadline = performance.now() + 5000;
    while (WorkerHost.live > liveBefore && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(WorkerHost.live, liveBefore, 'the runaway thread exited');
    host.post('after');
    await next();
    assert.equal(replies.at(-1)!.echo, 'after');
    assert.equal(later, false);
    await host.dispose();
  });

  it('dispose terminates the worker, resolves once its thread exited, and refuses posts afterwards', async () => {
    const spinning = echoHost().host;
    spinning.post('spin'); // a worker that never yields still ends
    const others = [echoHost(), echoHost(), echoHost()];
    for (const o of others) o.host.post('x');
    await Promise.all(others.map((o) => o.next()));
    assert.equal(WorkerHost.live, liveBefore + 4);
    await Promise.all([spinning, ...others.map((o) => o.host)].map((h) => h.dispose()));
    assert.equal(WorkerHost.live, liveBefore, 'no thread left');
    assert.throws(() => spinning.post('x'), /disposed/);
    await spinning.dispose(); // idempotent
  });
});
