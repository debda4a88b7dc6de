/**
 * The node-pty backend of one shell (`pty-bash`, `pty-zsh`): it spawns one interactive shell per
 * session on its own PTY, with the session's environment (sessionEnv.ts) and private startup folder
 * (sessionStartup.ts), started on the controlled startup files its shell dialect writes
 * (shellDialect.ts), and hands back a session (ptySession.ts) once the shell reached its first
 * prompt. How a send decides to return is in readiness/readiness.ts.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IPty } from 'node-pty';
import { TerminalConfig } from '../config';
import { TerminalBackendCleanupError, TerminalError } from '../errors';
import type { PtyModule } from './nodePty';
import * as proc from '../../proc/procProbe';
import { PtyShellSession } from './ptySession';
import { ScreenTextThread } from '../output/screenTextThread';
import { MatchPool } from '../output/matchPool';
import { SESSION_MARK_VARIABLE, newSessionMark, sessionEnv } from './sessionEnv';
import { SecretRedactor } from '../secrets/secretRedactor';
import { createStartupDir } from './sessionStartup';
import { type ShellDialect, drivenShell, shellExecutable } from './shellDialect';
import type { SandboxPolicy } from '../sandbox/policy';
import type { SandboxPolicyUse } from '../sandbox/policySource';
import type { SandboxRuntime, SandboxedShell } from '../sandbox/runtime';
import type { BackendSession, SpawnSpec, TerminalBackend } from '../types';
import { errorMessage } from '../../common/errorMessage';
import type { Log } from '../../common/log';

export { CLOSE_MAX_MS } from './sessionTeardown';

/** Options of {@link PtyShellBackend}. */
export interface PtyBackendOptions {
  /**
   * Use the Linux /proc probe (foreground group, blocked reads, session members by start time).
   * Default: where available. `false` runs the portable path (ps(1) on the session's terminal), as
   * on macOS, so that path is tested on Linux too.
   */
  probe?: boolean;
  /**
   * The agent sandbox: the policy in force and the runtime that starts a shell inside it. A session
   * whose policy is on starts sandboxed or not at all. `policy('spawn')` is called at each spawn;
   * `policy('check')` at every check of whether a session outside the sandbox may take input,
   * that is for each such session at every send and in every listing, so it must be cheap (no
   * settings or file system read per call: see SandboxPolicySource, sandbox/policySource.ts).
   */
  sandbox?: { runtime: SandboxRuntime; policy: (use: SandboxPolicyUse) => SandboxPolicy };
  /**
   * Absolute path of the model-text renderer's worker script (the bundle of screenTextWorker.ts).
   * Default: `screenTextWorker.js` beside this module (dist/ in the extension) when it exists,
   * else renders run on the caller's thread (the sources run by a test runner have no bundle).
   */
  renderWorkerEntry?: string;
  /**
   * Absolute path of the secret redaction worker's script (the bundle of redactionWorker.ts).
   * Default: `redactionWorker.js` beside this module (dist/ in the extension) when it exists, else
   * redaction runs on the caller's thread (the sources run by a test runner have no bundle).
   */
  redactionWorkerEntry?: string;
  /**
   * The one pool of scrollback searches and `until` matches (output/matchPool.ts), shared by every
   * backend and owned by whoever made it (the composition root). Default: a pool of this backend's
   * own, ended by its `dispose()`.
   */
  pool?: MatchPool;
  /**
   * Whether the session's commands stay out of the person's shell history file, read at each
   * spawn (VS Code's `chat.tools.terminal.preventShellHistory`). Default: always.
   */
  preventShellHistory?: () => boolean;
}

/**
 * The node-pty backend of the shell `dialect` describes; its type is `pty-<shell>`. `config` is
 * read at each spawn, so a reload applies to new sessions.
 */
export class PtyShellBackend implements TerminalBackend {
  readonly type: string;
  private readonly probe: boolean;
  private readonly sandbox: PtyBackendOptions['sandbox'];
  private readonly preventShellHistory: () => boolean;
  private protectionLogged = false;
  /** Renders the model text of every session of this backend (screenTextThread.ts). */
  private readonly renderThread: ScreenTextThread;
  /** Redacts secrets in what every session of this backend gives an agent (secretRedactor.ts). */
  private readonly redactor: SecretRedactor;
  /** The searches and `until` matches of every session (matchPool.ts). */
  private readonly pool: MatchPool;
  /** The pool was made here (no `options.pool`): `dispose()` ends it. */
  private readonly ownPool: boolean;

