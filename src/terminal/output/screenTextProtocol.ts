/**
 * The messages between a {@link ScreenTextThread} (on the extension host thread) and its worker
 * thread (`screenTextWorker.ts`), which renders terminal output as model text (screenText.ts).
 * Each request is answered once, by its id, in the order the requests were posted.
 */
import type { RenderOptions, Rendered, RenderedScreen } from './screenText';

/** From the host thread to the worker: render `raw` with an emulator of `cols` × `rows` cells. */
export type ScreenTextRequest =
  /** TextRenderer.render: the normal buffer's lines (and the alternate screen when active at the end). */
  | { type: 'render'; id: number; cols: number; rows: number; raw: string; options: RenderOptions }
  /** TextRenderer.screen: what the screen shows at the end. */
  | { type: 'screen'; id: number; cols: number; rows: number; raw: string; startInAlternate: boolean };

/** From the worker to the host thread: the request's result, or why the renderer threw. */
export type ScreenTextReply = { id: number; rendered: Rendered | RenderedScreen } | { id: number; error: string };
