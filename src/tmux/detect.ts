/**
 * tmux pane detection that does not trust inherited variables.
 *
 * Every process started from a tmux pane inherits `TMUX` and `TMUX_PANE`, and so does everything
 * *it* starts: VS Code's integrated terminal, an extension host launched from a pane, an agent
 * shell. The variables only say that some ancestor was in a pane. A process is in a pane only when
 * the pane named by `TMUX_PANE` exists on the server named by `TMUX` and that pane's tty is the
 * process's own controlling terminal. That is what {@link detectTmuxPane} checks.
 *
 * Plain Node: no `vscode` import.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** The process runs in a tmux pane; where it is. */
export interface TmuxPaneLocation {
  readonly inPane: true;
  /** `#{session_name}`. */
  readonly session: string;
  /** `#{window_index}`. */
  readonly windowIndex: number;
  /** `#{window_name}`. */
  readonly windowName: string;
  /** `#{pane_index}` inside its window. */
  readonly paneIndex: number;
  /** `#{pane_id}`, e.g. `%3`; equals `TMUX_PANE`. */
  readonly paneId: string;
  /** `#{pane_tty}`, e.g. `/dev/pts/4`; equals the process's controlling terminal. */
  readonly paneTty: string;
  /** `#{pane_current_command}`: the pane's foreground command when asked. */
  readonly paneCommand: string;
}

/** The process does not run in a tmux pane, with a readable reason why that was concluded. */
export interface TmuxNotInPane {
  readonly inPane: false;
  readonly reason: string;
}

/** Answer of {@link detectTmuxPane}. */
export type TmuxDetection = TmuxPaneLocation | TmuxNotInPane;

/** Options of {@link detectTmuxPane}; every field has a production default. */
export interface DetectTmuxPaneOptions {
  /** Where `TMUX` and `TMUX_PANE` are read from. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** The process whose controlling terminal must be the pane's tty. Default `process.pid`. */
  readonly pid?: number;
  /** The tmux executable, looked up on `PATH` when it has no slash. Default `'tmux'`. */
  readonly tmuxPath?: string;
  /** Limit for each external command (tmux, ps). Default {@link DEFAULT_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Decides how the controlling terminal is read: `/proc` on `linux`, `ps` elsewhere. Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /**
   * Called once for the only case worth a warning: the tmux command could not be run for an
   * unexpected reason (EACCES, EMFILE, …). A missing binary (ENOENT) is not warned about.
   */
  readonly warn?: (message: string) => void;
}

/** Default limit for each external command run during detection. */
export const DEFAULT_TIMEOUT_MS = 2000;

/**
 * Field separator of the tmux format: the ASCII unit separator. tmux prints it raw, and unlike a
 * tab (allowed in window names) or a space it does not occur in names people give.
 */
const SEP = '\x1f';

/** The fields asked from tmux, in order. */
const FIELDS = [
  'session_name',
  'window_index',
  'window_name',
  'pane_index',
  'pane_id',
  'pane_tty',
  'pane_current_command',
] as const;

const FORMAT = FIELDS.map((field) => `#{${field}}`).join(SEP);

/** Bound on what is kept of a command's stderr inside a reason. */
const MAX_REASON_DETAIL = 200;

/**
 * Decides whether process `pid` (default: this process) runs in the tmux pane that its environment
 * names, and where.
 *
 * Runs `tmux -S <socket from TMUX> display-message -p -t <TMUX_PANE> <format>` (no shell, with a
 * timeout), then compares the pane's tty with the process's controlling terminal: `/proc/<pid>/stat`
 * `tty_nr` on Linux, `ps -o tty= -p <pid>` elsewhere.
 *
 * Never rejects. Every failure resolves `{inPane: false, reason}`: no tmux binary, `TMUX` or
 * `TMUX_PANE` absent or malformed, tmux exiting non-zero (e.g. a dead server) or timing out, a pane
 * that no longer exists, an answer with the wrong number of fields, no controlling terminal, or a
 * controlling terminal that is not the pane's tty. Only a tmux command that could not be run for an
 * unexpected reason (anything but ENOENT) additionally calls `options.warn`.
 */
