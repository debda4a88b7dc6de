/**
 * Spawning a language server that cannot outlive its host (plain Node).
 *
 * The server runs under a tiny `/bin/sh` watchdog in a process group of its own (`detached`: a new
 * session). The watchdog holds the read end of a parent-death pipe (fd 3) whose other end only the
 * host holds. When that pipe closes, because the host stopped it or because the host died (even by
 * SIGKILL: the kernel closes a dead process's descriptors), the watchdog sends SIGTERM to the whole
 * process group, waits `graceSeconds` and sends SIGKILL. The server's own children (tsserver, a
 * linter) are in the same group and go with it unless they start their own session.
 *
 * Before anything else the watchdog closes every descriptor it inherited above fd 3 (the host's
 * own are close-on-exec, but a PTY master opened by an unpatched node-pty is not, and the server
 * must not hold another terminal session). That needs a shell that takes multi-digit descriptor
 * numbers in a redirection: bash when it is on PATH; a plain POSIX `sh` such as dash cannot, and
 * then only descriptors 4 to 9 are closed.
 *
 * When the watchdog exits while its group still has members (the server crashed and left
 * children behind), the rest of the group gets SIGTERM and, after the grace period, SIGKILL, each
 * time only if the group is still ours (see {@link groupStillOurs}).
 *
 * On Windows there is no `/bin/sh` and no process groups: the server is spawned directly and only
 * an orderly stop ends it.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { withoutHostPrivateEnv } from '../../common/hostPrivateEnv';
import { groupStillHeld, procAvailable, scanSessionProcesses } from '../../proc/sessions';
import { readStat } from '../../proc/stat';

/**
 * The watchdog script. `$1..` is the server command line. A background subshell ignores SIGTERM,
 * blocks reading fd 3 until EOF, then signals the group (0 = the watchdog's own group): TERM, a
 * grace period, KILL. The server runs in the foreground with the watchdog's stdio; the watchdog
 * exits with the server's status and takes the reader with it.
 */
const WATCHDOG = [
  'if [ -d "/proc/$$/fd" ]; then d="/proc/$$/fd/"; else d=/dev/fd/; fi',
  'for f in "$d"*; do f=${f##*/}; case $f in 0|1|2|3|*[!0-9]*) ;; *) eval "exec $f>&-" 2>/dev/null ;; esac; done',
  'unset d f',
  'g="$DSH_WATCHDOG_GRACE"; unset DSH_WATCHDOG_GRACE',
  '{ trap "" TERM; read -r _ <&3; kill -TERM 0 2>/dev/null; sleep "$g"; kill -KILL 0 2>/dev/null; } </dev/null >/dev/null 2>&1 &',
  'w=$!',
  'exec 3<&-',
  '"$@"',
  'c=$?',
  'kill -KILL "$w" 2>/dev/null',
  'exit "$c"',
].join('\n');

/** Options of {@link spawnGuarded}. */
export interface GuardedSpawnOptions {
  /** Working directory of the server (absolute path). */
  readonly cwd: string;
  /** Environment (default `process.env`), without the extension host's private variables (common/hostPrivateEnv.ts). */
  readonly env?: NodeJS.ProcessEnv;
  /** Seconds between the watchdog's SIGTERM and SIGKILL when the host goes away. Default 2. */
  readonly graceSeconds?: number;
  /** Lines of stderr kept for error messages. Default 20. */
  readonly stderrLines?: number;
}

