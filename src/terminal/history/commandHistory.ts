/**
 * A session's command record: every command line the shell ran, delimited by the controlled
 * prompt's markers (markers.ts). A command starts at the first `S` (PS0) after a prompt and ends
 * at the next `P` (PS1), whose `$?` is its exit status; the `S` of further commands of the same
 * line (a multi-line paste runs each of its lines, with no prompt between them) belongs to the same
 * record, so one record is one answer of the shell: what a send's `exitCode` describes. A line the
 * shell refused to parse (a syntax error) never starts and is not recorded.
 *
 * The output range is kept as absolute scrollback coordinates (scrollback.ts, ScrollbackPosition),
 * so it stays exact however much is printed after it, and says how much of it was evicted. Memory
 * is bounded independently of output: at most `size` records, each with a command line of at most
 * MAX_COMMAND_CHARS characters, and an echo buffer of at most MAX_ECHO_CHARS while a line is typed.
 * The record is fed on the PTY's hot path: every hook is O(1) or O(length of the text it is given).
 */
import * as os from 'node:os';
import { quoteInput } from '../../common/quoteInput';
import { checkInteger } from '../../common/integerInput';
import { CommandEvent, CommandOrigin, CommandRecord, CommandState, HistoryPage, HistoryRequest } from './commandRecord';
import { boundCommand, echoedCommandLine } from './commandLine';
import { invalidArgument, TerminalError } from '../errors';
import { CONTINUATION_TEXT, type MarkerEvent } from '../readiness/markers';
import type { Scrollback, ScrollbackPosition } from '../output/scrollback';

/** Echo (raw terminal text between a prompt and its command's start) kept to recover a typed line. */
const MAX_ECHO_CHARS = 8 * 1024;
/** Commands in one history page by default, and at most. */
const DEFAULT_HISTORY_PAGE = 20;
export const MAX_HISTORY_PAGE = 200;
/** Control characters that make the terminal signal the foreground group (termios(3) VINTR, VQUIT, VSUSP). */
const SIGNAL_KEYS: Record<string, string> = { '\x03': 'SIGINT', '\x1c': 'SIGQUIT', '\x1a': 'SIGTSTP' };
/** Signals that stop a process (signal(7)); bash's `$?` for a job one stopped is 128 + its number. */
const STOP_SIGNALS = ['SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU'] as const;

/** The stop signal whose number is `status` - 128 on this system, or undefined. */
export function stopSignalOf(status: number): string | undefined {
  return STOP_SIGNALS.find((s) => os.constants.signals[s] === status - 128);
}

/** A command as kept; the public CommandRecord is made from it and the scrollback's position. */
interface Entry {
  index: number;
  command: string;
  /** `command` redacted by the redactor, once asked. */
  redacted?: string;
  commandTruncated: boolean;
  typedBy: CommandOrigin;
  /** Who let it run (SendRequest.approvedBy), for a command an agent typed. */
  approvedBy?: string;
  startedAt: number;
  endedAt?: number;
  state: CommandState;
  exitCode?: number;
  signal?: string;
  cwdStart?: string;
  cwdEnd?: string;
  startLine: number;
  startByte: number;
  /** Exclusive; set when it ended. */
  endLine?: number;
  endByte?: number;
  /** When it ended on an unfinished line: the UTF-8 bytes of that line that are its output. */
  endOpenBytes?: number;
  /** Signals delivered while it ran (names). */
  signals?: Set<string>;
}

/** What the record reads from its session. */
export interface CommandHistoryDeps {
  scrollback: Scrollback;
  /** The shell's working directory now, or undefined where it cannot be read (see BackendSession.currentCwd). */
  cwd: () => string | undefined;
  /** Commands kept (the newest), ≥ 1. */
  size: number;
  /**
   * Asked at a prompt whose `$?` is 128 + a stop signal's number: whether the command it ends
   * left a process stopped (a stopped job), which tells a stop from an exit status that equals
   * one. Undefined, or absent, where that cannot be read: the command counts as ended.
   */
  stoppedJob?: () => boolean | undefined;
  /** Clock in ms since the epoch; Date.now by default. */
  now?: () => number;
  /**
   * Redacts secrets in command lines (secrets/secretRedactor.ts): while it is `enabled`, records
   * and the `contains` filter see the line `redactLine` returns (computed once per command); the
   * line as typed stays in memory only. Absent: lines are shown as typed.
   */
  redactor?: { readonly enabled: boolean; redactLine(line: string): string };
}

/** Where the record stood when a send began; see {@link CommandHistory.since}. */
export interface CommandMark {
  next: number;
  running?: number;
}

