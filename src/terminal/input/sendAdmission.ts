/**
 * Send admission: what a send must pass before anything is typed, and the bytes it then writes.
 * A refused send types nothing and says why, what is valid, and what to do instead.
 */
import { errorMessage } from '../../common/errorMessage';
import { PATH_QUOTE_UNITS, quoteInput } from '../../common/quoteInput';
import { MAX_TIMER_MS } from '../config';
import { invalidArgument, TerminalError } from '../errors';
import { checkInteger } from '../../common/integerInput';
import { MAX_INPUT_BYTES, SendInput, keyBytes } from './input';
import { KILL_LINE_KEYS, PASTE_END, PASTE_START } from '../readiness/markers';
import type { ShellTraps } from '../readiness/shellTraps';
import { MAX_LOOK_PROCESSES } from '../../proc/processTree';
import { MAX_WAIT_READS } from '../../proc/procProbe';
import { canonicalMode, readlineSettings } from '../../proc/termios';
import { judgeLeftoverKeys, leftoverKeysError } from './promptKeys';
import {
  ALLOWED_SIGNALS,
  AllowedSignal,
  ForegroundProcess,
  InputReceiver,
  ReceiverIdentity,
  SendRequest,
  StatedPlace,
  StatedProcess,
  receiverIdentity,
} from '../types';

/** Largest input typed by one send (UTF-8 bytes), checked with the text (input.ts). */
export { MAX_INPUT_BYTES };
/** Longest line a program in canonical mode receives whole (Linux N_TTY_BUF_SIZE - 1), in bytes. */
export const MAX_CANONICAL_LINE_BYTES = 4095;

/**
 * Refuses a send or wait whose cancellation `signal` has already fired: nothing is typed, nor any
 * signal delivered; a running command goes on. Called before the call's first await and again
 * right before it starts (a send's write, a wait's start), since its abort listener (SIGINT to the
 * foreground process group) is armed only then and an abort event does not fire a second time.
 * @param kind which call it is, for the message.
 * @throws TerminalError CANCELLED naming the cancellation's reason.
 */
export function checkNotCancelled(signal: AbortSignal | undefined, kind: 'send' | 'wait' = 'send'): void {
  if (!signal?.aborted) return;
  const reason = errorMessage(signal.reason);
  if (kind === 'wait') {
    throw new TerminalError(
      'CANCELLED',
      `the wait was cancelled (${reason}) before it started: nothing was interrupted and the running command goes on; its output is in the scrollback (dsh_terminal_read), wait again if it is still wanted`,
    );
  }
  throw new TerminalError(
    'CANCELLED',
    `the send was cancelled (${reason}) before it typed anything: nothing was typed and nothing runs; send it again if it is still wanted`,
  );
}

/**
 * A send's or wait's absolute time limit (ms): `given`, or `defaultMs` (the setting, already
 * checked) when it is left out.
 * @throws TerminalError INVALID_ARGUMENT unless `given` is an integer from 1 to MAX_TIMER_MS.
 */
export function checkTimeout(given: unknown, defaultMs: number): number {
  return checkInteger(given, 'timeoutMs', { min: 1, max: MAX_TIMER_MS, note: 'in milliseconds' }, invalidArgument, defaultMs);
}

/** The refusal of a send while the shell has not read the previous input (no prompt since it was typed). */
export function inputPendingError(): TerminalError {
  return new TerminalError(
    'SESSION_BUSY',
    'session is busy: the shell has not finished reading the previous input (no prompt since it was typed), so this input was not typed ahead of it. Wait and read the output (dsh_terminal_read), or interrupt with a signal (SIGINT).',
  );
}

/** The refusal of a send while `fg` runs and nothing reads the terminal. */
export function notReadingError(fg: ForegroundProcess | undefined): TerminalError {
  return new TerminalError(
    'SESSION_BUSY',
    `session is busy: \`${fg?.command}\` (pid ${fg?.pid}) is running and not reading input, so the text was not typed into it. Wait and read the output (dsh_terminal_read), or interrupt it with a signal (SIGINT).`,
  );
}