export async function detectTmuxPane(options: DetectTmuxPaneOptions = {}): Promise<TmuxDetection> {
  const warn = (message: string): void => {
    try {
      options.warn?.(message);
    } catch {
      // A logger that throws must not turn detection into a throwing call.
    }
  };
  try {
    return await detect(options, warn);
  } catch (error) {
    const reason = `tmux detection failed unexpectedly: ${describeError(error)}`;
    warn(reason);
    return notInPane(reason);
  }
}

async function detect(options: DetectTmuxPaneOptions, warn: (message: string) => void): Promise<TmuxDetection> {
  const env = options.env ?? process.env;
  const pid = options.pid ?? process.pid;
  const tmuxPath = options.tmuxPath ?? 'tmux';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const platform = options.platform ?? process.platform;

  const tmuxVar = env.TMUX;
  const paneVar = env.TMUX_PANE;
  if (tmuxVar === undefined || tmuxVar === '') {
    return notInPane('TMUX is not set: the process was not started from a tmux pane');
  }
  if (paneVar === undefined || paneVar === '') {
    return notInPane('TMUX_PANE is not set: no pane to check');
  }
  const socketPath = socketPathFromTmuxVar(tmuxVar);
  if (socketPath === undefined) {
    return notInPane(`TMUX names no server socket: ${JSON.stringify(clip(tmuxVar))}`);
  }
  if (!/^%\d+$/.test(paneVar)) {
    return notInPane(`TMUX_PANE is not a pane id like %3: ${JSON.stringify(clip(paneVar))}`);
  }

  const answer = await run(tmuxPath, ['-S', socketPath, 'display-message', '-p', '-t', paneVar, FORMAT], timeoutMs);
  switch (answer.kind) {
    case 'not-found':
      return notInPane(`tmux is not installed (no ${JSON.stringify(tmuxPath)} to run)`);
    case 'spawn-error': {
      const reason = `could not run ${JSON.stringify(tmuxPath)}: ${answer.message}`;
      warn(reason);
      return notInPane(reason);
    }
    case 'timeout':
      return notInPane(`tmux did not answer within ${timeoutMs} ms (server ${socketPath})`);
    case 'too-large':
      return notInPane('tmux answered with more output than a pane description can have');
    case 'failed':
      return notInPane(`tmux exited with ${answer.status}${answer.stderr ? `: ${answer.stderr}` : ''} (server ${socketPath})`);
    case 'ok':
      break;
  }

  const pane = parsePaneAnswer(answer.stdout, paneVar, socketPath);
  if (!pane.inPane) {
    return pane;
  }

  const terminal = await readControllingTerminal(pid, { platform, timeoutMs });
  if (terminal.tty === null) {
    return notInPane(`process ${pid} is not in pane ${paneVar} (${pane.paneTty}): ${terminal.reason}`);
  }
  if (normalizeTty(terminal.tty) !== normalizeTty(pane.paneTty)) {
    return notInPane(
      `process ${pid} has controlling terminal ${terminal.tty}, not the pane tty ${pane.paneTty} of ${paneVar}: ` +
        'TMUX and TMUX_PANE were inherited from a pane this process does not run in',
    );
  }
  return pane;
}

/**
 * The server socket named by a `TMUX` value (`socketpath,serverpid,sessionid`), resolved as tmux
 * itself does when neither `-S` nor `-L` is given: everything before the first comma, provided the
 * value is non-empty and does not start with a comma. `undefined` when it names no socket.
 */
export function socketPathFromTmuxVar(tmuxVar: string): string | undefined {
  if (tmuxVar === '' || tmuxVar.startsWith(',')) {
    return undefined;
  }
  const comma = tmuxVar.indexOf(',');
  return comma === -1 ? tmuxVar : tmuxVar.slice(0, comma);
}

