/**
 * The panel mirror's terminal emulator, run in a worker thread (`mirrorEmulatorWorker.ts`): it
 * reads everything a session prints, so the mirror can give a person's terminal the emulator's
 * state when it skipped output (see pacedMirror.ts). The extension host thread only posts output to
 * it and receives snapshot texts; the parsing, whose work can grow with what a program prints
 * (20 000 line insertions and deletions parse for seconds), never runs there.
 *
 * Lifetime: one worker per emulator, started by the constructor, unreferenced (it never keeps a
 * Node process alive) and terminated by `dispose()`; `reset()` starts the emulator over in the same
 * worker (starting a worker holds the calling thread: up to 190 ms measured in a busy extension
 * host). A worker that fails (an uncaught error, out of memory, exited) calls `onLost` once and
 * `lost` turns true; snapshots not answered then never resolve, and later calls do nothing.
 */
import { Worker } from 'node:worker_threads';
import type { EmulatorReply, EmulatorRequest, EmulatorSetup } from './mirrorEmulatorProtocol';

/** Heap limit of one emulator's worker, in MB: a worker over it is lost, not the extension host. */
const WORKER_HEAP_MB = 256;

export class MirrorEmulator {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (text: string) => void>();
  private nextId = 1;
  private gone = false;
  /** Resets so far: a `parsed` reply of an earlier generation no longer counts in `backlog`. */
  private generation = 0;
  /** Estimated cost (see PanelFilter) written and not parsed yet. */
  backlog = 0;

  /**
   * @param entry absolute path of the worker's script (`dist/mirrorEmulatorWorker.js` in the extension)
   * @param setup the emulator's size, scrollback (lines) and the output it reads first
   * @param onLost called once if the worker fails or exits before `dispose()`, with why
   */
  constructor(entry: string, setup: EmulatorSetup, private readonly onLost: (error: Error) => void) {
    this.worker = new Worker(entry, { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    this.worker.on('message', (m: EmulatorReply) => {
      if (m.type === 'snapshot') {
        const resolve = this.pending.get(m.id);
        this.pending.delete(m.id);
        resolve?.(m.text);
      } else if (m.generation === this.generation) this.backlog -= m.cost;
    });
    this.worker.on('error', (e) => this.lose(`failed: ${e.message}`));
    this.worker.on('exit', (code) => this.lose(`exited (code ${code})`));
    // After the listeners: adding a 'message' listener references the worker again.
    this.worker.unref();
  }

  /** Output already through the PanelFilter, with its estimated cost; parsed in order. */
  write(text: string, cost: number): void {
    if (this.gone || text.length === 0) return;
    this.backlog += cost;
    this.post({ type: 'write', text, cost, generation: this.generation });
  }

  /**
   * Starts over in the same worker: a new emulator of `setup`'s size reads `setup.tail`; what the
   * old one had not parsed is dropped, `backlog` is 0, and pending snapshots never resolve.
   */
  reset(setup: EmulatorSetup): void {
    if (this.gone) return;
    this.generation++;
    this.backlog = 0;
    this.pending.clear();
    this.post({ type: 'reset', setup, generation: this.generation });
  }

  /** True once the worker failed or the emulator was disposed: it answers nothing any more. */
  get lost(): boolean {
    return this.gone;
  }

  /** The emulator's new size in cells (reflowing as xterm.js does), after what was written so far. */
  resize(cols: number, rows: number): void {
    this.post({ type: 'resize', cols, rows });
  }

  /**
   * The text that brings a terminal to the emulator's state once everything written so far is
   * parsed: `initial` for a blank terminal, `skipAhead` (with a notice of `skipped` UTF-8 bytes not
   * shown) for a terminal in any state; at most `newestLines` scrollback lines before the screen.
   * Never resolves if the emulator is disposed or lost first.
   */
  snapshot(kind: 'initial' | 'skipAhead', skipped: number, newestLines: number): Promise<string> {
    return new Promise((resolve) => {
      if (this.gone) return;
      const id = this.nextId++;
      this.pending.set(id, resolve);
      this.post({ type: 'snapshot', id, kind, skipped, newestLines });
    });
  }

  /** Terminates the worker; pending snapshots never resolve. Idempotent. */
  dispose(): void {
    if (this.gone) return;
    this.gone = true;
    this.pending.clear();
    void this.worker.terminate();
  }

  private post(request: EmulatorRequest): void {
    if (!this.gone) this.worker.postMessage(request);
  }

  private lose(why: string): void {
    if (this.gone) return;
    this.gone = true;
    this.pending.clear();
    this.onLost(new Error(`the panel mirror's emulator thread ${why}`));
  }
}
