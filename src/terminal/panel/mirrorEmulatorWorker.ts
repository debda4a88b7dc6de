/**
 * The worker thread of a {@link MirrorEmulator}: a headless xterm.js (`@xterm/headless`, the
 * emulator of VS Code's terminal) with its serialize addon, reading everything a session prints so
 * the panel mirror can skip ahead to its state. Parsing runs here, not on the extension host thread:
 * output whose parsing grows with its parameters (insert or delete 10⁶ lines, 20 000 times) keeps
 * only this thread busy. Of a long run of plain text it parses only the newest rows, which decide
 * its state (heldLines.ts): a flood of ordinary output costs little CPU beside the window that
 * draws it. Bundled on its own as `dist/mirrorEmulatorWorker.js`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { IMarker, Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { emulatorTail } from './emulatorTail';
import { HeldLines, isPlainText, mayHoldIn } from './heldLines';
import type { EmulatorReply, EmulatorRequest, EmulatorSetup } from './mirrorEmulatorProtocol';
import { Emulator, LineMarks, initialText, skipAheadText } from './skipAhead';
import { markSentinel, markSentinelRows } from './commandMarks';
import { lowerThisThreadPriority } from '../../common/backgroundThread';

const port = parentPort;
if (!port) throw new Error('mirrorEmulatorWorker runs only as a worker thread');
const post = (reply: EmulatorReply) => port.postMessage(reply);
// The emulator catches up when it can: the extension host thread runs first.
lowerThisThreadPriority();

/** An emulator of `setup`'s size (the tail it reads first is given by {@link start}). */
function emulatorOf(setup: EmulatorSetup): Emulator {
  const term = new Terminal({ cols: setup.cols, rows: setup.rows, scrollback: setup.scrollback, allowProposedApi: true, logLevel: 'off' });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  return { term, serializer };
}

let emulator: Emulator;
/** Most marks kept: more than a snapshot's lines can hold (a mark per line at most). */
const MARKS_KEPT = 1024;
/** The command marks the emulator read (xterm.js disposes one whose line leaves its scrollback). */
let marks: IMarker[] = [];
/** The marks' sentinel nonce, when the output carries marks. */
let markNonce: string | undefined;
/** Plain text not given to the emulator yet, of which only the newest part is kept (heldLines.ts). */
let held: HeldLines;
/**
 * Most UTF-16 units of writes given to xterm.js at once (a dropped emulator parses at most that
 * much more, plus held text given back: at most MAX_HELD_UNITS), below 128 KiB of two-byte units:
 * a string that long goes to V8's large-object space and costs about 50 times as much to make.
 */
const WRITE_BATCH_UNITS = 60 * 1024;
/**
 * Requests waiting for the emulator, in the order posted. xterm.js is given one batch of writes at
 * a time (the next once it parsed the last), so what waits stays here, where a reset drops it: an
 * emulator that is disposed goes on parsing what it was already given.
 */
let waiting: Array<Exclude<EmulatorRequest, { type: 'reset' }>> = [];
/** True while the emulator parses a write. */
let parsing = false;

/**
 * Gives `current` `text` to parse; once it did (unless it was dropped since), the reply `answer`
 * makes, if any, is posted and the next waiting request is handed over.
 */
function parse(current: Emulator, text: string, answer?: () => EmulatorReply): void {
  parsing = true;
  current.term.write(text, () => {
    if (emulator !== current) return; // a dropped emulator answers nothing
    parsing = false;
    if (answer) post(answer());
    pump();
  });
}