function parsePaneAnswer(stdout: string, paneVar: string, socketPath: string): TmuxDetection {
  const line = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  const fields = line.split(SEP);
  if (fields.length !== FIELDS.length) {
    return notInPane(
      `tmux answered ${fields.length} field${fields.length === 1 ? '' : 's'} where ${FIELDS.length} were asked: ` +
        `${JSON.stringify(clip(line))}`,
    );
  }
  const [session, windowIndex, windowName, paneIndex, paneId, paneTty, paneCommand] = fields as [
    string, string, string, string, string, string, string,
  ];
  // display-message tolerates a target that does not exist: it then prints every field empty and
  // exits 0. So the pane is proven only by tmux naming it back.
  if (paneId !== paneVar) {
    return paneId === ''
      ? notInPane(`tmux has no pane ${paneVar} on server ${socketPath}: the pane was closed or TMUX_PANE is stale`)
      : notInPane(`tmux answered for pane ${JSON.stringify(clip(paneId))} when asked about ${paneVar}`);
  }
  if (!/^\d+$/.test(windowIndex) || !/^\d+$/.test(paneIndex)) {
    return notInPane(`tmux answered a malformed window or pane index: ${JSON.stringify(clip(line))}`);
  }
  if (paneTty === '') {
    return notInPane(`tmux answered no tty for pane ${paneVar}`);
  }
  return {
    inPane: true,
    session,
    windowIndex: Number(windowIndex),
    windowName,
    paneIndex: Number(paneIndex),
    paneId,
    paneTty,
    paneCommand,
  };
}

/** The controlling terminal of a process (`/dev/...`), or `null` with the reason it is unknown or absent. */
export type ControllingTerminal = { readonly tty: string } | { readonly tty: null; readonly reason: string };

/**
 * Reads the controlling terminal of process `pid`. On Linux from `/proc/<pid>/stat` field 7
 * (`tty_nr`), decoded with {@link decodeTtyNr} to `/dev/pts/N`; where `/proc` cannot be read, and on
 * every other platform, from `ps -o tty= -p <pid>` (`pts/3` → `/dev/pts/3`, `ttys003` →
 * `/dev/ttys003`). Never rejects: a process without a controlling terminal, a missing process or an
 * unreadable answer gives `{tty: null, reason}`.
 */
export async function readControllingTerminal(
  pid: number,
  options: { readonly platform?: NodeJS.Platform; readonly timeoutMs?: number } = {},
): Promise<ControllingTerminal> {
  const platform = options.platform ?? process.platform;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(pid) || pid <= 0) {
    return { tty: null, reason: `${String(pid)} is not a process id` };
  }
  let procFailure: string | undefined;
  if (platform === 'linux') {
    const statPath = `/proc/${pid}/stat`;
    let stat: string | undefined;
    try {
      stat = await readFile(statPath, 'utf8');
    } catch (error) {
      procFailure = `${statPath}: ${describeError(error)}`;
    }
    if (stat !== undefined) {
      return controllingTerminalFromProcStat(stat, pid);
    }
  }
  const ps = await readControllingTerminalWithPs(pid, timeoutMs);
  if (ps.tty === null && procFailure !== undefined) {
    return { tty: null, reason: `${procFailure}; ${ps.reason}` };
  }
  return ps;
}

function controllingTerminalFromProcStat(stat: string, pid: number): ControllingTerminal {
  // Field 2 (comm) is parenthesised and may itself contain spaces and ')': the fixed fields start
  // after the LAST ')'. They are then: state ppid pgrp session tty_nr ...
  const close = stat.lastIndexOf(')');
  const rest = close === -1 ? [] : stat.slice(close + 1).trim().split(/\s+/);
  const ttyField = rest[4];
  if (ttyField === undefined || !/^-?\d+$/.test(ttyField)) {
    return { tty: null, reason: `/proc/${pid}/stat has no readable tty_nr field` };
  }
  const ttyNr = Number(ttyField);
  if (ttyNr === 0) {
    return { tty: null, reason: `process ${pid} has no controlling terminal` };
  }
  const { major, minor } = decodeTtyNr(ttyNr);
  const path = ptsPath(major, minor);
  if (path === undefined) {
    return {
      tty: null,
      reason: `process ${pid}'s controlling terminal (device ${major}:${minor}) is not a pseudo-terminal`,
    };
  }
  return { tty: path };
}

