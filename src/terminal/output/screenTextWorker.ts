/**
 * The worker thread of a {@link ScreenTextThread}: renders terminal output as model text
 * (screenText.ts's TextRenderer, a headless xterm.js) off the extension host thread, one request
 * at a time, in the order posted. A renderer keeps no state between renders but its size, so one
 * is kept per terminal size (the most recently used few). Bundled on its own as
 * `dist/screenTextWorker.js`.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../common/errorMessage';
import { TextRenderer } from './screenText';
import type { ScreenTextReply, ScreenTextRequest } from './screenTextProtocol';

/** Renderers kept (sizes in use at once: sessions rarely differ in size). */
const KEPT_RENDERERS = 4;

const port = parentPort;
if (!port) throw new Error('screenTextWorker runs only as a worker thread');
/** Renderers by `cols×rows`, least recently used first. */
const renderers = new Map<string, TextRenderer>();

function renderer(cols: number, rows: number): TextRenderer {
  const key = `${cols}x${rows}`;
  const known = renderers.get(key);
  if (known) {
    renderers.delete(key);
    renderers.set(key, known);
    return known;
  }
  const created = new TextRenderer(cols, rows);
  renderers.set(key, created);
  for (const [oldest, r] of renderers) {
    if (renderers.size <= KEPT_RENDERERS) break;
    renderers.delete(oldest);
    r.dispose();
  }
  return created;
}

port.on('message', (m: ScreenTextRequest) => {
  let reply: ScreenTextReply;
  try {
    const r = renderer(m.cols, m.rows);
    reply = { id: m.id, rendered: m.type === 'render' ? r.render(m.raw, m.options) : r.screen(m.raw, m.startInAlternate) };
  } catch (error) {
    reply = { id: m.id, error: errorMessage(error) };
  }
  port.postMessage(reply);
});
