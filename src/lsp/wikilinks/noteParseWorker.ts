/**
 * The entry of the note parser's worker thread (bundled to `dist/noteParseWorker.js`, started by
 * `WorkerNoteParser`; plain Node, no `vscode` import). It says `ready` once loaded, then answers
 * each {@link ParseRequest} by parsing the note and replying with its first piece, and each
 * {@link MoreRequest} with the next piece of the parse it holds (one parse at a time; see
 * `notePieces.ts`). A parse that throws is answered with a {@link FailReply}.
 */
import { parentPort } from 'node:worker_threads';
import { noteText } from './noteParser';
import { parseNote } from './parse';
import { FailReply, ParseRequest, PieceReply, PieceSource, WorkerRequest, MoreRequest } from './notePieces';
import { errorMessage } from '../../common/errorMessage';

const port = parentPort;
if (!port) throw new Error('noteParseWorker runs in a worker thread (node:worker_threads), not as a program');

let held: { id: number; source: PieceSource } | undefined;

port.on('message', (m: WorkerRequest) => {
  try {
    if (m.type === 'parse') {
      const r: ParseRequest = m;
      held = { id: r.id, source: new PieceSource(parseNote(noteText(r.text), r.options)) };
    }
    const more: MoreRequest | ParseRequest = m;
    if (!held || held.id !== more.id) {
      port.postMessage({ type: 'fail', id: more.id, message: `no parse ${more.id} is held (the worker holds ${held ? held.id : 'none'})` } satisfies FailReply);
      return;
    }
    const piece = held.source.next();
    if (piece.done) held = undefined;
    port.postMessage({ type: 'piece', id: more.id, ...piece } satisfies PieceReply);
  } catch (e) {
    held = undefined;
    port.postMessage({ type: 'fail', id: m.id, message: errorMessage(e) } satisfies FailReply);
  }
});
port.postMessage({ type: 'ready' });
