/**
 * A configured language server's lifecycle and crash state (plain Node): started lazily under the
 * watchdog (`./watchdog.ts`, cwd = the workspace folder), initialized, restarted with
 * {@link CrashPolicy} backoff after a crash, marked failed after too many, stopped on request.
 */
import { errorMessage } from '../../common/errorMessage';
import { fileURLToPath } from 'node:url';
import { abortableSleep, raceAbort } from '../cancellation';
import { LspError } from '../types';
import { CrashPolicy, CrashPolicyOptions } from './backoff';
import { SERVERS_SETTING, StdioServerConfig } from './config';
import { crashedError, LastCrash, notReadyError, sandboxWritableError, stoppedError } from './errors';
import { initializeParams } from './initialize';
import { planLaunch, SandboxWritableLaunch } from './launchGuard';
import type { ProtocolModule } from './protocol';
import { ServerSession } from './session';
import { GuardedProcess, spawnGuarded } from './watchdog';
import type { Log } from '../../common/log';

/** The lifecycle state, for tests and the effective-configuration view. */
export type StdioServerState = 'idle' | 'starting' | 'running' | 'backoff' | 'failed' | 'stopped';

/** What the lifecycle needs besides the server's configuration. */
export interface LifecycleOptions {
  readonly protocol: ProtocolModule;
  /** Where the server runs and what `initialize` announces as root: a `file:` workspace folder URI. */
  readonly workspaceUri: string;
  readonly log: Log;
  readonly crashPolicy?: CrashPolicyOptions;
  /** Environment of the server (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Seconds between SIGTERM and SIGKILL of the watchdog when the host dies. */
  readonly graceSeconds?: number;
  /**
   * The absolute folders sandboxed commands can write while the agent sandbox is on, undefined
   * while it is off; asked at every start (restarts too). While on, a server that would run from
   * one of them is not started (`./launchGuard.ts`). Absent: the sandbox is never on.
   */
  readonly writableWhileSandboxed?: () => Promise<readonly string[] | undefined>;
}

/**
 * The server of one configuration: at most one running {@link ServerSession}. A crash (the server
 * exits while not being ended) schedules a restart after the policy's delay, on the next
 * {@link ensureRunning}; after too many crashes every call fails with `provider_failed`, quoting
 * the last stderr lines, until the configuration changes. {@link stop} is final.
 */
export class ServerLifecycle {
  private readonly policy: CrashPolicy;
  private running: ServerSession | undefined;
  private starting: Promise<ServerSession> | undefined;
  private restartAt = 0;
  private lastCrash: LastCrash | undefined;
  private _stopped = false;
  private _state: StdioServerState = 'idle';
  private _startError: string | undefined;
  /** Number of server processes started (for tests and logs). */
  starts = 0;

  constructor(
    private readonly config: StdioServerConfig,
    private readonly options: LifecycleOptions,
  ) {
    this.policy = new CrashPolicy(options.crashPolicy);
  }

  /** Current lifecycle state. */
  get state(): StdioServerState {
    return this._state;
  }

  /**
   * Why the latest start did not start the server (its message: refused while the agent sandbox is
   * on, or the program cannot be started); undefined before any start and once a start succeeds.
   */
  get startError(): string | undefined {
    return this._startError;
  }

  /** True once {@link stop} was called. */
  get stopped(): boolean {
    return this._stopped;
  }

  /** The running session, if any (for answers that need no start, e.g. diagnostics heard so far). */
  get current(): ServerSession | undefined {
    return this.running;
  }

  /**
   * The running session, starting the server when there is none: after a crash it waits out the
   * restart delay first (refusing with `not_ready` when that passes `deadline`, ms since the
   * epoch). Concurrent callers share one start.
   * @throws LspError `provider_failed` (crashed too often), `no_provider` (not ready, stopped,
   *   `start_failed`, or `sandbox_writable`: the agent sandbox is on and the server would run from a
   *   folder sandboxed commands can write), `cancelled`.
   */
  async ensureRunning(signal: AbortSignal, deadline: number): Promise<ServerSession> {
    if (this.running && !this.running.closed) return this.running;
    if (this.policy.failed) throw crashedError(this.config, this.policy, this.lastCrash);
    if (!this.starting) {
      const wait = this.restartAt - Date.now();
      if (wait > 0) {
        if (Date.now() + wait > deadline) throw notReadyError(this.config, `restarting after a crash in ${Math.ceil(wait / 1000)} s`);
        this._state = 'backoff';
        await abortableSleep(wait, signal);
        if (this.running && !this.running.closed) return this.running;
      }
      if (this._stopped) throw stoppedError(this.config);
      this.starting ??= this.start().finally(() => (this.starting = undefined));
    }
    const starting = this.starting;
    return await raceAbort(starting, signal);
  }

