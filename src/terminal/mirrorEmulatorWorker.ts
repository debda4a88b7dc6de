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
import { PanelFilter } from './escapeScan';
import type { EmulatorReply, EmulatorRequest, EmulatorSetup } from './mirrorEmulatorProtocol';
import { Emulator, initialText, skipAheadText } from './skipAhead';

const port = parentPort;
if (!port) throw new Error('mirrorEmulatorWorker runs only as a worker thread');
const setup = workerData as EmulatorSetup;
const term = new Terminal({ cols: setup.cols, rows: setup.rows, scrollback: setup.scrollback, allowProposedApi: true, logLevel: 'off' });
const serializer = new SerializeAddon();
term.loadAddon(serializer);
const emulator: Emulator = { term, serializer };
const post = (reply: EmulatorReply) => port.postMessage(reply);

if (setup.tail) term.write(new PanelFilter(setup.cols, setup.rows).push(setup.tail));

port.on('message', (m: EmulatorRequest) => {
  switch (m.type) {
    case 'write':
      term.write(m.text, () => post({ type: 'parsed', cost: m.cost }));
      break;
    case 'resize':
      term.resize(m.cols, m.rows);
      break;
    case 'snapshot':
      term.write('', () => {
        const text = m.kind === 'initial' ? initialText(emulator, m.newestLines) : skipAheadText(emulator, m.skipped, m.newestLines);
        post({ type: 'snapshot', id: m.id, text });
      });
      break;
  }
});
