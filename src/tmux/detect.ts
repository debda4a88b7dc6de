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
import { readControllingTerminal } from '../proc/controllingTerminal';
import { clip, describeError, run } from '../proc/run';

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
const FIELDS = ['session_name', 'window_index', 'window_name', 'pane_index', 'pane_id', 'pane_tty', 'pane_current_command'] as const;

const FORMAT = FIELDS.map((field) => `#{${field}}`).join(SEP);

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
    string,
    string,
    string,
    string,
    string,
    string,
    string,
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

/** `/dev/pts/3` and `pts/3` compare equal. */
function normalizeTty(tty: string): string {
  return tty.startsWith('/dev/') ? tty.slice('/dev/'.length) : tty;
}

function notInPane(reason: string): TmuxNotInPane {
  return { inPane: false, reason };
}