/**
 * Splits a `tty_nr` value of `/proc/<pid>/stat` into device numbers, per the kernel's
 * `new_encode_dev`: major in bits 8–19, minor in bits 0–7 plus 20–31 (proc(5) documents bits
 * 15–8 and 31–20 + 7–0). Negative values (bit 31 set, printed signed) are taken as unsigned.
 */
export function decodeTtyNr(ttyNr: number): { major: number; minor: number } {
  const value = ttyNr >>> 0;
  return {
    major: (value >>> 8) & 0xfff,
    minor: (value & 0xff) | ((value >>> 12) & 0xfff00),
  };
}

/**
 * `/dev/pts/N` for a Unix98 pty slave device (majors 136–143, 256 minors each in the historical
 * layout; current kernels use major 136 with minors past 255), `undefined` for any other device.
 */
export function ptsPath(major: number, minor: number): string | undefined {
  if (major < 136 || major > 143) {
    return undefined;
  }
  return `/dev/pts/${(major - 136) * 256 + minor}`;
}

async function readControllingTerminalWithPs(pid: number, timeoutMs: number): Promise<ControllingTerminal> {
  const answer = await run('ps', ['-o', 'tty=', '-p', String(pid)], timeoutMs);
  if (answer.kind !== 'ok') {
    const detail =
      answer.kind === 'failed'
        ? `exited with ${answer.status}${answer.stderr ? `: ${answer.stderr}` : ' (no such process?)'}`
        : answer.kind === 'not-found'
          ? 'is not installed'
          : answer.kind === 'spawn-error'
            ? `could not be run: ${answer.message}`
            : answer.kind === 'timeout'
              ? `did not answer within ${timeoutMs} ms`
              : 'answered too much';
    return { tty: null, reason: `ps -o tty= -p ${pid} ${detail}` };
  }
  const tty = answer.stdout.trim();
  if (tty === '') {
    return { tty: null, reason: `ps knows no process ${pid}` };
  }
  if (/^\?+$/.test(tty) || tty === '-') {
    return { tty: null, reason: `process ${pid} has no controlling terminal` };
  }
  return { tty: tty.startsWith('/') ? tty : `/dev/${tty}` };
}

/** `/dev/pts/3` and `pts/3` compare equal. */
function normalizeTty(tty: string): string {
  return tty.startsWith('/dev/') ? tty.slice('/dev/'.length) : tty;
}

type RunResult =
  | { readonly kind: 'ok'; readonly stdout: string }
  | { readonly kind: 'failed'; readonly status: string; readonly stderr: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'spawn-error'; readonly message: string };

/** Runs a command without a shell; resolves how it went, never rejects. */
function run(file: string, args: readonly string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    try {
      execFile(
        file,
        args,
        { timeout: timeoutMs, maxBuffer: 64 * 1024, encoding: 'utf8', windowsHide: true, killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          if (!error) {
            resolve({ kind: 'ok', stdout });
            return;
          }
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: NodeJS.Signals | null; code?: unknown };
          if (failure.code === 'ENOENT') {
            resolve({ kind: 'not-found' });
          } else if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
            resolve({ kind: 'too-large' });
          } else if (typeof failure.code === 'number') {
            resolve({ kind: 'failed', status: `status ${failure.code}`, stderr: firstLine(stderr) });
          } else if (failure.killed) {
            resolve({ kind: 'timeout' });
          } else if (failure.signal) {
            resolve({ kind: 'failed', status: `signal ${failure.signal}`, stderr: firstLine(stderr) });
          } else {
            resolve({ kind: 'spawn-error', message: describeError(error) });
          }
        },
      );
    } catch (error) {
      // execFile throws synchronously for invalid arguments (e.g. a NUL byte in a path).
      resolve({ kind: 'spawn-error', message: describeError(error) });
    }
  });
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return clip(line.trim());
}

function clip(text: string): string {
  return text.length > MAX_REASON_DETAIL ? `${text.slice(0, MAX_REASON_DETAIL)}…` : text;
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(String(code)) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

function notInPane(reason: string): TmuxNotInPane {
  return { inPane: false, reason };
}
