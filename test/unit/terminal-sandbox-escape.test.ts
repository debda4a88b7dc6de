/**
 * What a command typed into a sandboxed session cannot reach outside the sandbox, on the real
 * pty-bash backend in the real sandbox runtime (bubblewrap, its seccomp helper): servers that run
 * outside, through what the extension itself does with the session's private folder when the
 * session closes.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxPolicy, SandboxSettingValues, sandboxPolicy } from '../../src/terminal/sandbox/policy';
import { SandboxRuntime } from '../../src/terminal/sandbox/runtime';
import { Harness, harness } from '../helpers/terminalHarness';
import { SILENT_LOG } from '../../src/common/log';

const VALUES: SandboxSettingValues = {
  dshMode: 'on',
  vscodeEnabled: 'off',
  vscodeEnabledSource: 'default',
  allowNetwork: undefined,
  allowedDomains: undefined,
  deniedDomains: undefined,
  fileSystem: undefined,
  allowUnsandboxedCommands: undefined,
};

/** True when `program` runs here (`program -V` or `--version` exits 0). */
function available(program: string, versionFlag = '-V'): boolean {
  try {
    execFileSync(program, [versionFlag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a sandboxed session reaches nothing outside the sandbox (real bubblewrap, real node-pty, real bash)', function () {
  this.timeout(120_000);
  const runtime = new SandboxRuntime(SILENT_LOG);
  let h: Harness | undefined;
  let id: string;
  let root: string;
  let workspace: string;
  let outside: string;
  const policy = (): SandboxPolicy => sandboxPolicy(VALUES, { workspaceFolders: [workspace], tempFolder: path.join(root, 'tmp') });
  const open = async () => {
    const p = policy();
    h = harness({ quietThresholdMs: 6_000 }, { sandbox: { runtime, policy: () => p } });
    id = (await h.service.open(h.owner, { cwd: workspace, exactCwd: true })).sessionId;
    assert.equal(h.service.list(h.owner)[0]!.sandbox.on, true);
  };
  const send = (input: string) => h!.service.send(h!.owner, id, { input });

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-sandbox-escape-')));
    workspace = path.join(root, 'workspace');
    outside = path.join(root, 'outside');
    for (const d of [workspace, outside, path.join(root, 'tmp')]) fs.mkdirSync(d);
  });
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
    await runtime.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('closing the session never stops a tmux server outside, whatever its commands put in the session\'s private folder', async function () {
    if (!available('tmux')) this.skip();
    // The person's tmux servers, on sockets outside the sandbox: one in a socket folder as tmux
    // names it (tmux-<uid>), one in a folder of another name.
    const uid = process.getuid!();
    const personTmp = path.join(outside, 'tmux-tmp');
    const other = path.join(outside, 'other');
    fs.mkdirSync(personTmp, { mode: 0o700 });
    fs.mkdirSync(path.join(other, `tmux-${uid}`), { recursive: true, mode: 0o700 });
    const tmux = (socket: string, ...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: 'pipe' });
    const sockets = [path.join(personTmp, `tmux-${uid}`, 'default'), path.join(other, `tmux-${uid}`, 'work')];
    fs.mkdirSync(path.dirname(sockets[0]!), { mode: 0o700 });
    for (const socket of sockets) tmux(socket, 'new-session', '-d', '-s', 'main', 'sleep 600');
    try {
      // Two sessions, two ways to point the extension at those sockets: the socket folder inside
      // the private TMUX_TMPDIR as a link, and the private TMUX_TMPDIR itself as a link.
      await open();
      // The session's private folder is the one of the rc file its shell was started with.
      const folder = 'd=$(dirname "$(tr "\\0" " " < /proc/$$/cmdline | grep -o "[^ ]*/bashrc" | head -1)")';
      const first = await send(`${folder} && ln -s ${path.join(personTmp, `tmux-${uid}`)} "$d/tmux/tmux-${uid}" && ls "$d/tmux/tmux-${uid}/"`);
      assert.match(first.output, /^default$/m, first.output);
      const second = await h!.service.open(h!.owner, { cwd: workspace, exactCwd: true });
      id = second.sessionId;
      const moved = await send(`${folder} && mv "$d/tmux" "$d/tmux-away" && ln -s ${other} "$d/tmux" && ls "$d/tmux/tmux-${uid}/"`);
      assert.match(moved.output, /^work$/m, moved.output);
      await h!.dispose();
      h = undefined;
      for (const socket of sockets) {
        let sessions: string;
        try {
          sessions = tmux(socket, 'list-sessions', '-F', '#{session_name}');
        } catch (error) {
          sessions = String(error);
        }
        assert.match(sessions, /^main$/m, `the tmux server outside at ${socket} was stopped when the sandboxed session closed`);
      }
    } finally {
      for (const socket of sockets) {
        try {
          tmux(socket, 'kill-server');
        } catch {
          // Already gone.
        }
      }
    }
  });
});
