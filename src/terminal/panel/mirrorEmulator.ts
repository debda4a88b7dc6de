/**
 * The panel mirror's terminal emulator, run in a worker thread (`mirrorEmulatorWorker.ts`): it
 * reads everything a session prints, so the mirror can give a person's terminal the emulator's
 * state when it skipped output (see pacedMirror.ts). The extension host thread only posts output to
 * it and receives snapshot texts; the parsing, whose work can grow with what a program prints
 * (20 000 line insertions and deletions parse for seconds), never runs there.
 *
 * Lifetime: one worker per emulator (common/workerHost.ts), started by the constructor,
 * unreferenced (it never keeps a Node process alive) and terminated by `dispose()`; `reset()` starts the emulator over in the same
 * worker (starting a worker holds the calling thread: up to 190 ms measured in a busy extension
 * host). A worker that fails (an uncaught error, out of memory, exited) calls `onLost` once and
 * `lost` turns true; snapshots not answered then never resolve, and later calls do nothing.
 */
import { WorkerHost } from '../../common/workerHost';
import type { EmulatorReply, EmulatorRequest, EmulatorSetup } from './mirrorEmulatorProtocol';

/** Heap limit of one emulator's worker, in MB: a worker over it is lost, not the extension host. */
const WORKER_HEAP_MB = 256;
/**
 * Writes are gathered and posted to the worker as one message once they reach GATHER_UNITS UTF-16
 * units or GATHER_MS after the first: a flood arrives in PTY reads of about 4 KiB, and each message
 * costs both threads a fixed amount (25 000 messages for 100 MB took 460 ms to post, 3 000 took
 * 80). Kept well below 128 KiB: a string that long goes to V8's large-object space and costs about
 * 50 times as much to make. The emulator is only read by snapshots, which post what was gathered
 * first; `backlog` counts a write when it is written.
 */
const GATHER_UNITS = 32 * 1024;
const GATHER_MS = 10;

export class MirrorEmulator {
  private readonly host: WorkerHost<EmulatorRequest, EmulatorReply>;
  private readonly pending = new Map<number, (text: string) => void>();
  private nextId = 1;
  private gone = false;
  /** Resets so far: a `parsed` reply of an earlier generation no longer counts in `backlog`. */
  private generation = 0;
  /** Estimated cost (see PanelFilter) written and not parsed yet. */
  backlog = 0;
  /** UTF-16 units of plain text the current emulator dropped without parsing them (heldLines.ts), as its worker last said. */
  unparsed = 0;
  /** Writes not posted yet (see GATHER_UNITS), their units, cost, and whether the first came from the ground state. */
  private gathered: string[] = [];
  private gatheredUnits = 0;
  private gatheredCost = 0;
  private gatheredFromGround = false;
  private postSoon: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param entry absolute path of the worker's script (`dist/mirrorEmulatorWorker.js` in the extension)
   * @param setup the emulator's size, scrollback (lines) and the output it reads first
   * @param onLost called once if the worker fails or exits before `dispose()`, with why
   */
  constructor(
    entry: string,
    setup: EmulatorSetup,
    private readonly onLost: (error: Error) => void,
  ) {
    this.host = new WorkerHost({
      name: "panel mirror's emulator",
      entry,
      workerData: setup,
      heapMb: WORKER_HEAP_MB,
      onMessage: (m) => {
        if (m.type === 'snapshot') {
          const resolve = this.pending.get(m.id);
          this.pending.delete(m.id);
          resolve?.(m.text);
        } else if (m.generation === this.generation) {
          this.backlog -= m.cost;
          this.unparsed = m.dropped;
        }
      },
      // Not restarted: the emulator's state went with the worker (the mirror starts a new emulator).
      onLost: (why) => this.lose(why),
    });
    this.host.start();
  }

  /**
   * Output already through the PanelFilter, with its estimated cost; parsed in order. `fromGround`:
   * the filter was in its ground state before it (PanelFilter `ground`); default false. Posted to
   * the worker with the writes that follow it within GATHER_MS (see there).
   */
  write(text: string, cost: number, fromGround = false): void {
    if (this.gone || text.length === 0) return;
    this.backlog += cost;
    if (this.gathered.length === 0) this.gatheredFromGround = fromGround;
    this.gathered.push(text);
    this.gatheredUnits += text.length;
    this.gatheredCost += cost;
    if (this.gatheredUnits >= GATHER_UNITS) this.postGathered();
    else this.postSoon ??= setTimeout(() => this.postGathered(), GATHER_MS);
  }

  /**
   * Starts over in the same worker: a new emulator of `setup`'s size reads `setup.tail`; what the
   * old one had not parsed is dropped, `backlog` is 0, and pending snapshots never resolve.
   */
  reset(setup: EmulatorSetup): void {
    if (this.gone) return;
    this.dropGathered();
    this.generation++;
    this.backlog = 0;
    this.unparsed = 0;
    this.pending.clear();
    this.post({ type: 'reset', setup, generation: this.generation });
  }

  /** True once the worker failed or the emulator was disposed: it answers nothing any more. */
  get lost(): boolean {
    return this.gone;
  }

  /** The emulator's new size in cells (reflowing as xterm.js does), after what was written so far. */
  resize(cols: number, rows: number): void {
    this.postGathered();
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
      this.postGathered();
      const id = this.nextId++;
      this.pending.set(id, resolve);
      this.post({ type: 'snapshot', id, kind, skipped, newestLines });
    });
  }

  /** Terminates the worker (resolves once its thread exited); pending snapshots never resolve. Idempotent. */
  async dispose(): Promise<void> {
    this.dropGathered();
    this.gone = true;
    this.pending.clear();
    await this.host.dispose();
  }

  /** Posts the writes gathered so far as one. */
  private postGathered(): void {
    if (this.gathered.length === 0) return;
    const text = this.gathered.length === 1 ? this.gathered[0]! : this.gathered.join('');
    const request: EmulatorRequest = {
      type: 'write',
      text,
      cost: this.gatheredCost,
      generation: this.generation,
      fromGround: this.gatheredFromGround,
    };
    this.dropGathered();
    this.post(request);
  }

  private dropGathered(): void {
    clearTimeout(this.postSoon);
    this.postSoon = undefined;
    this.gathered = [];
    this.gatheredUnits = 0;
    this.gatheredCost = 0;
  }

  private post(request: EmulatorRequest): void {
    if (!this.gone) this.host.post(request);
  }

  private lose(why: string): void {
    if (this.gone) return;
    this.dropGathered();
    this.gone = true;
    this.pending.clear();
    this.onLost(new Error(`the panel mirror's emulator thread ${why}`));
  }
}