/** A new emulator of `setup`'s size, which reads `setup.tail` first (through a PanelFilter of its own, at most a budget of it: emulatorTail.ts). */
function start(setup: EmulatorSetup): void {
  emulator = emulatorOf(setup);
  marks = [];
  markNonce = setup.markNonce;
  const term = emulator.term;
  if (markNonce !== undefined) {
    // A command mark's sentinel (commandMarks.ts): a mark `rows` above the cursor, on the normal
    // buffer. Any other OSC 8 goes on to xterm.js's own hyperlink handler.
    const nonce = markNonce;
    term.parser.registerOscHandler(8, (data) => {
      const rows = markSentinelRows(data, nonce);
      if (rows === undefined) return false;
      if (term.buffer.active.type === 'normal' && rows <= term.buffer.active.baseY + term.buffer.active.cursorY) {
        const marker = term.registerMarker(-rows);
        if (marker) marks.push(marker);
        // Marks whose lines left the scrollback are dropped now and then, not only at a snapshot.
        if (marks.length > 2 * MARKS_KEPT) marks = marks.filter((m) => !m.isDisposed && m.line >= 0).slice(-MARKS_KEPT);
      }
      return true;
    });
  }
  // The size xterm.js took (it makes a terminal at least 2 columns wide), not the one asked for.
  held = new HeldLines({ cols: emulator.term.cols, rows: emulator.term.rows, scrollback: setup.scrollback });
  const tail = setup.tail ? emulatorTail(setup.tail, setup.cols, setup.rows) : '';
  if (tail) parse(emulator, tail);
}

/** The lines of the marks still in the emulator's buffer, ascending, each once, with the sentinel a snapshot writes there; undefined without marks. */
function markedLines(): LineMarks | undefined {
  marks = marks.filter((m) => !m.isDisposed && m.line >= 0);
  if (markNonce === undefined || marks.length === 0) return undefined;
  const lines = [...new Set(marks.map((m) => m.line))].sort((a, b) => a - b);
  return { lines, text: markSentinel(markNonce, 0) };
}

/** Hands the emulator what waits, in order, until a write is being parsed. */
function pump(): void {
  while (!parsing && waiting.length > 0) {
    const m = waiting[0]!;
    const current = emulator;
    if (m.type !== 'write' && held.size > 0) {
      // A resize or a snapshot reads the emulator's state: what was held is parsed first.
      parse(current, held.take());
      break;
    }
    waiting.shift();
    switch (m.type) {
      case 'write': {
        // The writes that follow it too, up to WRITE_BATCH_UNITS: each write xterm.js is given
        // while idle waits for a timer. Plain text from the ground state is held instead where the
        // emulator allows it; the batch ends before it, so the emulator has parsed all before it.
        let text = '';
        let cost = 0;
        for (let next: (typeof waiting)[number] | undefined = m; next?.type === 'write'; next = waiting[0]) {
          const plain = next.fromGround && isPlainText(next.text);
          if (next !== m) {
            if (text.length > 0 && (plain || text.length + next.text.length > WRITE_BATCH_UNITS)) break;
            waiting.shift();
          }
          cost += next.cost;
          if (plain && text.length === 0 && mayHoldIn(current.term)) text = held.hold(next.text);
          else text += held.take() + next.text;
        }
        const parsed = (): EmulatorReply => ({ type: 'parsed', cost, generation: m.generation, dropped: held.dropped });
        if (text.length === 0) post(parsed());
        else parse(current, text, parsed);
        break;
      }
      case 'resize':
        current.term.resize(m.cols, m.rows);
        held.resize({ cols: current.term.cols, rows: current.term.rows, scrollback: current.term.options.scrollback ?? 0 });
        break;
      case 'snapshot': {
        // Everything before it is parsed (the tail a new emulator reads first included).
        const kept = markedLines();
        post({
          type: 'snapshot',
          id: m.id,
          text: m.kind === 'initial' ? initialText(current, m.newestLines, kept) : skipAheadText(current, m.skipped, m.newestLines, kept),
        });
        break;
      }
    }
  }
}

port.on('message', (m: EmulatorRequest) => {
  if (m.type === 'reset') {
    waiting = [];
    parsing = false;
    emulator.term.dispose();
    start(m.setup);
  } else waiting.push(m);
  pump();
});

start(workerData as EmulatorSetup);
