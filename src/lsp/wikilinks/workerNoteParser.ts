/**
 * The note parser of the extension: notes are parsed in one worker thread (node:worker_threads),
 * so a note of any size never blocks the calling thread (the extension host's) for longer than it
 * takes to copy one piece of a parse (plain Node, no `vscode` import). A note named by its file
 * (`parseFile`) is read there too: indexing 10 000 notes made 100 000 file-system calls (real
 * path, stat, open, read, close, each twice for some) on the calling thread, several seconds of it.
 *
 * Lifetime: the parser owns its worker. The worker starts on the first parse, is stopped after
 * `idleMs` without work (and started again when needed), and is terminated by `dispose()`. It
 * never keeps a Node process alive while idle. Parses run one at a time, in call order.
 *
 * Failures reject the parse they hit, never hang it: a worker that crashes (an uncaught error, out
 * of memory, exited) or a parse that takes longer than `timeoutMs` rejects that parse with an Error
 * saying so (the worker is replaced for the next parse); `dispose()` rejects every parse not done.
 */
import { ResourceLimits, Worker } from 'node:worker_threads';
import type { Disposable } from '../../common/disposable';
import { NoteFile, NoteParseOptions, NoteParser, NoteReadError, NoteSource } from './noteParser';
import type { ParsedNote } from './parsedNote';
import { PieceSink, WorkerReply, WorkerRequest } from './notePieces';

/** Options of a {@link WorkerNoteParser}. */
export interface WorkerNoteParserOptions {
  /** Absolute path of the worker's script: the bundle of `noteParseWorker.ts` (`dist/noteParseWorker.js` in the extension). */
  readonly entry: string;
  /** Longest one parse may take, from when the worker gets the note to its last piece, in ms. Default 60 000. */
  readonly timeoutMs?: number;
  /** The worker is stopped after this long without a parse, in ms. Default 30 000. */
  readonly idleMs?: number;
  /** The worker's heap limits. Default `{maxOldGenerationSizeMb: 1024}`: a worker over it fails (its parse with it), not the process. */
  readonly resourceLimits?: ResourceLimits;
}

interface Job {
  readonly id: number;
  /** The note's text or bytes, or the file the worker reads it from. */
  readonly what: { readonly text: NoteSource } | { readonly file: NoteFile };
  readonly options: NoteParseOptions;
  readonly resolve: (p: ParsedNote) => void;
  readonly reject: (e: Error) => void;
  sink?: PieceSink;
  timer?: NodeJS.Timeout;
}

/**
 * Bytes at least this long (64 KiB) are transferred to the worker, not copied. Node's shared pool
 * of small Buffers holds only Buffers under 4 KiB, so bytes this long own their buffer unless the
 * caller made them a view on a bigger one.
 */
export const TRANSFER_MIN_BYTES = 64 * 1024;

/** The buffer to transfer with `source` (see {@link TRANSFER_MIN_BYTES}), or none (copied). */
function transferable(source: NoteSource): ArrayBuffer[] {
  if (typeof source === 'string' || source.byteLength < TRANSFER_MIN_BYTES || source.byteOffset !== 0) return [];
  return source.buffer instanceof ArrayBuffer ? [source.buffer] : [];
}

/** Parses notes in a worker thread (see the module comment). */
export class WorkerNoteParser implements NoteParser, Disposable {
  private worker: Worker | undefined;
  /** Resolves when {@link worker} said it is ready. */
  private ready: Promise<void> | undefined;
  private readonly queue: Job[] = [];
  private current: Job | undefined;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly timeoutMs: number;
  private readonly idleMs: number;

