/**
 * Restricted Mode (the launcher opens the workspace untrusted for `*.untrusted.test.ts`): the
 * terminal API other extensions get (`exports.terminal`) refuses everything that would start a
 * process, as the tools and palette commands do, and nothing starts.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DshBridgeApi } from '../../src/extension';

/** Pids of the extension host's direct children that are shells or bubblewrap, read from /proc (Linux). */
function hostShells(): number[] {
  const children: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name, which is in parentheses and may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (ppid === process.pid && /^(bash|zsh|sh|dash|bwrap)$/.test(comm)) children.push(Number(name));
    } catch {
      // the process ended while we listed
    }
  }
  return children;
}

describe('the extension API in an untrusted workspace', function () {
  this.timeout(60_000);

  it('terminal.open, send and startBackground refuse with the reason and how to trust; no process starts', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the launcher should open this run in Restricted Mode');
    const api = (await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate()) as DshBridgeApi;
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const marker = path.join(root, 'dsh-untrusted-api-ran');
    fs.rmSync(marker, { force: true });
    const owner = api.terminal.createOwner('untrusted api test');
    const before = new Set(hostShells());
    try {
      const refusal = /not trusted \(Restricted Mode\).*Manage Workspace Trust/s;
      const opened = api.terminal.open(owner, { cwd: root });
      // On a failure, finish what an attacker would do with the session, so the marker says so.
      await assert.rejects(
        opened.then(async (s) => {
          await api.terminal.send(owner, s.sessionId, { input: `touch '${marker}'` });
          return s;
        }),
        (error: Error & { code?: string }) => refusal.test(error.message) && error.code === 'UNTRUSTED_WORKSPACE',
      );
      assert.throws(() => api.terminal.startBackground(owner, 'pty-1', { input: `touch '${marker}'` }), refusal);
      await assert.rejects(api.terminal.send(owner, 'pty-1', { input: `touch '${marker}'` }), refusal);
      assert.deepEqual(api.terminal.list(owner), [], 'the owner has no session');
      const started = hostShells().filter((pid) => !before.has(pid));
      assert.deepEqual(started, [], 'no shell was started by the extension host');
      assert.equal(fs.existsSync(marker), false, 'no command ran');
    } finally {
      for (const s of api.terminal.list(owner)) await api.terminal.close(owner, s.sessionId);
      owner.dispose();
      fs.rmSync(marker, { force: true });
    }
  });
});
