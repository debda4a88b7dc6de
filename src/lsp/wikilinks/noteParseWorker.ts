/**
 * The entry of the note parser's worker thread (bundled to `dist/noteParseWorker.js`, started by
 * `WorkerNoteParser`; plain Node, no `vscode` import). It says `ready` once loaded, then answers
 * each {@link ParseRequest} by parsing the note (read from its file first, when it names one) and
 * replying with its first piece, and each {@link MoreRequest} with the next piece of the parse it
 * holds (one parse at a time; see `notePieces.ts`). A read or a parse that throws is answered with
 * a {@link FailReply}.
 */
import { MessagePort, parentPort } from 'node:worker_threads';
import { NoteReadError, noteText, readNoteFile } from './noteParser';
import { parseNote } from './parse';
import { FailReply, MoreRequest, PieceReply, PieceSource, TextParseRequest, WorkerRequest } from './notePieces';
import { errorMessage } from '../../common/errorMessage';
import { lowerThisThreadPriority } from '../../common/backgroundThread';

if (!parentPort) throw new Error('noteParseWorker runs in a worker thread (node:worker_threads), not as a program');
const port: MessagePort = parentPort;
// Indexing is background work: the extension host thread runs first.
lowerThisThreadPriority();

let held: { id: number; source: PieceSource } | undefined;

port.on('message', (m: WorkerRequest) => {
  if (m.type === 'parse' && 'file' in m) {
    // The host sends the next request only after this one's last piece or failure. This thread
    // may block: the read's system calls run here, not handed to libuv's thread pool and back.
    readNoteFile(m.file, { blocking: true }).then(
      (bytes) => answer({ type: 'parse', id: m.id, options: m.options, text: bytes }),
      (e: NoteReadError) => port.postMessage({ type: 'fail', id: m.id, message: e.message, read: { code: e.code } } satisfies FailReply),
    );
    return;
  }
  answer(m);
});

function answer(m: TextParseRequest | MoreRequest): void {
  try {
    if (m.type === 'parse') held = { id: m.id, source: new PieceSource(parseNote(noteText(m.text), m.options)) };
    if (!held || held.id !== m.id) {
      port.postMessage({
        type: 'fail',
        id: m.id,
        message: `no parse ${m.id} is held (the worker holds ${held ? held.id : 'none'})`,
      } satisfies FailReply);
      return;
    }
    const piece = held.source.next();
    if (piece.done) held = undefined;
    port.postMessage({ type: 'piece', id: m.id, ...piece } satisfies PieceReply);
  } catch (e) {
    held = undefined;
    port.postMessage({ type: 'fail', id: m.id, message: errorMessage(e) } satisfies FailReply);
  }
}
port.postMessage({ type: 'ready' });
