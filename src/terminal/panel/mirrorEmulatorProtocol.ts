/**
 * The messages between a {@link MirrorEmulator} (on the extension host thread) and its worker
 * thread (`mirrorEmulatorWorker.ts`), which runs the panel mirror's headless terminal emulator.
 * Messages arrive in the order they were posted, so a snapshot describes the state after every
 * write posted before it.
 */

/** The worker's `workerData`: the emulator's size and what it reads first. */
export interface EmulatorSetup {
  /** Size in character cells. */
  cols: number;
  rows: number;
  /** Lines of scrollback the emulator keeps (the most a snapshot writes before the screen). */
  scrollback: number;
  /** The session's newest output as printed (escapes included), read first through a new PanelFilter, its newest part within a cost budget (emulatorTail.ts); '' for none. */
  tail: string;
  /**
   * The nonce of the command marks' sentinels in the output (commandMarks.ts), when the mirror has
   * them: the emulator keeps a mark on the line each sentinel names and writes a sentinel there
   * again where a snapshot redraws that line.
   */
  markNonce?: string;
}

/** From the host thread to the worker. */
export type EmulatorRequest =
  /**
   * Output already through the host's PanelFilter; `cost` is its estimated cost, given back in
   * `parsed` with the `generation` (the number of resets before it) it was written in.
   * `fromGround`: the filter was in its ground state before this text (PanelFilter `ground`), so
   * plain text in it may be held back from the emulator (heldLines.ts).
   */
  | { type: 'write'; text: string; cost: number; generation: number; fromGround: boolean }
  /**
   * A new emulator in the same thread, as the worker's `workerData` describes one: the old one is
   * dropped with everything it had not parsed yet; `generation` counts the resets so far.
   */
  | { type: 'reset'; setup: EmulatorSetup; generation: number }
  | { type: 'resize'; cols: number; rows: number }
  /**
   * The text that brings a terminal to the emulator's state once everything before it is parsed:
   * `initial` for a blank terminal (skipAhead.ts `initialText`), `skipAhead` for a terminal in any
   * state with a notice of `skipped` UTF-8 bytes not shown (`skipAheadText`).
   */
  | { type: 'snapshot'; id: number; kind: 'initial' | 'skipAhead'; skipped: number; newestLines: number };

/** From the worker to the host thread. */
export type EmulatorReply =
  /**
   * Writes were parsed (or held: heldLines.ts), a batch of them at once; `cost` is the sum of
   * theirs, `generation` the one they were posted with; `dropped` counts the UTF-16 units of plain
   * text the emulator left unparsed so far.
   */
  { type: 'parsed'; cost: number; generation: number; dropped: number } | { type: 'snapshot'; id: number; text: string };