  constructor(
    private readonly dialect: ShellDialect,
    private readonly pty: PtyModule,
    private readonly config: () => TerminalConfig,
    private readonly log: Log,
    options: PtyBackendOptions = {},
  ) {
    this.type = `pty-${dialect.name}`;
    this.probe = options.probe ?? proc.probeAvailable();
    this.sandbox = options.sandbox;
    this.preventShellHistory = options.preventShellHistory ?? (() => true);
    const bundled = path.join(__dirname, 'screenTextWorker.js');
    this.renderThread = new ScreenTextThread(options.renderWorkerEntry ?? (fs.existsSync(bundled) ? bundled : undefined), { log });
    const redaction = path.join(__dirname, 'redactionWorker.js');
    this.redactor = new SecretRedactor(
      options.redactionWorkerEntry ?? (fs.existsSync(redaction) ? redaction : undefined),
      () => ({ enabled: this.config().redactSecrets, patterns: this.config().secretPatterns }),
      log,
    );
    this.ownPool = options.pool === undefined;
    this.pool = options.pool ?? new MatchPool();
  }

  /**
   * Ends the worker threads of this backend (the renderer's, the redaction's, and the pool's when
   * it made it) and resolves once they exited; the sessions are the service's to close first.
   * Renders and redactions asked afterwards fall back or are withheld as when a worker is lost.
   */
  async dispose(): Promise<void> {
    await Promise.all([this.renderThread.dispose(), this.redactor.dispose(), this.ownPool ? this.pool.dispose() : undefined]);
  }