/**
 * The refusal of a send while a command runs and nothing proves it reads: there is no /proc probe
 * (`why` 'no-probe'), or the session has more processes, threads or descriptors than one look
 * reads (`why` 'crowded', see processTree.ts MAX_LOOK_PROCESSES and procProbe.ts MAX_WAIT_READS)
 * and none of those read found one reading, or the
 * foreground group's members are outside the shell's process tree (`why` 'searching') and none
 * found so far reads.
 */
export function unprovenReaderError(why: 'no-probe' | 'crowded' | 'searching' = 'no-probe'): TerminalError {
  if (why === 'searching') {
    return new TerminalError(
      'SESSION_BUSY',
      "session is busy: a command is running whose process group has members outside the shell's process tree (below a process that left the session); they are searched for in /proc, and none found so far is reading input, so the text was not typed. Retry in a moment, read the output (dsh_terminal_read), or interrupt it with a signal (SIGINT).",
    );
  }
  if (why === 'crowded') {
    return new TerminalError(
      'SESSION_BUSY',
      `session is busy: a command is running, and the session has more processes, threads or open descriptors than one look reads (${MAX_LOOK_PROCESSES} processes, ${MAX_WAIT_READS} reads of their threads and descriptors): none of those it read is reading input, so the text was not typed. Wait and read the output (dsh_terminal_read), or interrupt it with a signal (SIGINT).`,
    );
  }
  return new TerminalError(
    'SESSION_BUSY',
    'session is busy: a command is running and, without a /proc probe, it cannot be proven to read input',
  );
}

/**
 * In canonical mode the line discipline keeps at most 4095 bytes of a line (N_TTY_BUF_SIZE 4096,
 * newline included) and silently drops the rest, so such input is refused. The terminal's mode is
 * read (stty on `ptsPath`) only when a line is that long.
 * @throws TerminalError INVALID_ARGUMENT naming the line (1-based), its size and the limit.
 */
export async function checkLineLength(input: string, ptsPath: string): Promise<void> {
  const lines = input.split('\n');
  const long = lines.findIndex((line) => Buffer.byteLength(line) > MAX_CANONICAL_LINE_BYTES);
  const longLine = lines[long]; // undefined when no line is too long (long is -1)
  if (longLine === undefined || !(await canonicalMode(ptsPath))) return;
  throw new TerminalError(
    'INVALID_ARGUMENT',
    `line ${long + 1} of the input is ${Buffer.byteLength(longLine)} bytes; a program reading the terminal line by line gets at most ${MAX_CANONICAL_LINE_BYTES} bytes of a line and the rest would be lost. Put the data in a file and let the program read the file`,
  );
}

/**
 * Whether readline reads what `typed` writes at the shell's prompt. The marker's word that line
 * editing is off (`lineEditing` false) is checked against the terminal `ptsPath`, since a command
 * can make the marker say `n`: readline reads with ICANON off, bash without it with ICANON on.
 * Keys are judged as readline's unless the terminal shows canonical mode. Text is pasted into an
 * emptied line (never run with what keys left there) only where the terminal is set as readline
 * sets it: ICANON left off by `stty -icanon` or a crashed program, with line editing really off,
 * would take the paste's escapes as typed text. The terminal's settings (stty) are read only when
 * the marker says off.
 */
export async function readlineReads(typed: SendInput, lineEditing: boolean | undefined, ptsPath: string): Promise<boolean> {
  if (lineEditing !== false) return true;
  if (typed.kind === 'keys') return !(await canonicalMode(ptsPath));
  return (await readlineSettings(ptsPath)) === true;
}