/** A server process under a watchdog; see the module comment. */
export interface GuardedProcess {
  /** The watchdog (or, on Windows, the server) process; its stdin/stdout are the server's. */
  readonly child: ChildProcess;
  /** Process group id of the watchdog, the server and its children (`undefined` on Windows). */
  readonly pgid: number | undefined;
  /** The last stderr lines of the server (at most `stderrLines`), oldest first. */
  stderrTail(): string[];
  /**
   * End the server and its process group: close the parent-death pipe, SIGTERM the group, SIGKILL
   * it after `graceMs` (default 2000) if the watchdog has not exited. Resolves when the watchdog
   * exited (or at once when it already had). Idempotent.
   */
  kill(graceMs?: number): Promise<void>;
  /** Resolves with `{code, signal}` when the watchdog exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Raised by {@link resolveCommand} and {@link spawnGuarded} when the program cannot be found or run. */
export class CommandNotFoundError extends Error {
  override readonly name = 'CommandNotFoundError';
  readonly code = 'ENOENT';
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Resolve `command` to an executable file: a path with a slash is taken relative to `cwd`; a bare
 * name is searched on `PATH` (from `env`).
 * @returns the absolute path.
 * @throws CommandNotFoundError naming what was searched.
 */
export function resolveCommand(command: string, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const executable = (p: string) => {
    try {
      if (!statSync(p).isFile()) return false;
      if (process.platform !== 'win32') accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes('/') || (process.platform === 'win32' && command.includes('\\'))) {
    const abs = path.resolve(cwd, command);
    if (executable(abs)) return abs;
    throw new CommandNotFoundError(command, `'${abs}' does not exist or is not an executable file`);
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const p = path.join(dir, command + ext);
      if (executable(p)) return p;
    }
  }
  throw new CommandNotFoundError(command, `'${command}' was not found on PATH (${dirs.length} folders searched)`);
}

/**
 * Spawn `command args` under the watchdog (see the module comment), with stdin/stdout as pipes for
 * the LSP stream and stderr kept as a bounded tail.
 * @throws CommandNotFoundError when the command does not resolve (checked before spawning, so a
 *   missing binary is a clear error rather than a watchdog exit status 127).
 */
export function spawnGuarded(command: string, args: readonly string[], options: GuardedSpawnOptions): GuardedProcess {
  // Like VS Code's own terminals, a server gets none of the extension host's private variables
  // (ELECTRON_RUN_AS_NODE, VSCODE_IPC_HOOK_CLI, …).
  const env = withoutHostPrivateEnv(options.env ?? process.env);
  const program = resolveCommand(command, options.cwd, env);
  const keep = options.stderrLines ?? 20;
  const windows = process.platform === 'win32';
  const child = windows
    ? spawn(program, [...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
    : spawn(watchdogShell(env), ['-c', WATCHDOG, 'dsh-lsp-watchdog', program, ...args], {
        cwd: options.cwd,
        env: { ...env, DSH_WATCHDOG_GRACE: String(options.graceSeconds ?? 2) },
        // fd 3: the parent-death pipe; the host never writes to it, only holds it open.
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        detached: true,
      });
  const pgid = windows ? undefined : child.pid;
  const lines: string[] = [];
  let partial = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    const parts = (partial + chunk).split(/\r?\n/);
    partial = parts.pop() ?? '';
    for (const l of parts) if (l.trim() !== '') lines.push(l.length > 500 ? l.slice(0, 500) + '…' : l);
    if (partial.length > 2000) {
      lines.push(partial.slice(0, 500) + '…');
      partial = '';
    }
    if (lines.length > keep) lines.splice(0, lines.length - keep);
  });
  // A broken pipe after the server died must not crash the host.
  for (const s of [child.stdin, child.stdout, child.stdio[3]]) (s as NodeJS.EventEmitter | null | undefined)?.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  let killing: Promise<void> | undefined;
  let watchdogExited = false;
  const signalGroup = async (sig: NodeJS.Signals) => {
    try {
      if (pgid === undefined) child.kill(sig);
      else if (!watchdogExited || (await groupStillOurs(pgid))) process.kill(-pgid, sig);
    } catch {
      // already gone
    }
  };
  // A server that crashed may leave children in its group: end them, as the host-death path does.
  void exited.then(async () => {
    watchdogExited = true;
    if (pgid === undefined || killing) return;
    await signalGroup('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, (options.graceSeconds ?? 2) * 1000).unref());
    if (!killing) await signalGroup('SIGKILL');
  });
  return {
    child,
    pgid,
    stderrTail: () => (partial.trim() !== '' ? [...lines, partial].slice(-keep) : [...lines]),
    exited,
    kill(graceMs = 2000) {
      killing ??= (async () => {
        (child.stdio[3] as (NodeJS.WritableStream & { destroy?: () => void }) | null | undefined)?.destroy?.();
        await signalGroup('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
        const done = await Promise.race([exited.then(() => true), late.then(() => false)]);
        clearTimeout(timer);
        // The watchdog may be gone while children linger in the group: KILL what is left, always.
        await signalGroup('SIGKILL');
        if (!done) await exited;
      })();
      return killing;
    },
  };
}

/** bash when it is on PATH (it closes descriptors of any number), else `/bin/sh`. */
function watchdogShell(env: NodeJS.ProcessEnv): string {
  try {
    return resolveCommand('bash', '/', env);
  } catch {
    return '/bin/sh';
  }
}

/**
 * True when process group `pgid`, whose leader (the watchdog) has exited and was reaped, may still
 * be signalled as ours. The watchdog leads its own session (`detached`), so the group's members
 * carry its pid as session id too. The kernel keeps a pid number reserved while any process uses it as its
 * process group id, so while members remain the number cannot name another process; once a live
 * process has that pid, the old group is gone and the number names a stranger. With /proc: true
 * when no process has pid `pgid` and some member of that session has it as its group. Without /proc: true when
 * `kill(pgid, 0)` finds no such process (ESRCH) and so the group id is not a reused pid. Never rejects.
 */
export async function groupStillOurs(pgid: number): Promise<boolean> {
  if (procAvailable()) {
    if (readStat(pgid) !== undefined) return false;
    // The scan runs off this thread and may take hundreds of ms, during which the group can end
    // and its number be taken: the pid is checked again after it, and so is one of the members
    // it found, still the same process in the group, right before the caller's signal.
    const members = (await scanSessionProcesses(pgid)).filter((p) => p.pgrp === pgid);
    return readStat(pgid) === undefined && groupStillHeld(pgid, members);
  }
  try {
    process.kill(pgid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
