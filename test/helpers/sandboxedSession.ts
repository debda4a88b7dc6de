/**
 * A sandboxed session per test, on the real pty-bash backend in the real sandbox runtime
 * (bubblewrap): fresh folders before each test (./sandboxFolders.ts), the session opened on demand
 * in the workspace folder, and everything closed and removed after each test.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SandboxRuntime } from '../../src/terminal/sandbox/runtime';
import { SandboxSettingValues, sandboxPolicy } from '../../src/terminal/sandbox/policy';
import { SILENT_LOG } from '../../src/common/log';
import type { SendResult } from '../../src/terminal/types';
import { sandboxFolders } from './sandboxFolders';
import { Harness, harness } from './terminalHarness';

/** The current test's sandboxed session; see {@link sandboxedSessionPerTest}. */
export interface SandboxedSession {
  /** The sandbox runtime, disposed after each test. */
  readonly runtime: SandboxRuntime;
  /** The test's folders (made before each test): root, workspace (writable), outside, denied. */
  folders: ReturnType<typeof sandboxFolders>;
  /** The harness once {@link open} ran, until {@link close}. */
  h: Harness | undefined;
  /** The session that sends go to (`open` sets it; a test may point it at another of the harness's sessions). */
  id: string;
  /** Opens a sandboxed session in the workspace folder (quiet threshold 6 s) and checks that it is sandboxed. */
  open: () => Promise<void>;
  /** Types `input` into the session and waits as a send does. */
  send: (input: string) => Promise<SendResult>;
  /** Closes the harness and its sessions now (after each test this happens anyway). */
  close: () => Promise<void>;
}

/**
 * Registers mocha hooks in the calling `describe` and returns the test's sandboxed session.
 * @param prefix the temporary folders' name prefix.
 * @param values the sandbox settings, given the test's folders (e.g. `denyRead` naming `denied`).
 */
export function sandboxedSessionPerTest(
  prefix: string,
  values: (folders: ReturnType<typeof sandboxFolders>) => SandboxSettingValues,
): SandboxedSession {
  const s: SandboxedSession = {
    runtime: new SandboxRuntime(SILENT_LOG),
    folders: { root: '', workspace: '', outside: '', denied: '' },
    h: undefined,
    id: '',
    open: async () => {
      const { root, workspace } = s.folders;
      const policy = sandboxPolicy(values(s.folders), { workspaceFolders: [workspace], tempFolder: path.join(root, 'tmp') });
      const h = harness({ quietThresholdMs: 6_000 }, { sandbox: { runtime: s.runtime, policy: () => policy } });
      s.h = h;
      s.id = (await h.service.open(h.owner, { cwd: workspace, exactCwd: true })).sessionId;
      assert.equal(h.service.list(h.owner)[0]!.sandbox.on, true);
    },
    send: (input) => s.h!.service.send(s.h!.owner, s.id, { input }),
    close: async () => {
      const h = s.h;
      s.h = undefined;
      await h?.dispose();
    },
  };
  beforeEach(() => {
    s.folders = sandboxFolders(prefix);
  });
  afterEach(async () => {
    await s.close();
    await s.runtime.dispose();
    fs.rmSync(s.folders.root, { recursive: true, force: true });
  });
  return s;
}