  async spawn(spec: SpawnSpec, signal?: AbortSignal): Promise<BackendSession> {
    const config = this.config();
    if (spec.cwd !== undefined && !isDirectory(spec.cwd)) {
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `cwd ${JSON.stringify(spec.cwd)} is not an existing directory; give an absolute path to a folder, or omit cwd`,
      );
    }
    signal?.throwIfAborted();
    // Before the startup folder is made: a policy that cannot be computed leaves nothing behind.
    const policy = this.sandbox?.policy('spawn');
    const nonce = randomBytes(8).toString('hex');
    const startup = createStartupDir(this.dialect.rcName);
    const mark = newSessionMark();
    const cwd = spec.cwd ?? os.homedir();
    if (spec.shellPath !== undefined && drivenShell(spec.shellPath) !== this.dialect.name) {
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `shellPath ${JSON.stringify(spec.shellPath)} is not ${this.dialect.name}; the ${this.type} backend starts ${this.dialect.name} only`,
      );
    }
    const shell = spec.shellPath ?? shellExecutable(this.dialect.name, config.shell);
    let prepared: { args: string[]; env: Record<string, string> };
    const baseEnv = sessionEnv(config.env, spec.env);
    try {
      prepared = this.dialect.prepare(
        nonce,
        startup.rcFile,
        {
          progressFile: startup.progressFile,
          privateTmuxTmpdir: startup.tmuxTmpdir,
          userTmuxTmpdir: baseEnv.TMUX_TMPDIR,
          ...(spec.exactCwd && spec.cwd !== undefined ? { startFolder: spec.cwd } : {}),
          ...(this.preventShellHistory() ? {} : { keepHistoryFile: true }),
        },
        baseEnv,
      );
    } catch (error) {
      await startup.remove();
      throw new TerminalError('SPAWN_FAILED', `could not write the session's startup files: ${errorMessage(error)}`);
    }
    const env = { ...baseEnv, ...prepared.env };
    const shellArgs = prepared.args;
    let launch = { file: shell, args: shellArgs };
    let sandboxed: SandboxedShell | undefined;
    // A confirmed grant starts the shell outside the sandbox, where the policy in force now allows it.
    const outside = policy?.on === true && spec.outsideSandbox === true;
    if (outside) {
      if (!policy.unsandboxed.allowed) {
        await startup.remove();
        throw new TerminalError(
          'SANDBOX_REQUIRED',
          `a session outside the agent sandbox is not allowed: ${policy.unsandboxed.why}. No session was started; open one in the sandbox (omit sandbox: false)`,
        );
      }
      this.log.warn(`session outside the agent sandbox (${policy.reason}), confirmed by the person: ${policy.unsandboxed.why}`);
    } else if (policy?.on) {
      try {
        // The sandbox's programs are looked up on the PATH the settings give, never one an opener asked for.
        sandboxed = await this.sandbox!.runtime.wrapShell(
          policy,
          [shell, ...shellArgs],
          [startup.dir],
          sessionEnv(config.env).PATH,
          signal,
        );
      } catch (error) {
        await startup.remove();
        throw error;
      }
      launch = sandboxed;
      this.log.info(
        `sandboxed session (${policy.reason}): network ${JSON.stringify(sandboxed.summary.network)}, ${sandboxed.summary.writableRoots.length} writable roots`,
      );
    }
    let term: IPty;
    try {
      term = this.pty.spawn(launch.file, launch.args, {
        name: 'xterm-256color',
        cols: spec.cols ?? 120,
        rows: spec.rows ?? 30,
        cwd,
        // While the startup files run, tmux gets a private socket folder (see markers.ts).
        // The session's mark last: neither a setting nor the opener can change what finds its processes.
        env: { ...env, TMUX_TMPDIR: startup.tmuxTmpdir, [SESSION_MARK_VARIABLE]: mark },
      });
    } catch (error) {
      await startup.remove();
      sandboxed?.release();
      throw new TerminalError(
        'SPAWN_FAILED',
        `could not start ${shell}: ${errorMessage(error)}; check the dsh.terminal.shell setting (bash or zsh, a path or a name on PATH)`,
      );
    }
    this.logProtection(term);
    // The redaction worker loads its rules while the shell starts, not when the first send ends.
    this.redactor.warm();
    const session = new PtyShellSession(
      term,
      nonce,
      cwd,
      config,
      this.log,
      this.probe,
      startup,
      sandboxed,
      this.renderThread,
      this.redactor,
      `${SESSION_MARK_VARIABLE}=${mark}`,
      { name: this.dialect.name, executable: shell, args: shellArgs },
      this.pool.forOwner(spec.poolKey ?? {}),
    );
    session.outsideApproved = outside;
    if (!sandboxed) session.inputRefusal = () => this.outsideRefusal(outside);
    try {
      await session.firstPrompt(config.openTimeoutMs, signal);
      return session;
    } catch (error) {
      try {
        await session.close(`spawn failed: ${errorMessage(error)}`);
      } catch (cleanupError) {
        throw new TerminalBackendCleanupError(signal?.aborted ? signal.reason : error, cleanupError);
      }
      throw error;
    } finally {
      startup.removeRc();
    }
  }

  /**
   * Why a session that runs outside the agent sandbox may not take input now: the policy in force
   * now has the sandbox on, and the session was not approved outside it (it opened while the
   * sandbox was off) or the policy no longer allows sessions outside it. Undefined when it may.
   * @param approved the session was started outside on a confirmed grant (SpawnSpec.outsideSandbox).
   * @returns TerminalError SANDBOX_REQUIRED saying why and what to do, or undefined.
   */
  private outsideRefusal(approved: boolean): TerminalError | undefined {
    const policy = this.sandbox?.policy('check');
    if (!policy?.on) return undefined;
    if (approved && policy.unsandboxed.allowed) return undefined;
    const why = approved
      ? `it was approved outside the agent sandbox, and the settings no longer allow a session outside it (${policy.unsandboxed.why})`
      : `it was opened while the agent sandbox was off, and the sandbox is on now (${policy.reason})`;
    return new TerminalError(
      'SANDBOX_REQUIRED',
      `this session runs outside the agent sandbox: ${why}. Nothing was typed. Reading its output and signals still work; close this session (dsh_terminal_close) and open a new one, which starts inside the sandbox`,
    );
  }

  /**
   * Logs once which protection keeps a session's PTY master from other processes: node-pty
   * setting close-on-exec on it (the packaged, patched node-pty; verified in /proc/self/fdinfo on
   * Linux), or only the session rc and the language server watchdog closing inherited descriptors
   * (an unpatched node-pty, such as VS Code's own).
   */
  private logProtection(term: IPty): void {
    if (this.protectionLogged) return;
    this.protectionLogged = true;
    const fd = (term as unknown as { fd?: number }).fd;
    const cloexec = typeof fd === 'number' ? proc.closeOnExec(fd) : undefined;
    const always = 'each session closes inherited descriptors before its startup files, and language servers start without them';
    if (cloexec === true) this.log.info(`PTY masters are close-on-exec (node-pty sets FD_CLOEXEC); also ${always}`);
    else if (cloexec === false) {
      this.log.warn(
        `this node-pty leaves PTY masters inheritable: ${always}, but other processes the extension host starts can inherit a session's PTY master`,
      );
    } else this.log.info(`close-on-exec of PTY masters cannot be checked here (no /proc); ${always}`);
  }
}

/** True when `p` is an absolute path of an existing directory. */
function isDirectory(p: string): boolean {
  try {
    return path.isAbsolute(p) && fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
