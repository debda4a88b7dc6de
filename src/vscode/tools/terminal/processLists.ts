/**
 * What the terminal tools say of a session's processes and ports, bounded: a session's programs
 * choose how many sockets and processes they have, and a tool result must stay small. Plain Node,
 * no `vscode` import.
 */
import type { CloseOutcome } from '../../../terminal/service';
import type { ListeningSocket, ProcessesReport, SessionProcess } from '../../../terminal/types';

/** Listening sockets a tool result names, at most; `moreListening` counts the rest. */
export const MAX_LISTED_SOCKETS = 20;
/** Processes a tool result names, at most; `moreProcesses` (or `moreEnded`, `moreKept`) counts the rest. */
export const MAX_LISTED_PROCESSES = 50;

/** `list` cut to `max` items, with how many were left out under `moreKey` (absent when none). */
function capped<T>(list: readonly T[], max: number, key: string, moreKey: string): Record<string, unknown> {
  const out: Record<string, unknown> = { [key]: list.slice(0, max) };
  if (list.length > max) out[moreKey] = list.length - max;
  return out;
}

/** The `listening` fields of a send, run or wait result (none when nothing listens). */
export function listeningFields(listening: readonly ListeningSocket[] | undefined): Record<string, unknown> {
  return listening?.length ? capped(listening, MAX_LISTED_SOCKETS, 'listening', 'moreListening') : {};
}

/** The fields `dsh_terminal_list` gives a session for its processes: ports and background processes, or why they are not known. */
export function processFields(report: ProcessesReport): Record<string, unknown> {
  if (!report.available) return { listening: `not available: ${report.reason}` };
  return {
    ...capped(report.listening, MAX_LISTED_SOCKETS, 'listening', 'moreListening'),
    ...capped(report.processes, MAX_LISTED_PROCESSES, 'backgroundProcesses', 'moreProcesses'),
    ...(report.complete ? {} : { processesComplete: false }),
  };
}

/** The fields of `dsh_terminal_close`'s result for what the close ended and kept. */
export function closeFields(outcome: CloseOutcome): Record<string, unknown> {
  const strip = (p: SessionProcess) => ({ pid: p.pid, command: p.command, ...(p.detached ? { detached: true } : {}) });
  return {
    ...(outcome.ended ? capped(outcome.ended.map(strip), MAX_LISTED_PROCESSES, 'ended', 'moreEnded') : {}),
    ...(outcome.kept?.length ? capped(outcome.kept.map(strip), MAX_LISTED_PROCESSES, 'kept', 'moreKept') : {}),
    ...(outcome.keepRefused ? { keepRefused: outcome.keepRefused } : {}),
  };
}