  constructor(private readonly options: WorkerNoteParserOptions) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.idleMs = options.idleMs ?? 30_000;
  }

  /**
   * Bytes of at least {@link TRANSFER_MIN_BYTES} that start their buffer (a file just read) are
   * handed to the worker, not copied: their buffer is detached (`byteLength` 0) once the parse
   * starts, as `NoteParser.parse` allows. Copying an 8 MiB note into the worker held the calling
   * thread 170-350 ms; handing the buffer over takes under 1 ms. Strings and smaller bytes are copied.
   * @throws Error when the worker failed or timed out on this note, or the parser is disposed.
   */
  parse(text: NoteSource, options: NoteParseOptions): Promise<ParsedNote> {
    return this.enqueue({ text }, options);
  }

  /**
   * Reads `file` in the worker thread (`readNoteFile`) and parses it there: the calling thread only
   * hands over the path and takes the parse back.
   * @throws NoteReadError when the file could not be read; Error when the worker failed or timed
   *   out on this note, or the parser is disposed.
   */
  parseFile(file: NoteFile, options: NoteParseOptions): Promise<ParsedNote> {
    return this.enqueue({ file }, options);
  }

  private enqueue(what: Job['what'], options: NoteParseOptions): Promise<ParsedNote> {
    if (this.disposed) return Promise.reject(new Error('the note parser is disposed'));
    return new Promise<ParsedNote>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, what, options, resolve, reject });
      this.pump();
    });
  }

  /** Whether a worker thread is running now (for tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Terminate the worker; every parse not done rejects. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const error = new Error('the note parser was disposed');
    if (this.current) this.fail(this.current, error);
    for (const job of this.queue.splice(0)) job.reject(error);
    this.stopWorker();
  }

  private pump(): void {
    if (this.disposed || this.current || this.queue.length === 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const job = this.queue.shift()!;
    this.current = job;
    const worker = this.startWorker();
    worker.ref(); // a parse in progress keeps the process alive until it settles
    this.ready!.then(
      () => {
        if (this.current !== job || this.worker !== worker) return;
        job.timer = setTimeout(() => {
          this.stopWorker();
          this.fail(job, new Error(`parsing the note took longer than ${this.timeoutMs} ms: the note parser's worker thread was stopped`));
        }, this.timeoutMs);
        job.sink = new PieceSink();
        this.post(worker, { type: 'parse', id: job.id, ...job.what, options: job.options });
      },
      (e: Error) => {
        if (this.current === job) this.fail(job, e);
      },
    );
  }

  private startWorker(): Worker {
    if (this.worker) return this.worker;
    let markReady!: () => void;
    let markFailed!: (e: Error) => void;
    this.ready = new Promise<void>((res, rej) => ((markReady = res), (markFailed = rej)));
    this.ready.catch(() => undefined);
    const worker = new Worker(this.options.entry, { resourceLimits: this.options.resourceLimits ?? { maxOldGenerationSizeMb: 1024 } });
    this.worker = worker;
    worker.on('message', (m: WorkerReply) => {
      if (this.worker !== worker) return;
      if (m.type === 'ready') markReady();
      else this.onReply(worker, m);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const e = new Error(`the note parser's worker thread ${why}`);
      markFailed(e);
      if (this.current) this.fail(this.current, e);
    };
    worker.on('error', (e) => lost(`failed: ${e.message}`));
    worker.on('exit', (code) => lost(`exited (code ${code})`));
    return worker;
  }

  private onReply(worker: Worker, m: Exclude<WorkerReply, { type: 'ready' }>): void {
    const job = this.current;
    if (!job || job.id !== m.id || !job.sink) return;
    if (m.type === 'fail') {
      this.fail(job, m.read ? new NoteReadError(m.message, m.read.code) : new Error(`the note parser failed: ${m.message}`));
      return;
    }
    job.sink.add(m);
    if (!m.done) {
      // The next piece after the event loop had its turn: each piece is one bounded copy.
      setImmediate(() => {
        if (this.current === job && this.worker === worker) this.post(worker, { type: 'more', id: job.id });
      });
      return;
    }
    let parsed: ParsedNote;
    try {
      parsed = job.sink.result();
    } catch (e) {
      this.fail(job, e as Error);
      return;
    }
    this.finish(job);
    job.resolve(parsed);
  }

  private post(worker: Worker, m: WorkerRequest): void {
    worker.postMessage(m, m.type === 'parse' && 'text' in m ? transferable(m.text) : []);
  }

  private fail(job: Job, e: Error): void {
    this.finish(job);
    job.reject(e);
  }

  /** `job` is over: the next one starts, or the worker idles (unreferenced, stopped after `idleMs`). */
  private finish(job: Job): void {
    if (job.timer) clearTimeout(job.timer);
    if (this.current === job) this.current = undefined;
    if (this.queue.length > 0) {
      this.pump();
      return;
    }
    if (this.disposed) return;
    this.worker?.unref();
    if (this.worker) {
      this.idleTimer = setTimeout(() => this.stopWorker(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private stopWorker(): void {
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (w) void w.terminate();
  }
}
