// File watcher events handled in time slices: the listener only records, the handler runs later in
// order, events of one file coalesce, a failing handler does not stop the rest, and a burst yields
// to the event loop while it is handled.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { FileEventKind, FileEventQueue } from '../../src/vscode/fileEventQueue';

/** The parts of a `vscode.Uri` the queue reads. */
const uri = (p: string) => ({ scheme: 'file', path: p, toString: () => `file://${p}` }) as unknown as vscode.Uri;

/** Resolves once `handled` has `n` entries. */
async function handledAll(handled: unknown[], n: number): Promise<void> {
  while (handled.length < n) await new Promise((r) => setImmediate(r));
}

describe('FileEventQueue', () => {
  it('handles nothing in the listener; then each event once, in order, the newest kind of a file at its newest place', async () => {
    const handled: string[] = [];
    const queue = new FileEventQueue((u, kind) => void handled.push(`${kind} ${u.path}`), assert.fail);
    queue.push(uri('/a.md'), 'changed');
    queue.push(uri('/b.md'), 'changed');
    queue.push(uri('/a.md'), 'deleted');
    queue.push(uri('/c.md'), 'changed');
    assert.deepEqual(handled, [], 'nothing ran in the listener');
    await handledAll(handled, 3);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(handled, ['changed /b.md', 'deleted /a.md', 'changed /c.md']);
    queue.dispose();
  });

  it('tells each handler how many events still wait after it: a burst counts down to 0, a lone event is 0', async () => {
    const handled: string[] = [];
    const queue = new FileEventQueue((u, _kind, waiting) => void handled.push(`${u.path} ${waiting}`), assert.fail);
    for (const p of ['/a', '/b', '/c']) queue.push(uri(p), 'changed');
    await handledAll(handled, 3);
    queue.push(uri('/moved-in'), 'changed');
    await handledAll(handled, 4);
    assert.deepEqual(handled, ['/a 2', '/b 1', '/c 0', '/moved-in 0']);
    queue.dispose();
  });

  it('a handler that throws or rejects is reported, and the next events are handled', async () => {
    const handled: string[] = [];
    const errors: string[] = [];
    const queue = new FileEventQueue(
      (u: vscode.Uri, kind: FileEventKind) => {
        if (u.path === '/throws') throw new Error('thrown');
        if (u.path === '/rejects') return Promise.reject(new Error('rejected'));
        handled.push(`${kind} ${u.path}`);
      },
      (u, e) => errors.push(`${u.path}: ${(e as Error).message}`),
    );
    for (const p of ['/throws', '/x', '/rejects', '/y']) queue.push(uri(p), 'changed');
    await handledAll(handled, 2);
    await handledAll(errors, 2);
    assert.deepEqual(handled, ['changed /x', 'changed /y']);
    assert.deepEqual(errors.sort(), ['/rejects: rejected', '/throws: thrown']);
    queue.dispose();
  });

  it('up to 64 handlers wait at once; events pushed while they wait are handled too', async () => {
    const started: string[] = [];
    const finish: Array<() => void> = [];
    const queue = new FileEventQueue(
      (u) =>
        new Promise<void>((resolve) => {
          started.push(u.path);
          finish.push(resolve);
        }),
      assert.fail,
    );
    for (let i = 0; i < 100; i++) queue.push(uri(`/${i}`), 'changed');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(started.length, 64, 'the 65th waits for a place');
    finish.splice(0).forEach((f) => f());
    await handledAll(started, 100);
    finish.splice(0).forEach((f) => f());
    queue.push(uri('/late'), 'changed'); // pushed while the drain waits for the last handlers
    await handledAll(started, 101);
    assert.equal(started[100], '/late');
    finish.splice(0).forEach((f) => f());
    queue.dispose();
  });

  it('a burst of 10 000 events yields to the event loop while it is handled; dispose drops what waits', async () => {
    const handled: number[] = [];
    const queue = new FileEventQueue((u) => {
      const until = performance.now() + 0.05; // 50 µs of work per event: 500 ms for the burst
      while (performance.now() < until);
      handled.push(Number(u.path.slice(1)));
    }, assert.fail);
    for (let i = 0; i < 10_000; i++) queue.push(uri(`/${i}`), 'changed');
    let seenAt: number | undefined;
    const timer = new Promise<void>((r) => setTimeout(() => ((seenAt = handled.length), r()), 20));
    await timer;
    assert.ok(seenAt !== undefined && seenAt > 0 && seenAt < 10_000, `a timer ran while the burst was handled (after ${seenAt} events)`);
    queue.dispose();
    const stoppedAt = handled.length;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(handled.length, stoppedAt, 'nothing handled after dispose');
    assert.deepEqual(handled.slice(0, 5), [0, 1, 2, 3, 4]);
  });
});