export class CommandHistory {
  private readonly entries: Entry[] = [];
  private nextIndex = 1;
  private running: Entry | undefined;
  /** The shell's directory read at the latest prompt: where the next command starts. */
  private promptCwd: string | undefined;
  /** Echo since the latest prompt, while no command runs; undefined while one runs. */
  private echo: string | undefined;
  /** Text still expected of the continuation prompt (PS2) before echo resumes. */
  private continuationLeft = '';
  /** Who wrote to the terminal last, and the text the agent pasted at a fresh prompt (exact). */
  private writer: CommandOrigin = 'agent';
  /** Who let the last input an agent wrote run (SendRequest.approvedBy). */
  private approvedBy: string | undefined;
  private pasted: string | undefined;
  private lastMarker: MarkerEvent['kind'] | undefined;
  private readonly now: () => number;
  /**
   * The stop signal (e.g. `SIGTSTP`) of the command the latest prompt ended when that command was
   * stopped, not ended (state `stopped`); undefined otherwise.
   */
  stoppedAtPrompt: string | undefined;

  constructor(private readonly deps: CommandHistoryDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Applies one marker event in PTY order (after the text before it reached the scrollback).
   * @returns the record's boundary it makes (a prompt, with the command it ended; a command's
   *   start), or undefined for a marker that is none (PS2, the prompt's text, a further PS0 of
   *   the same command line).
   */
  marker(event: Exclude<MarkerEvent, { kind: 'text' }>): CommandEvent | undefined {
    let boundary: CommandEvent | undefined;
    switch (event.kind) {
      case 'prompt': {
        const cwd = this.deps.cwd();
        const ended = this.running;
        this.stoppedAtPrompt = undefined;
        this.end(event.status, cwd);
        boundary = ended ? { kind: 'prompt', ended: this.record(ended, this.deps.scrollback.position()) } : { kind: 'prompt' };
        this.promptCwd = this.sameOr(cwd, this.promptCwd);
        this.echo = '';
        this.continuationLeft = '';
        this.pasted = undefined;
        break;
      }
      case 'start':
        if (!this.running) boundary = { kind: 'start', record: this.record(this.start(), this.deps.scrollback.position()) };
        break;
      case 'continuation':
        // More input is needed: the line is no longer one paste; its echo tells it all.
        this.pasted = undefined;
        this.continuationLeft = CONTINUATION_TEXT;
        break;
    }
    if (event.kind !== 'prompt-text') this.lastMarker = event.kind;
    return boundary;
  }

  /** Program text (markers removed) in PTY order: while a line is typed, its echo. */
  text(text: string): void {
    if (this.echo === undefined) return;
    let t = text;
    while (this.continuationLeft && t) {
      if (t[0] !== this.continuationLeft[0]) {
        this.continuationLeft = '';
        break;
      }
      this.continuationLeft = this.continuationLeft.slice(1);
      t = t.slice(1);
    }
    if (t && this.echo.length < MAX_ECHO_CHARS) this.echo += t.slice(0, MAX_ECHO_CHARS - this.echo.length);
  }

  /**
   * Bytes written to the terminal by `by`. `pasted`: the exact text of a bracketed paste typed
   * into the line editor (markers.ts), recorded as the command line when it is what the shell runs.
   * A signal key (Ctrl-C, Ctrl-\, Ctrl-Z) written while a command runs counts as that signal.
   * `approvedBy`: who let the input run, kept with the command it starts.
   */
  wrote(bytes: string, by: CommandOrigin, pasted?: string, approvedBy?: string): void {
    this.writer = by;
    this.approvedBy = approvedBy;
    this.pasted = pasted !== undefined && !this.running && this.lastMarker === 'prompt' ? pasted : undefined;
    if (!this.running) return;
    for (const [key, signal] of Object.entries(SIGNAL_KEYS)) if (bytes.includes(key)) this.signalled(signal);
  }

  /** A signal was delivered to the foreground process group. */
  signalled(signal: string): void {
    if (!this.running) return;
    (this.running.signals ??= new Set()).add(signal);
  }

  /** The shell exited: a running command ends with it. */
  sessionExited(): void {
    const entry = this.running;
    if (!entry) return;
    this.close(entry);
    entry.state = 'session_exited';
    this.running = undefined;
  }

  /** Where the record stands, for {@link since}. */
  mark(): CommandMark {
    return { next: this.nextIndex, running: this.running?.index };
  }

  /**
   * The command a send that began at `mark` belongs to: the newest one started since, else the one
   * that was running then (input to a running program, a wait); undefined when neither.
   */
  since(mark: CommandMark): number | undefined {
    const newest = this.entries[this.entries.length - 1];
    return newest && newest.index >= mark.next ? newest.index : mark.running;
  }

  /** Commands the shell ran in all (the newest index). */
  get total(): number {
    return this.nextIndex - 1;
  }

