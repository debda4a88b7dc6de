/** Test support: a real TerminalService with a real PTY backend (pty-bash or pty-zsh) on the real node-pty. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
// The module object itself, as the extension's loader returns it (tests compare it by reference).
import nodePty = require('node-pty');
import { TerminalConfig, resolveTerminalConfig } from '../../src/terminal/config';
import { PtyBashBackend, type PtyBashOptions } from '../../src/terminal/bash/ptyBash';
import { PtyZshBackend } from '../../src/terminal/zsh/ptyZsh';
import type { ShellName } from '../../src/terminal/session/shellDialect';
import { TerminalService } from '../../src/terminal/service';
import { Owner } from '../../src/terminal/owner';
import { SessionInfo } from '../../src/terminal/session/publishedSession';
import { element } from './element';
import { until } from './wait';
import { redactionWorkerEntry, screenTextWorkerEntry } from './workerEntry';
import type { Log } from '../../src/common/log';

export { nodePty };

/** A log that keeps its lines, so tests can check that no terminal content reaches it. */
export class MemoryLog implements Log {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
}

export interface Harness {
  service: TerminalService;
  owner: Owner;
  log: MemoryLog;
  /** A fresh temporary folder, removed by `dispose`. */
  tmp: string;
  /** Closes every session of every owner of `service`, then removes `tmp`. */
  dispose(): Promise<void>;
}

/**
 * Builds a service with one PTY backend, of `shell` (default bash; the service opens it by
 * default); `config` overrides the defaults. Model text renders and is redacted in the workers the
 * extension ships (screenTextWorker.ts, redactionWorker.ts, bundled from the sources) unless
 * `options` names others.
 */
export function harness(
  config: Partial<TerminalConfig> = {},
  options: PtyBashOptions | ((log: MemoryLog) => PtyBashOptions) = {},
  shell: ShellName = 'bash',
): Harness {
  const log = new MemoryLog();
  const resolved = resolveTerminalConfig(config);
  const service = new TerminalService(
    log,
    () => resolved,
    () => `pty-${shell}`,
  );
  const given = typeof options === 'function' ? options(log) : options;
  const Backend = shell === 'zsh' ? PtyZshBackend : PtyBashBackend;
  const backend = new Backend(nodePty, () => resolved, log, {
    renderWorkerEntry: screenTextWorkerEntry(),
    redactionWorkerEntry: redactionWorkerEntry(),
    ...given,
  });
  service.registerBackend(backend);
  const owner = service.createOwner('test');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-test-'));
  return {
    service,
    owner,
    log,
    tmp,
    async dispose() {
      // Every owner's sessions: a test may open sessions for owners of its own.
      await service.closeAll('test done');
      // Its worker threads (render, redaction, the pattern pool) end with it.
      await backend.dispose();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/**
 * A {@link harness} per test of the calling mocha `describe`: made before each test with these
 * arguments, disposed after it. The returned Harness stands for the current test's (its members
 * read it at each use).
 */
export function harnessPerTest(...args: Parameters<typeof harness>): Harness {
  let current: Harness | undefined;
  beforeEach(() => {
    current = harness(...args);
  });
  afterEach(async () => {
    const h = current;
    current = undefined;
    await h?.dispose();
  });
  const now = (): Harness => current ?? assert.fail('harnessPerTest: used outside a test');
  return {
    get service() {
      return now().service;
    },
    get owner() {
      return now().owner;
    },
    get log() {
      return now().log;
    },
    get tmp() {
      return now().tmp;
    },
    dispose: () => now().dispose(),
  };
}

/** Python printing `expr` (a Python expression of a str) to stdout, as a command line: a program's exact output. */
export function pythonWrites(expr: string): string {
  return `python3 -c 'import sys; sys.stdout.write(${expr})'`;
}

/**
 * The first session the harness's owner lists (the one session a test opened). Throws an
 * AssertionError when it lists none.
 */
export function firstSession(h: Harness): SessionInfo {
  return element(h.service.list(h.owner), 0, 'session listed for the test owner');
}

/**
 * A HOME folder with the given startup file, for cases that need one: `.bashrc` (default) or
 * `.zshrc` for `shell` zsh.
 */
export function homeWithRc(tmp: string, rc: string, shell: ShellName = 'bash'): string {
  const home = fs.mkdtempSync(path.join(tmp, 'home-'));
  fs.writeFileSync(path.join(home, shell === 'zsh' ? '.zshrc' : '.bashrc'), rc);
  return home;
}

export { sleep } from './wait';

/** Resolves once a TCP connect to 127.0.0.1:`port` succeeds (`open`) or fails (`!open`); rejects after `ms`. */
export async function waitForPort(port: number, open: boolean, ms = 15_000): Promise<void> {
  await until(`port ${port} to be ${open ? 'open' : 'closed'}`, async () => (await portOpen(port)) === open, ms, 200);
}

/** Whether a TCP connect to 127.0.0.1:`port` succeeds. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const settle = (isOpen: boolean) => (socket.destroy(), resolve(isOpen));
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
  });
}
