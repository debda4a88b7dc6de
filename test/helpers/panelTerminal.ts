// The person's side of a panel mirror in tests: a headless xterm.js terminal (the emulator VS
// Code's terminal panel uses) that the mirror writes to, and waiting until it shows everything.
import type { Terminal } from '@xterm/headless';
import type { PacedMirror } from '../../src/terminal/panel/pacedMirror';
import { until } from './wait';

/** Resolves once xterm.js has parsed `text` (and everything written to `term` before it). */
export function written(term: Terminal, text: string): Promise<void> {
  return new Promise<void>((resolve) => term.write(text, resolve));
}

/**
 * Resolves once `mirror` has nothing left to send (idle, no frame scheduled) and `panel` has
 * parsed every frame; rejects after `timeoutMs` ms.
 */
export async function mirrorSettled(mirror: PacedMirror, panel: Terminal, timeoutMs = 30_000): Promise<void> {
  await until('the mirror to settle', () => mirror.idle && !(mirror as unknown as { timer?: unknown }).timer, timeoutMs, 10);
  await written(panel, '');
}