  /**
   * Stop the server (see {@link ServerSession.end}); later calls are refused. Resolves when the
   * server process is gone. Idempotent.
   */
  async stop(): Promise<void> {
    this._stopped = true;
    this._state = 'stopped';
    const starting = this.starting;
    const running = this.running ?? (await starting?.catch(() => undefined));
    this.running = undefined;
    if (running) await this.end(running);
  }

  private async start(): Promise<ServerSession> {
    this._state = 'starting';
    const id = this.config.id;
    const cwd = fileURLToPath(this.options.workspaceUri);
    const workspaceFolder = { uri: this.options.workspaceUri, name: cwd.split('/').pop() ?? cwd };
    let proc: GuardedProcess;
    try {
      // Asked at every start: the sandbox may have been turned on since the last one.
      const writable = await this.options.writableWhileSandboxed?.();
      const plan = planLaunch(this.config.command, this.config.args, cwd, this.options.env ?? process.env, writable);
      proc = spawnGuarded(plan.program, this.config.args, { cwd, env: plan.env, graceSeconds: this.options.graceSeconds });
    } catch (e) {
      this._state = 'idle';
      if (e instanceof SandboxWritableLaunch) {
        const refused = sandboxWritableError(this.config, e);
        this._startError = refused.message;
        this.options.log.error(`lsp '${id}': not started: ${refused.message}`);
        throw refused;
      }
      const why = errorMessage(e);
      this._startError = why;
      this.options.log.error(`lsp '${id}': cannot start: ${why}`);
      throw new LspError(
        'no_provider',
        `language server '${id}' could not start: ${why}. Fix "command" of the entry with id '${id}' in the setting ${SERVERS_SETTING} (an absolute path, or a program on PATH), or install the server.`,
        { providerId: id, reason: 'start_failed', setting: SERVERS_SETTING, command: this.config.command },
        { cause: e },
      );
    }
    this.starts++;
    const session = new ServerSession(proc, this.options.protocol, { id, workspaceFolder, log: this.options.log });
    this.options.log.info(`lsp '${id}': started ${this.config.command} ${this.config.args.join(' ')} (pid ${proc.child.pid})`);
    void proc.exited.then(({ code, signal }) => this.exited(session, code, signal));

    try {
      const result = await Promise.race([
        session.connection.sendRequest(
          this.options.protocol.InitializeRequest.type,
          initializeParams(workspaceFolder, cwd, this.config.initializationOptions),
        ),
        proc.exited.then(({ code, signal }) => {
          throw new Error(`the server exited during initialize (code ${code}, signal ${signal})`);
        }),
      ]);
      session.capabilities = (result as { capabilities?: Record<string, unknown> } | undefined)?.capabilities ?? {};
      await session.connection.sendNotification(this.options.protocol.InitializedNotification.type, {});
      session.readiness.initialized();
    } catch (e) {
      // Crash accounting happens in the exit handler; a server that is alive but failed to
      // initialize is ended here.
      if (!session.closed) {
        await this.end(session);
      } else {
        await new Promise((r) => setImmediate(r));
      }
      if (this.policy.failed) throw crashedError(this.config, this.policy, this.lastCrash);
      const stderr = proc.stderrTail();
      throw notReadyError(
        this.config,
        `initialize failed: ${errorMessage(e)}${stderr.length ? `; stderr: ${stderr.slice(-5).join(' | ')}` : ''}`,
      );
    }
    if (this._stopped) {
      await this.end(session);
      throw stoppedError(this.config);
    }
    this.running = session;
    this._state = 'running';
    this._startError = undefined;
    return session;
  }

  /** The process exited: a crash unless it was being ended or the lifecycle stopped. */
  private exited(session: ServerSession, code: number | null, signal: string | null): void {
    session.closed = true;
    session.connection.dispose();
    if (this.running === session) this.running = undefined;
    if (this._stopped || session.ending) return;
    const stderr = session.process.stderrTail();
    this.lastCrash = { code, signal, stderr };
    const decision = this.policy.crashed();
    const id = this.config.id;
    if (decision.restart) {
      this.restartAt = Date.now() + decision.delayMs;
      this._state = 'backoff';
      this.options.log.warn(
        `lsp '${id}': server exited (code ${code}, signal ${signal}); crash ${decision.crashes}, restart in ${decision.delayMs} ms on the next query. stderr: ${stderr.slice(-5).join(' | ')}`,
      );
    } else {
      this._state = 'failed';
      this.options.log.error(
        `lsp '${id}': server crashed ${decision.crashes} times within ${this.policy.windowMs / 1000} s; not restarting. stderr: ${stderr.slice(-5).join(' | ')}`,
      );
    }
  }

  private async end(session: ServerSession): Promise<void> {
    await session.end();
    this.options.log.info(`lsp '${this.config.id}': stopped`);
  }
}
