/**
 * The public shapes of a session's command record (commandHistory.ts keeps it): one entry per
 * command line the shell ran, as the controlled prompt's markers (markers.ts) delimit it. Plain
 * data, no `vscode` import.
 */

/**
 * Who typed a command: `agent` (a send through the tools or the extension API), `dsh_run` (the
 * dsh_run tool), `user` (the person, in the panel terminal, after Take Over).
 */
export type CommandOrigin = 'agent' | 'dsh_run' | 'user';

/**
 * Where a command stands:
 * - `running`: no prompt has followed it yet;
 * - `finished`: the shell prompted again; `exitCode` is `$?`;
 * - `interrupted`: it ended with `$?` = 128 + the number of a signal this session delivered while
 *   it ran (dsh_terminal_signal, a cancelled send, or Ctrl-C / Ctrl-\ / Ctrl-Z typed to the
 *   terminal); `signal` names it (bash: "the value of the command is 128+n" for a command killed
 *   by signal n, bash(1) EXIT STATUS);
 * - `stopped`: a signal stopped it (Ctrl-Z / SIGTSTP, `kill -STOP`, SIGTTIN, SIGTTOU) and the shell
 *   prompted again with the job stopped: it has not ended and has no `exitCode`; `signal` names the
 *   stop. `fg` continues it as a command of its own, whose record ends with the job's status.
 *   Told from an exit status of 128 + a stop signal's number by a stopped process of the shell
 *   (Linux /proc); where that cannot be read, the command counts as `finished`;
 * - `session_exited`: the shell exited before it prompted again (`exit`, `exec`, killed).
 */
export type CommandState = 'running' | 'finished' | 'interrupted' | 'stopped' | 'session_exited';

/**
 * Where a command's output lies in the scrollback. Lines are counted in the scrollback's absolute
 * numbers (0-based since the session opened: `firstLineNumber` of dsh_terminal_read) and, for a
 * read now, back from the newest line (`offset`, as dsh_terminal_read counts). The output starts
 * on the line after the echoed command line; when it does not end with a newline, its last line
 * also holds the next prompt.
 */
export interface CommandOutput {
  /** Absolute number of the first output line still retained. */
  firstLineNumber: number;
  /** Output lines still retained (0 when none was printed, or all were evicted). */
  lineCount: number;
  /**
   * Lines back from the newest line to just after the output's last line, now: a read with this
   * `offset` and `count: lineCount` returns the retained output (or read with `command`).
   */
  offset: number;
  /** UTF-8 bytes of the whole output as the scrollback stored it (one byte per line end). */
  bytes: number;
  /** The retained scrollback no longer holds all of the output (its oldest part was evicted). */
  truncated: boolean;
  /** With `truncated`: the output's lines and UTF-8 bytes that are gone. */
  droppedLines?: number;
  droppedBytes?: number;
}

/** One command of a session, as the history tool and `command:` reads return it. */
export interface CommandRecord {
  /** 1-based, in the order the session's shell started them; never reused. */
  index: number;
  /**
   * The command line as typed (several lines for a multi-line paste or a heredoc), at most
   * MAX_COMMAND_CHARS (commandLine.ts) characters.
   */
  command: string;
  /** The command line was longer and is cut. */
  commandTruncated?: true;
  typedBy: CommandOrigin;
  /** Who let an agent's command run without asking or by asking (`rule "git status"`, `you`), when the sender said. */
  approvedBy?: string;
  /** When the shell started it (ISO 8601, UTC). */
  startedAt: string;
  /** Wall time from start to the prompt after it, in ms; so far, while running. */
  durationMs: number;
  state: CommandState;
  /** `$?` when the shell prompted again (finished or interrupted; not when stopped). */
  exitCode?: number;
  /** With `interrupted`: the signal, e.g. `SIGINT`; with `stopped`: the stop signal, e.g. `SIGTSTP`. */
  signal?: string;
  /** The shell's working directory when it started, and when it ended; absent where unknown (no /proc). */
  cwdStart?: string;
  cwdEnd?: string;
  output: CommandOutput;
}

/** A page request of the command record: newest first. */
export interface HistoryRequest {
  /** Matching commands to skip from the newest. Default 0. */
  offset?: number;
  /** Commands wanted; default 20, at most MAX_HISTORY_PAGE (commandHistory.ts). */
  count?: number;
  /** Only commands that finished with an exit code other than 0 (interrupted ones included). */
  failed?: boolean;
  /** Only commands whose command line contains this text (case-sensitive). */
  contains?: string;
}

/** A page of the command record. */
export interface HistoryPage {
  /** Matching commands, newest first. */
  commands: CommandRecord[];
  /** Matching commands in the record (all pages). */
  matching: number;
  /** Commands kept in the record (the newest `dsh.terminal.historySize`). */
  recorded: number;
  /** Commands the session ran in all (the newest index); older ones than the record holds are forgotten. */
  total: number;
  /** Pass as `offset` for the next older page; absent on the last page. */
  nextOffset?: number;
}

/**
 * A boundary of a session's command record, delivered in order with the session's output
 * (`BackendSession.onCommand`): everything the terminal printed before it was delivered to output
 * listeners before it, and nothing after it.
 * - `prompt`: the shell printed its prompt (PS1); its text (`$ `) comes with the output that
 *   follows it. `ended` is the command this prompt ends, when one ran (a prompt after an empty line,
 *   Ctrl-C at the prompt or a syntax error ends none).
 * - `start`: the shell starts running `record` (PS0): the command line has been echoed and its
 *   output follows.
 */
export type CommandEvent = { kind: 'prompt'; ended?: CommandRecord } | { kind: 'start'; record: CommandRecord };