/**
 * Refuses keys for a program reading the terminal `ptsPath` when what it may leave unread would
 * run a line no confirmation shows at the shell's prompt (promptKeys.ts judgeLeftoverKeys). The
 * terminal's mode (stty) is read only when the keys would be refused for a program reading key
 * by key: one reading whole lines leaves fewer keys. Unreadable settings count as key by key.
 * @param reader names the program that reads, for the error (read only when refusing).
 * @throws TerminalError INVALID_ARGUMENT naming the reader, the keys and what they would do.
 */
export async function checkLeftoverKeys(keys: readonly string[], ptsPath: string, reader: () => string): Promise<void> {
  let leftover = judgeLeftoverKeys(keys, false);
  if (leftover && (await canonicalMode(ptsPath))) leftover = judgeLeftoverKeys(keys, true);
  if (!leftover) return;
  throw leftoverKeysError(reader(), leftover);
}

/**
 * Refuses the send when what would read it (`now`) is not the receiver the person confirmed.
 * @throws TerminalError RECEIVER_CHANGED naming both.
 */
export function checkReceiver(now: InputReceiver, expected: NonNullable<SendRequest['expectReceiver']>): void {
  const actual = receiverIdentity(now);
  if (actual.kind === expected.kind && actual.processGroup === expected.processGroup && sameStatedProcess(actual.process, expected.process))
    return;
  throw new TerminalError(
    'RECEIVER_CHANGED',
    `nothing was typed: the confirmation named ${confirmedName(expected)} as the receiver, but now ${receiverName(now)} would read the input. Read the session (dsh_terminal_read) and send again`,
  );
}

/**
 * Refuses a command typed at the shell's prompt when where it would run (`now`) is not where the
 * confirmation said (`stated`): the shell's folder changed since (a command confirmed earlier but
 * run first went elsewhere with `cd`), or its traps did (a trap may run while the command does and
 * change the folder; see `runningTraps` in markers.ts). A folder the confirmation could not read
 * is not compared. `redact` redacts the folders and traps the refusal quotes (it reaches the model).
 * @throws TerminalError RECEIVER_CHANGED naming both; nothing is typed.
 */
export function checkPlace(now: StatedPlace, stated: StatedPlace, redact: (text: string) => string): void {
  if (stated.cwd !== undefined && now.cwd !== stated.cwd) {
    throw new TerminalError(
      'RECEIVER_CHANGED',
      `nothing was typed: the confirmation said the shell is in ${folderName(stated.cwd, redact)}, but now it is in ${now.cwd === undefined ? 'a folder that cannot be read' : folderName(now.cwd, redact)}, where the command would run. Read the session (dsh_terminal_read) and send again`,
    );
  }
  if (!sameTraps(now.traps, stated.traps)) {
    throw new TerminalError(
      'RECEIVER_CHANGED',
      `nothing was typed: the confirmation showed ${trapsName(stated.traps, redact)}, but now ${trapsName(now.traps, redact)} (a trap may run while the command does and change where it runs). Read the session (dsh_terminal_read) and send again`,
    );
  }
}

function sameTraps(a: ShellTraps, b: ShellTraps): boolean {
  return a.kind === b.kind && (a.kind !== 'set' || b.kind !== 'set' || a.text === b.text);
}

/** A folder as a refusal names it; redacted before it is cut (a cut secret is not found). */
function folderName(folder: string, redact: (text: string) => string): string {
  return quoteInput(redact(folder), PATH_QUOTE_UNITS);
}

/** The traps as a refusal names them; their text redacted before it is cut (a cut secret is not found). */
function trapsName(t: ShellTraps, redact: (text: string) => string): string {
  if (t.kind === 'none') return 'no trap in the shell';
  if (t.kind === 'unknown') return 'that the shell no longer reports its traps and prompt hooks';
  return `the traps ${quoteInput(redact(t.text), 400)}`;
}

/**
 * Refuses a signal name outside {@link ALLOWED_SIGNALS}.
 * @throws TerminalError INVALID_ARGUMENT naming it and the valid ones.
 */
