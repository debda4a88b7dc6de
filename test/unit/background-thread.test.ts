// Background work runs at a lower priority than the threads a person waits on (Linux): the panel
// mirror's emulator and the note parser lower their own worker thread to nice 10 (never raising
// one already lower); the calling thread (the extension host's, here mocha's) keeps its own.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { BACKGROUND_NICE, lowerThisThreadPriority } from '../../src/common/backgroundThread';
import { NOTE_LIMITS } from '../../src/lsp/wikilinks/parse';
import { WorkerNoteParser } from '../../src/lsp/wikilinks/workerNoteParser';
import { MirrorEmulator } from '../../src/terminal/panel/mirrorEmulator';
import { mirrorEmulatorEntry, noteParseWorkerEntry, workerEntry } from '../helpers/workerEntry';

/** The nice value of each thread of this process, by thread id (proc(5): field 19 of `stat`). */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nice;
}

/** Threads that are at the background nice value now and were not before. */
const lowered = (before: Map<number, number>) =>
  [...niceByThread()].filter(([tid, n]) => n === BACKGROUND_NICE && before.get(tid) !== BACKGROUND_NICE).map(([tid]) => tid);

(process.platform === 'linux' ? describe : describe.skip)('background worker threads', () => {
  it('the panel mirror emulator’s worker runs at nice 10, the calling thread keeps its nice value', async function () {
    this.timeout(30_000);
    const before = niceByThread();
    if (before.get(process.pid)! >= BACKGROUND_NICE) this.skip(); // a worker is never raised (next test)
    const emulator = new MirrorEmulator(mirrorEmulatorEntry(), { cols: 20, rows: 4, scrollback: 10, tail: 'hi' }, () => {});
    try {
      // A snapshot is answered by the worker once it has started (and lowered itself).
      assert.match(await emulator.snapshot('initial', 0, 4), /hi/);
      assert.equal(lowered(before).length, 1, 'one new thread at nice 10');
      assert.equal(niceByThread().get(process.pid), before.get(process.pid), 'the calling thread keeps its nice value');
    } finally {
      void emulator.dispose();
    }
  });

  it('the note parser’s worker runs at nice 10', async function () {
    this.timeout(30_000);
    const before = niceByThread();
    if (before.get(process.pid)! >= BACKGROUND_NICE) this.skip(); // a worker is never raised (next test)
    const parser = new WorkerNoteParser({ entry: noteParseWorkerEntry() });
    try {
      const note = await parser.parse('# Title\n\n[[other]]\n', { aliasOrder: 'target-first', limits: NOTE_LIMITS });
      assert.equal(note.headings[0]?.text, 'Title');
      assert.equal(lowered(before).length, 1, 'one new thread at nice 10');
      assert.equal(niceByThread().get(process.pid), before.get(process.pid));
    } finally {
      parser.dispose();
    }
  });

  it('never raises a thread’s priority: in a process already at nice 15 the worker stays at 15', function () {
    this.timeout(30_000);
    // A worker of a child process started at nice 15 lowers itself and reports its nice value.
    const entry = workerEntry('src/common/backgroundThread.ts');
    const script = `
      const { Worker } = require('node:worker_threads');
      const w = new Worker(${JSON.stringify(`
        const { parentPort } = require('node:worker_threads');
        const fs = require('node:fs');
        const { lowerThisThreadPriority } = require(${JSON.stringify(entry)});
        lowerThisThreadPriority();
        const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
        parentPort.postMessage(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
      `)}, { eval: true });
      w.on('message', (n) => { console.log(n); process.exit(0); });`;
    const out = execFileSync('nice', ['-n', '15', process.execPath, '-e', script], { encoding: 'utf8' });
    assert.equal(Number(out.trim()), 15);
  });

  it('is never applied to the process’s main thread', () => {
    const before = niceByThread().get(process.pid);
    assert.equal(lowerThisThreadPriority(), undefined);
    assert.equal(niceByThread().get(process.pid), before);
  });
});