  /**
   * A page of the record, newest first, filtered.
   * @throws TerminalError INVALID_ARGUMENT for a bad offset, count, failed or contains.
   */
  page(request: HistoryRequest = {}): HistoryPage {
    const offset = checkInteger(request.offset, 'offset', { min: 0 }, invalidArgument, 0);
    const count = checkInteger(request.count, 'count', { min: 1, max: MAX_HISTORY_PAGE }, invalidArgument, DEFAULT_HISTORY_PAGE);
    if (request.failed !== undefined && typeof request.failed !== 'boolean')
      throw new TerminalError('INVALID_ARGUMENT', `failed must be true or false (got ${quoteInput(request.failed)})`);
    if (request.contains !== undefined && (typeof request.contains !== 'string' || !request.contains)) {
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `contains must be a non-empty string: text the command line contains (got ${quoteInput(request.contains)})`,
      );
    }
    const { failed, contains } = request;
    const matching = this.entries.filter(
      (e) =>
        (!failed || (e.exitCode !== undefined && e.exitCode !== 0)) && (contains === undefined || this.shownCommand(e).includes(contains)),
    );
    const position = this.deps.scrollback.position();
    const end = matching.length - offset;
    const commands = matching
      .slice(Math.max(0, end - count), Math.max(0, end))
      .reverse()
      .map((e) => this.record(e, position));
    const page: HistoryPage = { commands, matching: matching.length, recorded: this.entries.length, total: this.total };
    if (end - count > 0) page.nextOffset = offset + count;
    return page;
  }

  /**
   * The record of command `index`.
   * @throws TerminalError INVALID_ARGUMENT when it is not an integer, or not (or no longer) recorded.
   */
  get(index: number): CommandRecord {
    return this.record(this.entry(index), this.deps.scrollback.position());
  }

  /**
   * A page of command `index`'s retained output, raw (escapes kept), as `Scrollback.page` pages the
   * whole scrollback but with the command's output as the scrollback: `offset` lines back from its
   * last line, up to `count` lines, at most `maxBytes` UTF-8 bytes; `totalLines` is its retained
   * line count, `firstLineNumber` absolute (of an empty page, the record's `output.firstLineNumber`).
   * @throws TerminalError INVALID_ARGUMENT as {@link get}.
   */
  outputPage(index: number, offset: number, count: number, maxBytes: number): ReturnType<Scrollback['page']> {
    const output = this.record(this.entry(index), this.deps.scrollback.position()).output;
    const from = Math.min(offset, output.lineCount);
    const page = this.deps.scrollback.page(output.offset + from, Math.min(count, output.lineCount - from), maxBytes);
    const shown = page.lineEnd - page.lineBegin;
    // The last line ends with what followed the command on it (bytesAfterEnd): that is cut off.
    const after = from === 0 && shown > 0 ? this.bytesAfterEnd(index) : 0;
    const text = after > 0 ? withoutTailBytes(page.text, after) : page.text;
    // An empty page sits where the command's retained output starts, as its record says, even
    // once that output was evicted (the scrollback alone would number its oldest retained line).
    const firstLineNumber = shown > 0 ? page.firstLineNumber : output.firstLineNumber;
    return { ...page, text, offset: from, lineBegin: from, lineEnd: from + shown, totalLines: output.lineCount, firstLineNumber };
  }

  /** The index of the command whose output holds absolute line `line`, if any is recorded. */
  commandAt(line: number): number | undefined {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = this.entries[mid]!;
      if (line < e.startLine) hi = mid - 1;
      else if (e.endLine !== undefined && line >= e.endLine) lo = mid + 1;
      else return e.index;
    }
    return undefined;
  }

  private start(): Entry {
    const position = this.deps.scrollback.position();
    const typed = this.pasted ?? echoedCommandLine(this.echo ?? '');
    const { text, truncated } = boundCommand(typed);
    const entry: Entry = {
      index: this.nextIndex++,
      command: text,
      commandTruncated: truncated,
      typedBy: this.writer,
      ...(this.approvedBy !== undefined && this.writer !== 'user' ? { approvedBy: this.approvedBy } : {}),
      startedAt: this.now(),
      state: 'running',
      cwdStart: this.promptCwd,
      startLine: position.endLine,
      startByte: position.endByte,
    };
    this.entries.push(entry);
    if (this.entries.length > this.deps.size) this.entries.shift();
    this.running = entry;
    this.echo = undefined;
    this.pasted = undefined;
    return entry;
  }

  private end(status: number, cwd: string | undefined): void {
    const entry = this.running;
    if (!entry) return;
    this.running = undefined;
    this.close(entry);
    entry.cwdEnd = this.sameOr(cwd, entry.cwdStart);
    const signals = entry.signals ?? [];
    entry.signals = undefined;
    const stop = stopSignalOf(status);
    if (stop !== undefined && this.deps.stoppedJob?.() === true) {
      // Not ended: bash took the terminal back from a stopped job (`fg` continues it, as a command of its own).
      entry.state = 'stopped';
      entry.signal = stop;
      this.stoppedAtPrompt = stop;
      return;
    }
    entry.exitCode = status;
    entry.state = 'finished';
    for (const signal of signals) {
      if (status === 128 + (os.constants.signals[signal as keyof typeof os.constants.signals] ?? -1000)) {
        entry.state = 'interrupted';
        entry.signal = signal;
      }
    }
  }

  private close(entry: Entry): void {
    // An unfinished last line too long for one piece is split now, where later text would split
    // it: its output must not end in a piece before the line the record ends with.
    this.deps.scrollback.splitOpenLineAtPieceBound();
    const position = this.deps.scrollback.position();
    entry.endedAt = this.now();
    entry.endLine = position.endLine + (position.open ? 1 : 0);
    entry.endByte = position.endByte;
    if (position.open) entry.endOpenBytes = position.openBytes;
  }

  /**
   * UTF-8 bytes at the end of command `index`'s last output line that are not its output: where
   * its output did not end with a newline, the next prompt and what was typed at it follow on the
   * same line. 0 when there are none (or the line is no longer retained).
   * @throws TerminalError INVALID_ARGUMENT for an index the record does not hold.
   */
  bytesAfterEnd(index: number): number {
    const e = this.entry(index);
    if (e.endOpenBytes === undefined || e.endLine === undefined) return 0;
    const line = this.deps.scrollback.byteLengthOf(e.endLine - 1);
    return line === undefined ? 0 : Math.max(0, line - e.endOpenBytes);
  }

  /** `value`, as the very string `previous` when they are equal (records share one copy). */
  private sameOr(value: string | undefined, previous: string | undefined): string | undefined {
    return value === previous ? previous : value;
  }

  private entry(index: number): Entry {
    checkInteger(index, 'command', { min: 1, note: "a command index from dsh_terminal_history or a send's result" }, invalidArgument);
    const oldest = this.entries[0]?.index;
    const found = oldest === undefined ? undefined : this.entries[index - oldest];
    if (!found) {
      const held = oldest === undefined ? 'none has run yet' : `the record holds ${oldest}–${this.total}`;
      const why = index > this.total ? 'no such command' : 'it is older than the record keeps (dsh.terminal.historySize)';
      throw new TerminalError('INVALID_ARGUMENT', `command ${index}: ${why}; ${held}`);
    }
    return found;
  }

  /** Entry `e`'s command line as records show it: redacted (computed once per entry). */
  private shownCommand(e: Entry): string {
    const redactor = this.deps.redactor;
    if (!redactor?.enabled) return e.command;
    e.redacted ??= redactor.redactLine(e.command);
    return e.redacted;
  }

  private record(e: Entry, position: ScrollbackPosition): CommandRecord {
    const newestEnd = position.endLine + (position.open ? 1 : 0);
    const endLine = e.endLine ?? newestEnd;
    const endByte = e.endByte ?? position.endByte;
    const first = Math.min(Math.max(e.startLine, position.firstLine), endLine);
    const droppedLines = first - e.startLine;
    const droppedBytes = Math.max(0, Math.min(endByte, position.firstByte) - e.startByte);
    const record: CommandRecord = {
      index: e.index,
      command: this.shownCommand(e),
      typedBy: e.typedBy,
      ...(e.approvedBy !== undefined ? { approvedBy: e.approvedBy } : {}),
      startedAt: new Date(e.startedAt).toISOString(),
      durationMs: (e.endedAt ?? this.now()) - e.startedAt,
      state: e.state,
      output: {
        firstLineNumber: first,
        lineCount: endLine - first,
        offset: newestEnd - endLine,
        bytes: endByte - e.startByte,
        truncated: droppedLines > 0 || droppedBytes > 0,
      },
    };
    if (record.output.truncated) {
      record.output.droppedLines = droppedLines;
      record.output.droppedBytes = droppedBytes;
    }
    if (e.commandTruncated) record.commandTruncated = true;
    if (e.exitCode !== undefined) record.exitCode = e.exitCode;
    if (e.signal !== undefined) record.signal = e.signal;
    if (e.cwdStart !== undefined) record.cwdStart = e.cwdStart;
    if (e.cwdEnd !== undefined) record.cwdEnd = e.cwdEnd;
    return record;
  }
}

/** `text` without the last `bytes` UTF-8 bytes of its last line (the whole line at most). */
function withoutTailBytes(text: string, bytes: number): string {
  const start = text.lastIndexOf('\n') + 1;
  const line = Buffer.from(text.slice(start), 'utf8');
  return text.slice(0, start) + line.subarray(0, Math.max(0, line.length - bytes)).toString('utf8');
}