export function checkSignalName(signal: string): asserts signal is AllowedSignal {
  if ((ALLOWED_SIGNALS as readonly string[]).includes(signal)) return;
  throw new TerminalError('INVALID_ARGUMENT', `signal ${quoteInput(signal)} is not allowed; use one of ${ALLOWED_SIGNALS.join(', ')}`);
}

/**
 * Refuses a signal when the foreground process group it would go to (`now`'s) is not the one the
 * person confirmed: a program that ended since leaves the shell in the foreground, and SIGKILL or
 * SIGHUP meant for the program would end the shell and the session.
 * @throws TerminalError RECEIVER_CHANGED naming both; nothing is delivered.
 */
export function checkSignalReceiver(now: InputReceiver, expected: ReceiverIdentity): void {
  if (receiverIdentity(now).processGroup === expected.processGroup) return;
  throw new TerminalError(
    'RECEIVER_CHANGED',
    `nothing was delivered: the confirmation named ${confirmedName(expected)}, but now ${receiverName(now)} is in the foreground. Read the session (dsh_terminal_read) and signal again if it is still needed`,
  );
}

/** How an error names a receiver as it is now. */
function receiverName(r: InputReceiver): string {
  if (r.kind === 'exited') return 'nobody (the shell exited)';
  if (r.kind === 'program')
    return `${r.replacedShell ? 'a program that replaced the shell, ' : ''}\`${r.process.command}\` (pid ${r.process.pid}${r.process.executable ? `, running ${r.process.executable}` : ''})`;
  return `the shell at its ${r.kind === 'shell-prompt' ? 'prompt' : 'continuation prompt'}`;
}

/**
 * True when the process confirmed (`expected`, absent when the confirmation could not identify
 * it) is the process now (`actual`): the same pid, start time and executable file.
 */
function sameStatedProcess(actual: StatedProcess | undefined, expected: StatedProcess | undefined): boolean {
  if (expected === undefined) return true;
  if (actual === undefined) return false;
  return (
    actual.pid === expected.pid && actual.startTime === expected.startTime && actual.dev === expected.dev && actual.ino === expected.ino
  );
}

/** How an error names the receiver a confirmation showed (only its identity is kept). */
function confirmedName(expected: ReceiverIdentity): string {
  if (expected.kind === 'program')
    return `a program in process group ${expected.processGroup}${expected.process ? ` (pid ${expected.process.pid})` : ''}`;
  return expected.kind === 'exited' ? 'nobody' : `the shell at its ${expected.kind === 'shell-prompt' ? 'prompt' : 'continuation prompt'}`;
}

/**
 * The bytes a send writes. Keys: their sequences (cursor keys by DECCKM, `applicationCursor`).
 * Text: a newline is appended when missing; where bash's line editor reads it (`atPrompt` and
 * `lineEditing` not false), the text goes in as one bracketed paste into an emptied line, followed
 * by the newline that submits it.
 */
export function bytesToWrite(typed: SendInput, atPrompt: boolean, lineEditing: boolean | undefined, applicationCursor: boolean): string {
  if (typed.kind === 'keys') return keyBytes(typed.keys, applicationCursor);
  const text = typed.text.endsWith('\n') ? typed.text.slice(0, -1) : typed.text;
  if (atPrompt && lineEditing !== false) return `${KILL_LINE_KEYS}${PASTE_START}${text}${PASTE_END}\n`;
  return `${text}\n`;
}

/**
 * How many lines the written `bytes` submit one at a time: each CR or LF outside a bracketed
 * paste (inside one, readline takes line ends literally and only the newline after it submits).
 * More than one means the shell or a program may read them one by one, with a prompt in between.
 */
export function linesSubmitted(bytes: string): number {
  let outside = bytes;
  for (let start = outside.indexOf(PASTE_START); start >= 0; start = outside.indexOf(PASTE_START)) {
    const end = outside.indexOf(PASTE_END, start);
    outside = end < 0 ? outside.slice(0, start) : outside.slice(0, start) + outside.slice(end + PASTE_END.length);
  }
  return (outside.match(/[\r\n]/g) ?? []).length;
}
