/**
 * The worker thread of a {@link MirrorEmulator}: a headless xterm.js (`@xterm/headless`, the
 * emulator of VS Code's terminal) with its serialize addon, reading everything a session prints so
 * the panel mirror can skip ahead to its state. Parsing runs here, not on the extension host thread:
 * output whose parsing grows with its parameters (insert or delete 10⁶ lines, 20 000 times) keeps
 * only this thread busy. Bundled on its own as `dist/mirrorEmulatorWorker.js`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { emulatorTail } from './emulatorTail';
import type { EmulatorReply, EmulatorRequest, EmulatorSetup } from './mirrorEmulatorProtocol';
import { Emulator, initialText, skipAheadText } from './skipAhead';
import { lowerThisThreadPriority } from '../common/backgroundThread';

const port = parentPort;
if (!port) throw new Error('mirrorEmulatorWorker runs only as a worker thread');
const post = (reply: EmulatorReply) => port.postMessage(reply);
// The emulator catches up when it can: the extension host thread runs first.
lowerThisThreadPriority();

/** An emulator of `setup`'s size that has read `setup.tail` (through a PanelFilter of its own, at most a budget of it: emulatorTail.ts). */
function emulatorOf(setup: EmulatorSetup): Emulator {
  const term = new Terminal({ cols: setup.cols, rows: setup.rows, scrollback: setup.scrollback, allowProposedApi: true, logLevel: 'off' });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  if (setup.tail) term.write(emulatorTail(setup.tail, setup.cols, setup.rows));
  return { term, serializer };
}

let emulator = emulatorOf(workerData as EmulatorSetup);
/** Most UTF-16 units given to xterm.js at once (a dropped emulator parses at most that much more). */
const WRITE_BATCH_UNITS = 256 * 1024;
/**
 * Requests waiting for the emulator, in the order posted. xterm.js is given one batch of writes at
 * a time (the next once it parsed the last), so what waits stays here, where a reset drops it: an
 * emulator that is disposed goes on parsing what it was already given.
 */
let waiting: Array<Exclude<EmulatorRequest, { type: 'reset' }>> = [];
/** True while the emulator parses a write. */
let parsing = false;

/**
 * What `current` calls back once it parsed what it was given: unless it was dropped since, the
 * reply `answer` makes is posted and the next waiting request is handed over.
 */
function whenParsed(current: Emulator, answer: () => EmulatorReply): () => void {
  return () => {
    if (emulator !== current) return; // a dropped emulator answers nothing
    parsing = false;
    post(answer());
    pump();
  };
}

/** Hands the emulator what waits, in order, until a write is being parsed. */
function pump(): void {
  while (!parsing && waiting.length > 0) {
    const m = waiting.shift()!;
    const current = emulator;
    switch (m.type) {
      case 'write': {
        // The writes that follow it too, up to WRITE_BATCH_UNITS: each write xterm.js is given
        // while idle waits for a timer.
        let text = m.text;
        let cost = m.cost;
        for (let next = waiting[0]; next?.type === 'write' && text.length + next.text.length <= WRITE_BATCH_UNITS; next = waiting[0]) {
          text += next.text;
          cost += next.cost;
          waiting.shift();
        }
        parsing = true;
        current.term.write(text, whenParsed(current, () => ({ type: 'parsed', cost, generation: m.generation })));
        break;
      }
      case 'resize':
        current.term.resize(m.cols, m.rows);
        break;
      case 'snapshot':
        // After what the emulator was given when it was made (the tail) is parsed too.
        parsing = true;
        current.term.write(
          '',
          whenParsed(current, () => ({ type: 'snapshot', id: m.id, text: m.kind === 'initial' ? initialText(current, m.newestLines) : skipAheadText(current, m.skipped, m.newestLines) })),
        );
        break;
    }
  }
}

port.on('message', (m: EmulatorRequest) => {
  if (m.type === 'reset') {
    waiting = [];
    parsing = false;
    emulator.term.dispose();
    emulator = emulatorOf(m.setup);
  } else waiting.push(m);
  pump();
});
